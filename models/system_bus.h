#pragma once
// The system bus: a loosely-timed TLM-2.0 router built from the platform's
// address map, plus one system-register space per CPU.
//
// Memory-mapped accesses are decoded by address; the target sees an address
// relative to its window unless the window was mapped with `absolute` (units
// that decode several windows themselves). Unmapped addresses end in
// TLM_ADDRESS_ERROR_RESPONSE with the address named in the access context.
// System-register accesses carry the encoding key as address and are routed by
// (cpu, encoding) to the unit that implements that register on that CPU.
// DMI is forwarded and translated for plain memory.
#include <map>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "models/integer_map.h"

namespace pmusim {

class system_bus : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<system_bus> from_gate;
    tlm_utils::multi_passthrough_initiator_socket<system_bus> to_targets;

    explicit system_bus(const sc_core::sc_module_name& name);

    // Binds a target and returns its port number.
    unsigned attach(tlm::tlm_target_socket<>& target);
    // Windows may not overlap (model_error).
    void map(const std::string& name, uint64_t base, uint64_t size, unsigned port, bool absolute = false);
    void map_sysreg(unsigned cpu, uint32_t key, unsigned port);

    struct window {
        std::string name;
        uint64_t base, size;
        unsigned port;
        bool absolute;
    };
    const window* decode(uint64_t address) const;
    std::vector<window> windows() const;

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
    unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
    int route(tlm::tlm_generic_payload& trans, uint64_t& offset_out);

    unsigned ports_ = 0;
    std::map<uint64_t, window> by_base_;
    integer_map<unsigned> sysreg_routes_; // (cpu << 32 | key) -> port
};

} // namespace pmusim
