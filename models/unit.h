#pragma once
// The base of every counter unit (AMU, DSU CLUSTERPMU, CMN-600, POWER9 IMC) and
// of the CPU control registers: one TLM target socket for register accesses,
// which arrive already gated, plus what the platform, the gate and the
// testbench need to know about the unit.
#include <cstring>
#include <optional>
#include <ostream>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/access_context.h"
#include "models/firmware_access.h"
#include "models/register_bank.h"
#include "models/soc.h"
#include "models/unit_capabilities.h"

namespace pmusim {

struct address_window {
    std::string name; // "dsu0", "cmn0.cfg", ...
    uint64_t base = 0;
    uint64_t size = 0;
};

// A memory-mapped register resolved by name ("dsu0.PMCR").
struct mmio_register {
    const register_def* def = nullptr;
    uint64_t address = 0; // absolute bus address
};

// Something the waveform, the run summary and the what-if sampler can sample.
struct observable {
    std::string name; // "cpu0.amu.AMEVCNTR00": instance, '.', counter (split at the last '.')
    unsigned width;   // bits
    std::function<uint64_t()> value;
    // The event the counter counts now ("0x2b l3d_cache"); empty for non-counters.
    std::function<std::string()> event;

    observable(std::string name_, unsigned width_, std::function<uint64_t()> value_,
               std::function<std::string()> event_ = {})
        : name(std::move(name_)), width(width_), value(std::move(value_)), event(std::move(event_)) {}
};

// Ground truth for `pmusim simulate` (stats.json): how many of an event happened
// at a unit's inputs since time 0, whether or not a counter was programmed for it.
struct event_total {
    std::string instance; // "cpu0", "dsu0", "cmn0.xp3"
    std::string event;    // the unit's event name ("l3d_cache", "cpu_cycles")
    uint64_t code;        // the event number software programs (0 if none)
    uint64_t count;
};

// A unit is the forward interface of its register socket (a plain target socket, one virtual
// call per access, as the gate and the bus). This class holds what every unit needs; what only
// some units do (numbered system-register slots, firmware profile code, bus mastering, model
// inputs, derived parameters) is an optional capability (models/unit_capabilities.h) the unit
// class also derives from and the platform discovers.
class unit : public sc_core::sc_module, public tlm::tlm_fw_transport_if<> {
public:
    // Register accesses: memory-mapped ones from the system bus; system-register ones too when a
    // test drives the unit alone (the gate calls serve_sysreg).
    tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 1> registers_in;

    unit(const sc_core::sc_module_name& name, soc& system);

    virtual std::string type() const = 0;
    virtual const register_table& table() const = 0;

    // Address windows this unit decodes (absolute bus addresses).
    virtual std::vector<address_window> mmio_windows() const { return {}; }
    // System registers this unit implements on CPU `cpu`.
    virtual std::vector<const register_def*> sysregs(unsigned cpu) const { (void)cpu; return {}; }
    // The access rule for a system-register access, asked by the gate before the
    // access reaches the unit. Sets ctx.outcome/syndrome/detail when refused. It must read
    // nothing but the request half of `ctx`, `reg`, the direction, register values and the
    // fixed configuration: the gate allows the same request again without asking while no
    // register value has changed (firmware_gate::owner).
    virtual access_outcome sysreg_rule(access_context& ctx, const register_def& reg, bool is_write);
    // An allowed system-register access, from the gate by a direct call: MRS/MSR never leave the core,
    // so no socket sits between the trap logic and the register (firmware_gate.h). `slot` is what
    // sysreg_slot(cpu, reg) returned for this CPU and register when the platform was built: a unit
    // with the sysreg_slots capability numbers its registers and serves the access without decoding
    // it again; any other unit serves it as an access on the register socket.
    uint32_t sysreg_slot(unsigned cpu, const register_def& reg) const {
        const sysreg_slots* s = slots();
        return s ? s->sysreg_slot(cpu, reg) : 0;
    }
    void serve_sysreg(uint32_t slot, tlm::tlm_generic_payload& trans, access_context& ctx) {
        if (sysreg_slots* s = slots()) s->serve_sysreg(slot, trans, ctx);
        else access(trans, ctx);
    }
    // A memory-mapped register by its name in this unit (for `INSTANCE.REG`).
    virtual std::optional<mmio_register> find_mmio_register(const std::string& name) const;

