// The ISS's side of a debugger and a trace (docs/debugging.md): breakpoints as code hooks on their
// addresses only, the architectural state as GDB numbers it, memory and unit windows, and the
// instruction hook of the trace. The debugger itself is debug/iss_debugger.h.
#include "iss/aarch64_iss.h"

#include <algorithm>
#include <cstring>
#include <vector>
#include <fmt/format.h>
#include <unicorn/unicorn.h>

#include "models/core.h"
#include "models/input_error.h"
#include "models/register_access.h"

namespace pmusim {

namespace {
void check(uc_err e, const char* what) {
    if (e != UC_ERR_OK) throw model_error(fmt::format("Unicorn: {}: {}", what, uc_strerror(e)));
}
constexpr uint64_t pstate_nzcv_daif = 0xf00003c0;
} // namespace

// ---------------------------------------------------------------------------------------------
// Breakpoints

// Code hooks on their addresses, in the engine driver (iss/engine_driver.h): the engine stops
// before the instruction, except once for the breakpoint a CPU resumes from (run_engine).
void aarch64_iss::set_breakpoints(const std::vector<uint64_t>& addresses) { engine_.set_breakpoints(addresses); }

// ---------------------------------------------------------------------------------------------
// Registers

uint64_t aarch64_iss::debug_sp() const {
    uint64_t sp = 0;
    uc_reg_read(uc_, UC_ARM64_REG_SP, &sp);
    return sp;
}
void aarch64_iss::debug_set_sp(uint64_t sp) { uc_reg_write(uc_, UC_ARM64_REG_SP, &sp); }

uint32_t aarch64_iss::debug_pstate() const {
    return uint32_t(levels_.pstate()); // the engine runs at EL1: the EL is the ISS's (exception_levels)
}

void aarch64_iss::debug_set_pstate(uint32_t value) {
    uint64_t ps = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PSTATE, &ps);
    ps = (ps & ~pstate_nzcv_daif) | (value & pstate_nzcv_daif);
    uc_reg_write(uc_, UC_ARM64_REG_PSTATE, &ps);
}

void aarch64_iss::debug_read_v(unsigned n, uint8_t bytes[16]) const {
    uint8_t q[16] = {};
    if (n < 32) uc_reg_read(uc_, UC_ARM64_REG_Q0 + int(n), q);
    std::memcpy(bytes, q, 16);
}
void aarch64_iss::debug_write_v(unsigned n, const uint8_t bytes[16]) {
    uint8_t q[16];
    std::memcpy(q, bytes, 16);
    if (n < 32) uc_reg_write(uc_, UC_ARM64_REG_Q0 + int(n), q);
}

uint32_t aarch64_iss::debug_fp_status(bool control) const {
    uint64_t v = 0;
    uc_reg_read(uc_, control ? UC_ARM64_REG_FPCR : UC_ARM64_REG_FPSR, &v);
    return uint32_t(v);
}
void aarch64_iss::debug_set_fp_status(bool control, uint32_t value) {
    uint64_t v = value;
    uc_reg_write(uc_, control ? UC_ARM64_REG_FPCR : UC_ARM64_REG_FPSR, &v);
}

// ---------------------------------------------------------------------------------------------
// Memory

// A debugger's access to virtual memory (docs/debugging.md "Memory"), as QEMU's gdbstub makes it
// (cpu_memory_rw_debug): each 4 KB page translated on its own by the CPU's stage 1 walk for its
// regime now (walk(): EL1&0 with TTBR0/TTBR1 by bit 55 at EL0 and EL1; EL2 and EL3 run
// untranslated, as their code does), with EL1's read permission: the tables' permissions do not
// stop a debugger (it may patch read-only code), a translation or access flag fault does. Every
// page is translated before anything is accessed: an address that does not translate fails the
// whole access and writes nothing.
bool aarch64_iss::debug_memory(bool is_write, uint64_t address, uint8_t* bytes, size_t length) {
    if (length == 0) return true;
    if (address + length < address) return false;
    constexpr uint64_t page = 4096;
    struct piece {
        uint64_t pa;
        size_t offset, length;
    };
    std::vector<piece> pieces;
    for (size_t at = 0; at < length;) {
        const uint64_t va = address + at;
        const size_t n = size_t(std::min<uint64_t>(length - at, page - va % page));
        const walk_result w = walk(va, false, false, false);
        if (w.fault != walk_fault::none) return false;
        pieces.push_back({w.pa, at, n});
        at += n;
    }
    for (const piece& p : pieces)
        if (!debug_physical_memory(is_write, p.pa, bytes + p.offset, p.length)) return false;
    return true;
}

