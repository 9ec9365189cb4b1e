#pragma once
// Plain memory (DRAM, HOMER, trace buffers) with a byte order.
//
// Bytes are kept in memory order. A 2-, 4- or 8-byte aligned access to a
// big-endian memory is byte-swapped so that the payload carries the numeric
// value in host order (the TLM-2.0 convention for word accesses); other
// accesses copy bytes. Units that write big-endian counters use store_be64.
// DMI gives direct access to the bytes (memory order).
//
// The bytes are an anonymous mapping reserved without backing (MAP_NORESERVE): the host gives a
// page when it is first touched, so a 64 GiB DRAM costs what the run writes, not 64 GB at start.
#include <cstdint>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <stdexcept>

namespace pmusim {

class memory_reservation_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class memory : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<memory> in;

    // Throws memory_reservation_error when the host cannot reserve `size` bytes of addresses.
    memory(const sc_core::sc_module_name& name, uint64_t size, bool big_endian);
    ~memory() override;
    memory(const memory&) = delete;
    memory& operator=(const memory&) = delete;

    uint64_t size() const { return size_; }
    bool big_endian() const { return big_endian_; }
    uint8_t* data() { return bytes_; }

    // Direct stores and loads by offset (for units that own regions of this memory).
    void store_be64(uint64_t offset, uint64_t value);
    uint64_t load_be64(uint64_t offset) const;
    void clear(); // every byte 0 again; the touched pages go back to the host

private:
    void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
    bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
    unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
    unsigned copy(tlm::tlm_generic_payload& trans);

    void check_range(uint64_t offset, uint64_t length) const;

    uint8_t* bytes_ = nullptr;
    uint64_t size_;
    bool big_endian_;
};

} // namespace pmusim