    virtual void reset(bool cold) { (void)cold; }
    // `inject UNIT[.NODE] EVENT COUNT [over D]`: false with `error` set when refused. A statement
    // rather than a unit command: every counting unit has event inputs to inject into.
    virtual bool inject(const std::string& node, const std::string& event, uint64_t count, fs_t over,
                        std::string& error);
    // The refusals of `inject` for a unit whose events have no nodes and are known by name and
    // code (the DSU, the CoreSight PMU), worded once.
    struct named_event {
        std::string name;
        uint32_t code;
    };
    std::string inject_node_refused() const; // "dsu0 has no nodes (inject dsu0 EVENT COUNT)"
    std::string inject_unknown_event(const std::string& event, const std::vector<named_event>& events) const;
    std::string inject_clock_event(const std::string& event_name, const std::string& clock) const;
    // Unit-only verbs of the sequence language are unit commands (models/unit_command.h), registered
    // with the unit type, not virtual functions here; firmware profile code, bus mastering, model
    // inputs and derived parameters are capabilities (models/unit_capabilities.h).
    // Run-summary lines, each ending with a newline.
    virtual void report(std::ostream& out) { (void)out; }
    virtual void observables(std::vector<observable>& out) { (void)out; }
    // Control registers a waveform shows next to the counters (enables, interrupt enables). They
    // are not counters: the what-if sampler and stats.json leave them out (docs/logs.md, "VCD").
    virtual void control_registers(std::vector<observable>& out) { (void)out; }
    // Every event the unit can count, counted until now (see event_total).
    virtual void event_totals(std::vector<event_total>& out) { (void)out; }

protected:
    soc& system_;
    // Register access after gating. Implementations set the TLM response and ctx.outcome.
    virtual void access(tlm::tlm_generic_payload& trans, access_context& ctx) = 0;
    // Serves an access from a bank: system registers by encoding, memory-mapped by
    // offset from `window_base`, 4- or 8-byte aligned; anything else is a bus error.
    void serve_from_bank(register_bank& bank, tlm::tlm_generic_payload& trans, access_context& ctx,
                         uint64_t window_base = 0);
    // A memory-mapped access at `offset` in the bank's frame, already decoded to `r` (nullptr:
    // no register there, RAZ/WI), for units that look at the register before serving it.
    // Inline for the common case, an aligned read of a register.
    void serve_mmio(register_bank& bank, register_bank::reg* r, uint64_t offset, tlm::tlm_generic_payload& trans,
                    access_context& ctx) {
        const unsigned len = trans.get_data_length();
        if (r && trans.is_read() && (len == 8 || len == 4) && (offset & (len - 1)) == 0) {
            const uint64_t data = bank.read_mmio(*r, offset, len);
            if (len == 8) std::memcpy(trans.get_data_ptr(), &data, 8);
            else std::memcpy(trans.get_data_ptr(), &data, 4);
            trans.set_response_status(tlm::TLM_OK_RESPONSE);
            return;
        }
        serve_mmio_otherwise(bank, r, offset, trans, ctx);
    }
    void serve_mmio_otherwise(register_bank& bank, register_bank::reg* r, uint64_t offset,
                              tlm::tlm_generic_payload& trans, access_context& ctx);

private:
    // The unit's sysreg_slots capability, looked up once (after construction, when the dynamic
    // type is the unit's own): null when the unit has none.
    sysreg_slots* slots() const {
        if (!slots_known_) {
            slots_ = dynamic_cast<sysreg_slots*>(const_cast<unit*>(this));
            slots_known_ = true;
        }
        return slots_;
    }
    mutable sysreg_slots* slots_ = nullptr;
    mutable bool slots_known_ = false;

    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) final;
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay) final;
    unsigned int transport_dbg(tlm::tlm_generic_payload& trans) final;
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) final; // registers: no DMI
};

// Helpers for the common system-register trap rules.
access_outcome refuse(access_context& ctx, access_outcome outcome, const register_def& reg, bool is_write,
                      std::string why);

} // namespace pmusim
