#pragma once
/// @file
/// A whole pmusim platform (built-in "arm-default", "power9-default", or a platform YAML file)
/// inside a user's sc_main: bind initiators to `gate`, interrupt outputs to signals, and run
/// processes alongside (docs/embedding.md).
#include <string>

#include "pmusim/model.h"

namespace pmusim {

struct platform_options {
    /// Assumed for payloads without the access_context extension (default: Non-secure EL1 CPU 0;
    /// on POWER: supervisor, CPU 0).
    access_context default_initiator;
    bool default_initiator_given = false;
};

class platform_model : public model {
public:
    /// `platform`: a built-in name or the path of a platform YAML file (docs/platform-config.md).
    /// Errors in the file are SC_REPORT_ERRORs naming file:line and what was expected. The
    /// platform's firmware profile (e.g. TF-A) runs before the simulation starts.
    platform_model(const sc_core::sc_module_name& name, const std::string& platform,
                   const platform_options& options = {});
    /// The firmware gate: every initiator's accesses enter here (memory-mapped ones go on to the
    /// platform's bus; system-register ones to their CPU's registers, after the trap rules).
    decltype(model::target)& gate;
    /// Interrupt outputs are irq_port(line) for each of irq_lines() ("dsu0_pmu_irq", ...); ports
    /// left unbound are fine. Frequency inputs are frequency_in(clock) for each of clocks().
};

} // namespace pmusim
