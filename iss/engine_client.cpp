// The ISS as the engine driver's client (iss/engine_driver.h, docs/firmware.md "The engine
// driver"): its runs of the engine, the instructions it executes itself (stop points), the MRS/MSR
// hook, the faulting-access search, and the engine's registers as the parts read them. Members of
// aarch64_iss.
#include "iss/aarch64_iss.h"
#include "iss/a64_encoding.h"
#include "iss/unicorn_calls.h"
#include "iss/access_groups.h"

#include <algorithm>
#include <fmt/format.h>
#include <unicorn/unicorn.h>

#include "models/input_error.h"
#include "models/memory.h"
#include "models/firmware_gate.h"

namespace pmusim {

using namespace a64;

uint64_t aarch64_iss::run_engine(uint64_t budget) {
    const uint64_t pc = engine_pc();
    // Only the CPU resuming from a breakpoint it halted at runs that breakpoint's instruction; a
    // run that starts on a breakpoint for any other reason (after an instruction the ISS executed,
    // an exception entry, an ERET, a budget stop) stops there first.
    if (resume_breakpoint_ && *resume_breakpoint_ != pc) resume_breakpoint_.reset();
    if (resume_breakpoint_) engine_.skip_breakpoint_at(pc);
    else engine_.no_breakpoint_skip();
    apply_broadcast_maintenance();
    // An IRQ line is high: every block start checks whether the instructions before it unmasked it
    // (MSR DAIFClr/DAIF end Unicorn's blocks, as ISB does): stop_before_block.
    const uint64_t retired = engine_.run(budget, soft_budget_, irq_pending());
    if (missed_sysreg_) {
        missed_sysreg_ = false;
        fail(3, fmt::format("{}: MRS/MSR of a register the ISS or the gate owns in code the ISS could not scan before it "
                            "ran: not modelled (docs/firmware.md \"What the ISS leaves out\")", where(missed_sysreg_pc_)));
    }
    return retired;
}

uint64_t aarch64_iss::run_until(uint64_t from, uint64_t exit_address) {
    apply_broadcast_maintenance();
    return engine_.run_until(from, exit_address);
}

bool aarch64_iss::stop_before_block(uint64_t) { return irq_target() != 0; }

bool aarch64_iss::executes_itself(uint64_t address) { return iss_instruction(fetch_word(address)); }

bool aarch64_iss::iss_instruction(uint32_t w) const {
    // MRS/MSR of a gate register the engine lacks are served in the MRS/MSR hook: no exit.
    if ((w & mask_sysreg_move) == insn_sysreg_move) {
        const sysreg_encoding enc = encoding_of(w);
        return handled_here(enc) && !(gate_.sysreg_owner(cpu_, enc.key()) && engine_lacks(enc));
    }
    return w == insn_eret || w == insn_wfi || w == insn_wfe || w == insn_sev || w == insn_sevl || w == insn_hlt_semihosting;
}

// Unicorn 2.1.1 calls the MRS/MSR hook with the PC stored, before the register is looked up
// (translate-a64.c gen_hook_sys, handle_sys); returning 1 skips the instruction. The driver has
// answered for stop points already.
uint32_t aarch64_iss::system_register_instruction(uint64_t pc, bool is_read, int reg, const uc_arm64_cp_reg& cp) {
    const sysreg_encoding enc{uint8_t(cp.op0), uint8_t(cp.op1), uint8_t(cp.crn), uint8_t(cp.crm), uint8_t(cp.op2)};
    if (!handled_here(enc)) return 0; // the engine's own register
    if (engine_lacks(enc)) {
        // The hook's register argument: UC_ARM64_REG_X0 + Rt, X29, X30, or XZR (op_helper.c
        // HELPER(uc_hooksys64)); the value is Rt's for a write.
        const unsigned rt = reg == UC_ARM64_REG_XZR ? 31 : reg == UC_ARM64_REG_X29 ? 29 : reg == UC_ARM64_REG_X30 ? 30
                                                                                        : unsigned(reg - UC_ARM64_REG_X0);
        return serve_in_engine(pc, enc, is_read, rt, cp.val);
    }
    // A register the ISS or the gate owns that reached the engine: the scan missed it (code read
    // through an address the scan cannot read); the run stops with an error.
    if (!missed_sysreg_) {
        missed_sysreg_ = true;
        missed_sysreg_pc_ = pc;
        engine_.stop_now();
    }
    return 1; // not executed by the engine
}

bool aarch64_iss::engine_lacks(const sysreg_encoding& enc) const {
    const uint32_t k = enc.key();
    auto it = engine_lacks_.find(k);
    if (it != engine_lacks_.end()) return it->second;
    uint64_t value = 0;
    const bool lacks = !engine_.read_system_register(enc.op0, enc.op1, enc.crn, enc.crm, enc.op2, value);
    engine_lacks_[k] = lacks;
    return lacks;
}

uint64_t aarch64_iss::engine_sctlr_el1() const { return engine_.sctlr_el1(); }
void aarch64_iss::set_engine_sctlr_el1(uint64_t value) { engine_.set_sctlr_el1(value); }

// Unicorn reports a load or store outside mapped memory with a stale PC (it stores the PC before a
// load or store only while a memory read/write hook exists, and such a hook sends every load and
// store through its slow path), after the instructions before it in the translation block have
// run. The access is at or after the last point whose address a callback saw: the start of the
// block (the block hook) or an access point (a code hook on every load and store after the first
// in a straight-line run, set when the ELF is loaded), and before the next access point (a block
// ends at every branch). Between them, the loads and stores after the first are members of one
// group (see start): the same base register Rn plus an immediate, Rn written by nothing from the
// group's first access up to them. So each member's address, computed from the registers now, is
// the address it used (or, the faulting one, is about to use); those before the faulting one
// accessed plain memory without fault, so the first whose bytes hold the faulting address is the
// one. Code outside the ELF's executable segments has no access points: a second load or store
// after the point there makes the access ambiguous.
uint64_t aarch64_iss::faulting_access() {
    const engine_driver::position run = engine_.block_position();
    const stop_info& stop = engine_.stop();
    const auto& access_points = engine_.access_points();
    const uint64_t block_end = run.block_start + 4 * (run.counted - run.before_block);
    uint64_t at = run.access_from;
    while (at < block_end && !may_access_window(at, fetch_word(at))) at += 4;
    if (at >= block_end)
        fail(3, fmt::format("{}: an access to {:#x} outside plain memory from no load or store of the block at {:#x}",
                            where(run.access_from), stop.address, run.block_start));
    std::vector<uint64_t> candidates{at};
    for (uint64_t later = at + 4; later < block_end; later += 4) {
        if (!may_access_window(later, fetch_word(later))) continue;
        if (std::binary_search(access_points.begin(), access_points.end(), later)) break; // its hook did not run
        if (!std::binary_search(group_members_.begin(), group_members_.end(), later))
            fail(3, fmt::format("{}: an access to {:#x} outside plain memory in code outside the ELF's executable segments, "
                                "from one of several loads and stores of the block at {:#x}: not modelled",
                                where(at), stop.address, run.block_start));
        candidates.push_back(later);
    }
    if (candidates.size() == 1) return at;
    for (uint64_t c : candidates)
        if (reaches_fault(c)) return c;
    fail(3, fmt::format("{}: an access to {:#x} outside plain memory from none of the loads and stores of its group: not modelled",
                        where(at), stop.address));
}

bool aarch64_iss::reaches_fault(uint64_t pc) const {
    const stop_info& stop = engine_.stop();
    const auto form = decode_base_offset(fetch_word(pc));
    if (!form || form->is_load == stop.is_write) return false;
    const uint64_t base = form->base == 31 ? engine_.sp() : read_x(form->base);
    // With the MMU on the engine reports the fault's physical address: translate the register's.
    bool translated = false;
    const auto pa = stage1_translate(base + uint64_t(form->offset), translated);
    return pa && stop.address - *pa < form->bytes;
}

uint32_t aarch64_iss::fetch_word(uint64_t pc) const {
    bool translated = false;
    const auto pa = stage1_translate(pc, translated);
    return pa ? engine_.read_word(*pa) : 0;
}

bool aarch64_iss::in_plain_memory(uint64_t address) const {
    for (const auto& [base, m] : memories_)
        if (address >= base && address - base < m->size()) return true;
    return false;
}

bool aarch64_iss::may_access_window(uint64_t pc, uint32_t word) const {
    if (!accesses_memory(word)) return false;
    // LDR (literal) and PRFM (literal) ("Load register (literal)"): the address is the PC plus
    // imm19 words; opc [31:30] and V [26] give the size (PRFM: none). One whose bytes are plain
    // memory cannot fault, as assemblers' `LDR Xn, =constant` pools are.
    if ((word & 0x3b000000) != 0x18000000) return true;
    const unsigned opc = word >> 30;
    const bool simd = (word >> 26) & 1;
    if (!simd && opc == 3) return false; // PRFM: no access
    if (simd && opc == 3) return true;   // unallocated: the engine raises UNDEFINED
    const unsigned size = simd ? 4u << opc : opc == 1 ? 8 : 4;
    const int64_t offset = int64_t(int32_t(word << 8) >> 13) * 4; // imm19 [23:5], sign-extended
    const uint64_t address = pc + uint64_t(offset);
    return !in_plain_memory(address) || !in_plain_memory(address + size - 1);
}

} // namespace pmusim
