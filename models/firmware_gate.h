#pragma once
// The firmware / exception-level gate between initiators and the system bus.
//
// For a system-register access it finds the unit implementing that encoding on
// the accessing CPU (none: UNDEFINED) and asks the unit's access rule, which
// reads the CPU's control registers (CPTR_EL3.TAM, HCR_EL2.TGE, ACTLR_EL3, ...).
// A refused access never reaches the unit: TLM_COMMAND_ERROR_RESPONSE with the
// outcome and ESR syndrome in the access context. Memory-mapped accesses pass
// through; their access conditions (locks, power, security) belong to the units.
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "models/integer_map.h"
#include "models/register_bank.h"

namespace pmusim {

class unit;

class firmware_gate : public sc_core::sc_module {
public:
    tlm_utils::multi_passthrough_target_socket<firmware_gate> from_initiators;
    tlm_utils::simple_initiator_socket<firmware_gate> to_bus;

    explicit firmware_gate(const sc_core::sc_module_name& name);

    void own_sysreg(unsigned cpu, const register_def& reg, unit& owner);
    struct owner {
        unit* owner_unit;
        const register_def* reg;
    };
    const owner* sysreg_owner(unsigned cpu, uint32_t key) const;

    uint64_t accesses() const { return accesses_; }
    uint64_t refused() const { return refused_; }

private:
    void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    unsigned int transport_dbg(int id, tlm::tlm_generic_payload& trans);
    bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);

    integer_map<owner> owners_; // (cpu << 32 | encoding key) -> owner
    uint64_t accesses_ = 0, refused_ = 0;
};

} // namespace pmusim
