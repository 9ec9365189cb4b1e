#pragma once
// What only some units do, as small optional interfaces (Linux's arm_cspmu_impl_ops in spirit: a
// unit implements the few it needs, and everything else has no hook at all). A unit class derives
// from `unit` (models/unit.h) and from the capabilities it has; the platform (vp/platform.h), the
// gate and the sequence runner discover them with capability<T>(unit). Each names the units that
// have it today, so that a reader knows where to look.
#include <cstdint>
#include <optional>
#include <string>
#include <tlm>

#include "models/access_context.h"
#include "models/firmware_access.h"
#include "models/register_bank.h"

namespace pmusim {

class unit;

// System registers numbered once per (CPU, register) when the platform is built, so that the
// gate's direct call (firmware_gate.h) serves an access without decoding it again (the AMU, the
// generic timer). Without it, a system-register access is served as one on the register socket.
class sysreg_slots {
public:
    virtual ~sysreg_slots() = default;
    // The number serve_sysreg receives back for every access to `reg` on `cpu`.
    virtual uint32_t sysreg_slot(unsigned cpu, const register_def& reg) const = 0;
    // An allowed system-register access (unit::sysreg_rule said ok).
    virtual void serve_sysreg(uint32_t slot, tlm::tlm_generic_payload& trans, access_context& ctx) = 0;
};

// Register accesses a firmware profile performs on the unit's behalf, as typed steps
// (models/firmware_access.h) that the runner performs through the gate, into the access log: at
// boot (time 0, before the user's sequence), and around CPU `cpu`'s power transitions
// (power_down just before it goes off, power_up just after it leaves off, e.g. TF-A's AMU
// save/restore at EL3). The AMU, the DSU and the IMC; a step list may be empty.
class firmware_profile_code {
public:
    virtual ~firmware_profile_code() = default;
    virtual firmware_code firmware_boot(const std::string& profile) = 0;
    virtual firmware_code firmware_power_down(const std::string& profile, unsigned cpu) {
        (void)profile, (void)cpu;
        return {};
    }
    virtual firmware_code firmware_power_up(const std::string& profile, unsigned cpu) {
        (void)profile, (void)cpu;
        return {};
    }
};

// A unit that writes memory itself (the IMC posting its counters): the platform binds this
// initiator socket to the gate like any initiator.
class bus_master {
public:
    virtual ~bus_master() = default;
    virtual tlm::tlm_initiator_socket<>& bus_master_socket() = 0;
};

// Model inputs: wires and pins on silicon (authentication signals, lock inputs) that the model
// names like registers so that a testbench can set them (the DSU's CTL_AUTH). No bus access
// reaches them (the unit serves their offsets RAZ/WI to every initiator); only the testbench
// does, by this direct call (a sequence's `write dsu0.CTL_AUTH 3`).
class model_inputs {
public:
    virtual ~model_inputs() = default;
    virtual bool is_model_input(const register_def& def) const = 0;
    // Reads or writes the input; false when `def` is not a model input of this unit or (a write)
    // is a read-only status.
    virtual bool testbench_input(const register_def& def, bool is_write, uint64_t& value) = 0;
};

// Parameters a unit derives when the platform leaves them out (the CMN-600's root_node_offset
// from its HN-D port): the canonical value in use, so that `param` reports it.
class derived_params {
public:
    virtual ~derived_params() = default;
    virtual std::optional<std::string> param_in_use(const std::string& param) const = 0;
};

// The capability `Capability` of `u`, or null when the unit does not have it.
template <class Capability, class Unit> Capability* capability(Unit& u) { return dynamic_cast<Capability*>(&u); }
template <class Capability, class Unit> const Capability* capability(const Unit& u) {
    return dynamic_cast<const Capability*>(&u);
}

} // namespace pmusim
