#pragma once
// Plain memory (DRAM, HOMER, trace buffers) with a byte order.
//
// Bytes are kept in memory order. A 2-, 4- or 8-byte aligned access to a
// big-endian memory is byte-swapped so that the payload carries the numeric
// value in host order (the TLM-2.0 convention for word accesses); other
// accesses copy bytes. Units that write big-endian counters use store_be64.
// DMI gives direct access to the bytes (memory order).
#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

namespace pmusim {

class memory : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<memory> in;

    memory(const sc_core::sc_module_name& name, uint64_t size, bool big_endian);

    uint64_t size() const { return bytes_.size(); }
    bool big_endian() const { return big_endian_; }
    uint8_t* data() { return bytes_.data(); }

    // Direct stores and loads by offset (for units that own regions of this memory).
    void store_be64(uint64_t offset, uint64_t value);
    uint64_t load_be64(uint64_t offset) const;
    void clear();

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
    unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
    unsigned copy(tlm::tlm_generic_payload& trans);

    std::vector<uint8_t> bytes_;
    bool big_endian_;
};

} // namespace pmusim
