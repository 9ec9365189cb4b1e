#include "models/memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "models/access_context.h"

namespace pmusim {

memory::memory(const sc_core::sc_module_name& name, uint64_t size, bool big_endian)
    : sc_module(name), in("in"), size_(size), big_endian_(big_endian) {
    if (size_ > 0) {
        void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            throw memory_reservation_error(fmt::format("the host cannot reserve {} bytes of addresses for memory {} ({})",
                                                       size_, basename(), std::strerror(errno)));
        bytes_ = static_cast<uint8_t*>(p);
    }
    in.register_b_transport(this, &memory::b_transport);
    in.register_get_direct_mem_ptr(this, &memory::get_direct_mem_ptr);
    in.register_transport_dbg(this, &memory::transport_dbg);
}

memory::~memory() {
    if (bytes_) munmap(bytes_, size_);
}

void memory::check_range(uint64_t offset, uint64_t length) const {
    if (offset > size_ || length > size_ - offset)
        throw std::out_of_range(fmt::format("memory {}: offset {:#x} + {} outside its {} bytes", basename(), offset,
                                            length, size_));
}

void memory::store_be64(uint64_t offset, uint64_t value) {
    check_range(offset, 8);
    for (int i = 0; i < 8; ++i) bytes_[offset + i] = uint8_t(value >> (56 - 8 * i));
}

uint64_t memory::load_be64(uint64_t offset) const {
    check_range(offset, 8);
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | bytes_[offset + i];
    return v;
}

void memory::clear() {
    // A private anonymous page dropped with MADV_DONTNEED reads as zeros when touched again.
    if (bytes_ && madvise(bytes_, size_, MADV_DONTNEED) != 0) std::memset(bytes_, 0, size_);
}

unsigned memory::copy(tlm::tlm_generic_payload& trans) {
    uint64_t addr = trans.get_address();
    unsigned len = trans.get_data_length();
    const bool outside = addr > size_ || len > size_ - addr;
    if (trans.get_byte_enable_ptr() || outside || len == 0) {
        trans.set_response_status(outside ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                                                             : tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        if (auto* ctx = trans.get_extension<access_context>()) ctx->outcome = access_outcome::error;
        return 0;
    }
    bool swap = big_endian_ && (len == 2 || len == 4 || len == 8) && addr % len == 0;
    uint8_t* p = trans.get_data_ptr();
    uint8_t* m = &bytes_[addr];
    if (trans.is_read()) {
        if (swap) std::reverse_copy(m, m + len, p);
        else std::memcpy(p, m, len);
    } else if (trans.is_write()) {
        if (swap) std::reverse_copy(p, p + len, m);
        else std::memcpy(m, p, len);
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    trans.set_dmi_allowed(true);
    return len;
}

void memory::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time&) { copy(trans); }
unsigned int memory::transport_dbg(tlm::tlm_generic_payload& trans) { return copy(trans); }

bool memory::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
    if (!bytes_) return false;
    dmi.set_dmi_ptr(bytes_);
    dmi.set_start_address(0);
    dmi.set_end_address(size_ - 1);
    dmi.allow_read_write();
    return true;
}

} // namespace pmusim