// One piece of a debugger's access, within a page, at a physical address.
bool aarch64_iss::debug_physical_memory(bool is_write, uint64_t address, uint8_t* bytes, size_t length) {
    const bool plain = in_plain_memory(address) && in_plain_memory(address + length - 1);
    if (plain) {
        if (is_write) {
            if (uc_mem_write(uc_, address, bytes, length) != UC_ERR_OK) return false;
            code_written(address, address + length); // code written by the debugger runs as written, on every CPU
            return true;
        }
        return uc_mem_read(uc_, address, bytes, length) == UC_ERR_OK;
    }
    if (in_plain_memory(address) || in_plain_memory(address + length - 1)) return false; // straddles
    // A unit window: accesses of the width asked for (8 bytes at most, naturally aligned), through
    // the gate with this CPU's access context, as the firmware's own load or store would be.
    const unsigned width = length >= 8 && address % 8 == 0 && length % 8 == 0 ? 8
                           : address % 4 == 0 && length % 4 == 0                ? 4
                           : length == 2 && address % 2 == 0                    ? 2
                           : length == 1                                        ? 1
                                                                                : 0;
    if (width == 0) return false;
    for (size_t at = 0; at < length; at += width) {
        uint64_t value = 0;
        if (is_write) std::memcpy(&value, bytes + at, width);
        tlm::tlm_generic_payload trans;
        uint8_t data[8] = {};
        std::memcpy(data, &value, 8);
        trans.set_command(is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        trans.set_address(address + at);
        trans.set_data_ptr(data);
        trans.set_data_length(width);
        trans.set_streaming_width(width);
        trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        access_context ctx = context();
        ctx.path = access_path::memory_mapped;
        trans.set_extension(&ctx);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        to_gate->b_transport(trans, delay);
        trans.clear_extension(&ctx);
        if (trans.get_response_status() != tlm::TLM_OK_RESPONSE || ctx.outcome != access_outcome::ok) return false;
        if (!is_write) std::memcpy(bytes + at, data, width);
    }
    return true;
}

// ---------------------------------------------------------------------------------------------
// Trace

void aarch64_iss::set_trace(trace_sink* trace) {
    trace_ = trace;
    if (trace_hook_) uc_hook_del(uc_, uc_hook(trace_hook_));
    trace_hook_ = 0;
    if (trace_ && trace_->wants_instructions()) {
        uc_hook h;
        check(uc_hook_add(uc_, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&aarch64_iss::on_traced_instruction), this, 1, 0),
              "trace hook");
        trace_hook_ = h;
    }
}

// Before each instruction the engine executes. Its index is the instructions retired before it;
// an instruction the engine starts twice (a window access runs again alone) is traced once.
void aarch64_iss::on_traced_instruction(uc_struct*, uint64_t address, uint32_t, void* self_ptr) {
    auto* self = static_cast<aarch64_iss*>(self_ptr);
    const uint64_t in_run = self->engine_.retired_before_in_block(address);
    const uint64_t index = self->retired_ + in_run;
    if (index == self->traced_index_) return;
    self->traced_index_ = index;
    const fs_t t = in_run == 0 ? self->t_pos_ : self->core_.clock().time_after_edges(self->t_pos_, in_run * self->cycles_per_instruction_);
    self->trace_->instruction(*self, index, t, address, self->fetch_word(address));
}

} // namespace pmusim
