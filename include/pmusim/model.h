#pragma once
/// @file
/// pmusim::model: what every embeddable pmusim model offers a SystemC platform (docs/embedding.md).
///
/// A model is an ordinary sc_module. It has
///  - one plain TLM-2.0 target socket (`target`): register accesses as generic payloads, with or
///    without the pmusim::access_context extension (without it, the socket's default initiator
///    is assumed);
///  - one `sc_core::sc_out<bool>` per interrupt line, written at the exact instant of the edge
///    (the overflow's clock edge; the signal changes one delta later at the same time);
///  - one optional frequency input port per clock domain (`sc_signal<uint64_t>`, Hz), and
///    set_frequency() for DVFS at any instant;
///  - activity inputs (per-CPU workload rates, injected events, CMN requester traffic);
///  - the CPUs' system registers through read_sysreg()/write_sysreg(), since MRS/MSR do not travel
///    on a bus.
/// Misuse is reported the SystemC way (SC_REPORT_ERROR, message types "/pmusim/...").
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "pmusim/access_context.h"

namespace pmusim {

struct platform_config; // pmusim's own description of a platform (internal)

/// The frequency input of a clock domain: bind it to an sc_signal<uint64_t> holding the frequency
/// in Hz (0 stops the clock). Optional; set_frequency() does the same from code.
using frequency_port = sc_core::sc_port<sc_core::sc_signal_in_if<uint64_t>, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;

/// An interrupt input (a device's, e.g. a GIC's SPI): bind it to an sc_signal<bool> (high =
/// asserted). Optional: an unbound input stays low.
using interrupt_in_port = sc_core::sc_port<sc_core::sc_signal_in_if<bool>, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;

/// What a model is built from (filled in by the concrete models' constructors).
struct model_spec {
    /// The platform, described in code from typed options (the units alone, units.h) ...
    std::function<platform_config()> platform;
    std::string platform_name;   ///< ... or a built-in platform name / YAML path when that is empty
    std::string description;     ///< for messages ("dsu_pmu", "platform arm-default")
    access_context default_initiator; ///< assumed for payloads without the extension
    /// Interrupt lines whose port must be bound (an unbound one is an elaboration error); the other
    /// ports may stay unbound. Port names: line -> port name ("dsu0_pmu_irq" -> "irq").
    std::map<std::string, std::string> irq_port_names;
    std::vector<std::string> required_irqs;
    std::map<std::string, std::string> frequency_port_names; ///< clock -> port name
    /// Interrupt lines the model takes as inputs (line -> port name): each gets an
    /// interrupt_in_port instead of an output.
    std::map<std::string, std::string> irq_input_port_names;
};

class model : public sc_core::sc_module {
public:
    /// Register accesses. Addresses are those of the model's address map (for a unit alone: the
    /// offset in its frame; for a platform: the platform's bus address). System-register accesses
    /// arrive here too when the payload's access_context says access_path::system_register (then
    /// the address is sysreg_encoding::key()). Any number of initiators may bind.
    tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 0, sc_core::SC_ZERO_OR_MORE_BOUND> target;

    ~model() override;
    model(const model&) = delete;
    model& operator=(const model&) = delete;

    /// The access context assumed for a payload that carries no access_context extension.
    void set_default_initiator(const access_context& context);
    const access_context& default_initiator() const;

    /// The interrupt output of an interrupt line (names: irq_lines()).
    sc_core::sc_out<bool>& irq_port(const std::string& line);
    std::vector<std::string> irq_lines() const;
    /// The line's level now (the model's own view; the port follows it one delta later).
    bool irq_level(const std::string& line) const;
    /// The input port of an interrupt input line (names: irq_input_lines()).
    interrupt_in_port& irq_input(const std::string& line);
    std::vector<std::string> irq_input_lines() const;

    /// DVFS: the clock domain runs at `hz` from now on (integer Hz, 0 stops it). Clock names:
    /// clocks(); "cpuN" is CPU N's clock.
    void set_frequency(const std::string& clock, uint64_t hz);
    uint64_t frequency(const std::string& clock) const;
    /// Edges of the clock in (0, now] (the convention of docs/architecture.md).
    uint64_t clock_edges(const std::string& clock) const;
    frequency_port& frequency_in(const std::string& clock);
    std::vector<std::string> clocks() const;

    /// CPU `cpu`'s rate of a workload event key ("inst", "mem_stall", "l3_access", ...) from now on,
    /// in events per CPU clock edge as the fraction num/den (models/core.h lists the keys).
    void set_workload(unsigned cpu, const std::string& key, uint64_t num, uint64_t den = 1);
    /// `count` events of `event` at unit `unit` (".NODE" selects a CMN node), now or spread evenly
    /// over `over` from now (the sequence language's `inject`).
    void inject(const std::string& unit, const std::string& event, uint64_t count,
                const sc_core::sc_time& over = sc_core::SC_ZERO_TIME);
    /// CMN requester traffic (the sequence language's `traffic`): requester {"X,Y", "pP"},
    /// settings {"rate=1/4", "reads=1/2", ...} or {"off"}.
    void set_traffic(const std::string& unit, const std::vector<std::string>& requester,
                     const std::vector<std::string>& settings);

    /// MRS: reads the system register `encoding` of CPU `cpu` as the access `context` describes
    /// (exception level, security state, guest; its cpu is set to `cpu`). The access passes the
    /// same trap rules as on silicon; context.outcome says whether it was done (access_outcome::ok)
    /// or trapped/UNDEFINED (then context.syndrome holds the ESR). Returns 0 unless done.
    uint64_t read_sysreg(unsigned cpu, sysreg_encoding encoding, access_context& context);
    /// MSR, as read_sysreg.
    void write_sysreg(unsigned cpu, sysreg_encoding encoding, uint64_t value, access_context& context);
    /// The encoding of an architectural system-register name on `cpu` ("AMEVCNTR00_EL0",
    /// "CLUSTERPMCR_EL1"); an SC_REPORT_ERROR for unknown names.
    sysreg_encoding sysreg(const std::string& name, unsigned cpu = 0) const;
    /// The bus address of a memory-mapped register "UNIT.REG" ("dsu0.PMCR", "cmn0.cfg.por_info").
    uint64_t address_of(const std::string& name) const;

protected:
    model(const sc_core::sc_module_name& name, const model_spec& spec);

private:
    void before_end_of_elaboration() override;
    void start_of_simulation() override;

    struct impl;
    std::unique_ptr<impl> impl_;
};

} // namespace pmusim
