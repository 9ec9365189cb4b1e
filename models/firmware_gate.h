#pragma once
// The firmware / exception-level gate: every initiator's accesses enter here.
//
// A system-register access (MRS/MSR) never travels over the system bus, on silicon or
// here: the gate finds the unit implementing that encoding on the accessing CPU (none:
// UNDEFINED), asks the unit's access rule, which reads the CPU's control registers
// (CPTR_EL3.TAM, HCR_EL2.TGE, ACTLR_EL3, ...), and hands an allowed access straight to
// that unit by calling its `serve_sysreg`: the register is inside the core, so there is
// no interconnect to model between the trap logic and it (VCML models a processor's
// system registers the same way). A refused access never reaches the unit:
// TLM_COMMAND_ERROR_RESPONSE with the outcome and ESR syndrome in the access context.
// Memory-mapped accesses go on to the system bus; their access conditions (locks,
// power, security) belong to the units.
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/integer_map.h"
#include "models/register_bank.h"

namespace pmusim {

class unit;
class sysreg_slots;
class system_bus;

// The gate is its own forward interface (as in the Accellera LT examples): a plain target
// socket that any number of initiators bind to, and one virtual call per hop instead of a
// convenience socket's callback binder (docs/performance.md, scenario 2).
class firmware_gate : public sc_core::sc_module, public tlm::tlm_fw_transport_if<> {
public:
    tlm::tlm_target_socket<32, tlm::tlm_base_protocol_types, 0, sc_core::SC_ZERO_OR_MORE_BOUND> from_initiators;
    tlm_utils::simple_initiator_socket<firmware_gate> to_bus; // memory-mapped accesses

    explicit firmware_gate(const sc_core::sc_module_name& name);

    // `owner` implements `reg` on `cpu` (its unit::sysreg_slot numbers the pair once, here).
    void own_sysreg(unsigned cpu, const register_def& reg, unit& owner);
    struct owner {
        unit* owner_unit;
        const register_def* reg;
        // The owner's sysreg_slots capability (models/unit_capabilities.h), found once; nullptr
        // when it has none (then owner_unit->serve_sysreg answers).
        sysreg_slots* server;
        uint32_t slot; // owner_unit->sysreg_slot(cpu, *reg), passed back on every access
        // The last request the owner's rule allowed here (access_context::request_bits) and
        // register_value::changes() then: the same request is allowed again without asking while
        // no register value anywhere has changed (unit::sysreg_rule reads nothing else).
        mutable uint32_t allowed_request = ~0u;
        mutable uint64_t allowed_at_changes = ~uint64_t(0);
    };
    const owner* sysreg_owner(unsigned cpu, uint32_t key) const { return owner_of((uint64_t(cpu) << 32) | key); }

    uint64_t accesses() const { return accesses_; }
    uint64_t refused() const { return refused_; }

private:
    // The owner of (cpu << 32 | encoding key), or nullptr. Software reads one register in a loop
    // (polling a counter), so the last key's owner is remembered: one comparison instead of a
    // hash probe (docs/performance.md, scenario 2). Owners are only added before simulation, and
    // adding one forgets it (the table may move).
    const owner* owner_of(uint64_t key) const {
        if (key == last_key_) return last_owner_;
        const owner* o = owners_.find(key);
        last_key_ = key;
        last_owner_ = o;
        return o;
    }
    // A system-register access, whose context the gate has found and reset: the owner's rule and
    // its serve_sysreg (b_transport tail-calls it, so a memory-mapped access saves no registers).
    void transport_system_register(tlm::tlm_generic_payload& trans, access_context& ctx);
    // The rest of it, out of line: the rule asked (unless remembered), then the owner's serve_sysreg.
    [[gnu::noinline]] void transport_system_register_asking(const owner& o, tlm::tlm_generic_payload& trans,
                                                            access_context& ctx, uint32_t request);
    // Refuses an access whose payload carries no access context (off the hot path).
    [[gnu::cold]] void refuse_without_context(tlm::tlm_generic_payload& trans);
    // Finds the system bus behind to_bus, if it is one (ports are bound by now).
    void end_of_elaboration() override;
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay) override;
    unsigned int transport_dbg(tlm::tlm_generic_payload& trans) override;
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) override;
    // Answers a system-register access nobody implements: UNDEFINED (off the hot path).
    [[gnu::cold]] void answer_undefined(tlm::tlm_generic_payload& trans, access_context& ctx) const;
    // Asks the owner's rule (a request not allowed since the last register change): true when
    // allowed, which is remembered; otherwise the refusal is answered. Out of line, so that an
    // access the gate remembers passes through without saving registers for a call.
    [[gnu::noinline]] bool ask_rule(const owner& o, access_context& ctx, tlm::tlm_generic_payload& trans,
                                    uint32_t request);

    // The system bus to_bus is bound to, called directly for memory-mapped accesses (the gate and
    // the bus one hop: docs/performance.md, scenario 2); nullptr when to_bus is bound to another
    // target, which the socket then reaches.
    system_bus* bus_ = nullptr;
    integer_map<owner> owners_; // (cpu << 32 | encoding key) -> owner
    mutable uint64_t last_key_ = ~uint64_t(0); // no key: a CPU number never reaches 2^32 - 1
    mutable const owner* last_owner_ = nullptr;
    uint64_t accesses_ = 0, refused_ = 0;
};

} // namespace pmusim
