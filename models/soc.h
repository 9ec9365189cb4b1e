#pragma once
// What a unit can see of the system it sits in: clock domains, the CPUs'
// activity models, interrupt lines and the per-CPU firmware controls.
// The platform (tb/platform) owns and fills it; units only look things up.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/clock_domain.h"
#include "models/core.h"
#include "models/input_error.h"
#include "models/interrupt_line.h"

namespace pmusim {

class cpu_controls;

struct cpu_description {
    unsigned index = 0;
    unsigned cluster = 0;
    std::string clock;
    bool power_arch = false;
    // The ID_AA64PFR0_EL1 fields the CPU's `features:` set (the AMU field from features.amu), as
    // cpu_controls serves the register. Filled by the platform from the unit descriptors' feature
    // keys (cpu_feature_spec::id_aa64pfr0_field), so neither this header nor cpu_controls knows a
    // unit; the units get their own per-CPU values from their factories (platform_view).
    uint64_t id_aa64pfr0_feature_fields = 0;
    uint64_t id_aa64pfr0_guest_hidden = 0; // the fields guests read as 0 (cpu_feature_spec::hidden_from_guests)
};

class soc {
public:
    std::map<std::string, std::unique_ptr<clock_domain>> clocks;
    std::vector<std::unique_ptr<core_model>> cores;
    std::vector<cpu_description> cpus;
    std::map<std::string, std::unique_ptr<interrupt_line>> irq_lines;
    cpu_controls* controls = nullptr;
    std::string firmware_profile = "tf-a";

    clock_domain& clock(const std::string& name) const {
        auto it = clocks.find(name);
        if (it == clocks.end()) throw model_error("no clock domain " + name);
        return *it->second;
    }
    core_model& core(unsigned i) const {
        if (i >= cores.size()) throw model_error("no cpu" + std::to_string(i));
        return *cores[i];
    }
    // The CPU control registers, for a unit that reads them (the AMU's and the DSU's access rules):
    // every platform has them, a unit's own bench adds them (tests/unit/unit_bench.h). Without
    // them a model_error names what is missing rather than a null pointer.
    const cpu_controls& control_registers() const {
        if (!controls) throw model_error("no CPU control registers (cpu_controls) in this system: the unit reads them");
        return *controls;
    }
    interrupt_line& irq(const std::string& name) {
        auto& l = irq_lines[name];
        if (!l) l = std::make_unique<interrupt_line>(name);
        return *l;
    }
};

} // namespace pmusim
