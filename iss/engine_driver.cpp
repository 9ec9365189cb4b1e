// The engine driver: runs of Unicorn (uc_emu_start) bounded by an instruction budget, the hooks
// that stop the engine before the ISS's own instructions (stop points) and at the budget, the scan
// of translation blocks for code the ELF did not hold, and the engine's registers as the ISS reads
// them (docs/firmware.md "Inside the ISS", "The engine driver"). Members of aarch64_iss.
#include "iss/aarch64_iss.h"
#include "iss/a64_encoding.h"
#include "iss/unicorn_calls.h"
#include "iss/access_groups.h"
#include "iss/load_store.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <unicorn/unicorn.h>

#include "models/core.h"
#include "models/cpu_controls.h"
#include "models/input_error.h"
#include "models/interrupt_line.h"
#include "models/memory.h"
#include "models/register_access.h"
#include "models/firmware_gate.h"

namespace pmusim {

using namespace sc_core;
using namespace a64;

namespace {
// SCTLR_EL1.nTWI (Arm ARM D17.2.118): 0 traps EL0's WFI to EL1.
constexpr unsigned sctlr_ntwi = 16;
} // namespace

void aarch64_iss::on_block(uc_struct*, uint64_t address, uint32_t size, void* self_ptr) {
    // Called for every translation block the engine runs, directly from the translated code
    // (Unicorn 2.1.1 calls a single block hook so, tcg-op.h gen_uc_tracecode): in a loop it is what
    // the ISS pays above bare Unicorn (docs/performance.md scenario 7), so its common path is one
    // test, the block ending within fast_limit_ (the budget and the soft budget; 0 while the rare
    // checks are on), and four stores; everything else is block_checked's, out of line.
    auto* self = static_cast<aarch64_iss*>(self_ptr);
    const uint64_t before = self->counted_, after = before + size / 4;
    if (__builtin_expect(after > self->fast_limit_, 0)) return self->block_checked(address, size);
    self->before_block_ = before;
    self->block_start_ = address;
    self->access_from_ = address;
    self->counted_ = after;
}

// The limit of on_block's common path for the run about to start.
void aarch64_iss::set_fast_limit() { fast_limit_ = block_checks_ ? 0 : std::min(budget_, soft_budget_); }

// A block past fast_limit_: the rare checks, the budget, then counted as on_block counts.
void aarch64_iss::block_checked(uint64_t address, uint32_t size) {
    const uint64_t n = size / 4;
    if (block_checks_) {
        ++block_serial_; // breakpoints (debug_access.cpp)
        // Every block Unicorn translates gets the edge hook's scan before it runs, except those it
        // translates before its first block has returned to its loop (cpu-exec.c cpu_loop_exec_tb
        // sets uc->last_tb then; tb_find calls the edge hook only with one): the first block of a
        // run is scanned here until then.
        if (!engine_warm_ && counted_ == 0 && scan_block(address, size)) return;
        if (!engine_warm_ && counted_ > 0) {
            // A block of this run has ended and this one begins: the one before returned to
            // Unicorn's loop (a block's jumps are patched to lead straight to the next only by
            // tb_find, after it returned once), so the edge hook scans every block from here on.
            // The rest of the run needs no check the flag would call for: the common path again.
            engine_warm_ = true;
            block_checks_ = irq_watch_ || !breakpoints_.empty();
            set_fast_limit();
        }
        if (irq_watch_ && counted_ > 0 && irq_target()) {
            // A pending IRQ became unmasked in the block before: taken at this instruction boundary.
            stop_.kind = stop_kind::irq;
            block_start_ = address;
            uc_emu_stop(uc_);
            return;
        }
    }
    if (counted_ >= soft_budget_) {
        // SMP: the quantum's end is passed; stop at this block boundary, no partial block to translate.
        stop_.kind = stop_kind::budget;
        soft_stopped_ = true;
        block_start_ = address;
        uc_emu_stop(uc_);
        return;
    }
    if (counted_ + n > budget_) {
        stop_.kind = stop_kind::budget;
        block_start_ = address;
        uc_emu_stop(uc_);
        return;
    }
    before_block_ = counted_;
    block_start_ = address;
    access_from_ = address;
    counted_ += n;
}

bool aarch64_iss::iss_instruction(uint32_t w) const {
    // MRS/MSR of a gate register the engine lacks are served in the MRS/MSR hook: no exit.
    if ((w & mask_sysreg_move) == insn_sysreg_move) {
        const sysreg_encoding enc = encoding_of(w);
        return handled_here(enc) && !(gate_.sysreg_owner(cpu_, enc.key()) && engine_lacks(enc));
    }
    return w == insn_eret || w == insn_wfi || w == insn_wfe || w == insn_sev || w == insn_sevl || w == insn_hlt_semihosting;
}

void aarch64_iss::on_new_block(uc_struct*, void* cur, void*, void* self_ptr) {
    const auto* tb = static_cast<const uc_tb*>(cur);
    static_cast<aarch64_iss*>(self_ptr)->scan_block(tb->pc, tb->size);
}

// The block is about to run for the first time (or, from the block hook, is the first of a run):
// the engine stops before it runs when it holds an instruction of the ISS's without a stop point.
// With the MMU off the block's addresses are physical, as the engine's memory reads take them.
bool aarch64_iss::scan_block(uint64_t address, uint32_t size) {
    if (stop_.kind != stop_kind::none) return false;
    std::vector<uint64_t> found;
    for (uint64_t a = address; a + 4 <= address + size; a += 4)
        if (iss_instruction(fetch_word(a)) && !std::binary_search(exits_.begin(), exits_.end(), a)) found.push_back(a);
    if (found.empty()) return false;
    found_exits_ = std::move(found);
    rescan_size_ = size;
    stop_.kind = stop_kind::rescan;
    stop_.address = address;
    uc_emu_stop(uc_);
    return true;
}

uint32_t aarch64_iss::on_mrs_insn(uc_struct*, int reg, const ::uc_arm64_cp_reg* cp, void* self_ptr) {
    return static_cast<aarch64_iss*>(self_ptr)->on_sysreg_insn(true, reg, cp);
}
uint32_t aarch64_iss::on_msr_insn(uc_struct*, int reg, const ::uc_arm64_cp_reg* cp, void* self_ptr) {
    return static_cast<aarch64_iss*>(self_ptr)->on_sysreg_insn(false, reg, cp);
}

// Unicorn 2.1.1 calls the MRS/MSR hook with the PC stored, before the register is looked up
// (translate-a64.c gen_hook_sys, handle_sys); returning 1 skips the instruction.
uint32_t aarch64_iss::on_sysreg_insn(bool is_read, int reg, const ::uc_arm64_cp_reg* cp) {
    const uint64_t pc = engine_pc();
    if (std::binary_search(exits_.begin(), exits_.end(), pc)) return 0; // a stop point: already handled
    const sysreg_encoding enc{uint8_t(cp->op0), uint8_t(cp->op1), uint8_t(cp->crn), uint8_t(cp->crm), uint8_t(cp->op2)};
    if (!handled_here(enc)) return 0; // the engine's own register
    if (engine_lacks(enc)) {
        // The hook's register argument: UC_ARM64_REG_X0 + Rt, X29, X30, or XZR (op_helper.c
        // HELPER(uc_hooksys64)); the value is Rt's for a write.
        const unsigned rt = reg == UC_ARM64_REG_XZR ? 31 : reg == UC_ARM64_REG_X29 ? 29 : reg == UC_ARM64_REG_X30 ? 30
                                                                                        : unsigned(reg - UC_ARM64_REG_X0);
        return serve_in_engine(pc, enc, is_read, rt, cp->val);
    }
    if (!missed_sysreg_) {
        missed_sysreg_ = true;
        missed_sysreg_pc_ = pc;
        uc_emu_stop(uc_);
    }
    return 1; // not executed by the engine
}

bool aarch64_iss::engine_lacks(const sysreg_encoding& enc) const {
    const uint32_t k = enc.key();
    auto it = engine_lacks_.find(k);
    if (it != engine_lacks_.end()) return it->second;
    uc_arm64_cp_reg probe{enc.crn, enc.crm, enc.op0, enc.op1, enc.op2, 0};
    const bool lacks = uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &probe) != UC_ERR_OK;
    engine_lacks_[k] = lacks;
    return lacks;
}

// A code hook on an instruction runs before it, with the PC stored; stopping the engine there
// leaves the instruction unexecuted. (Unicorn's exits, uc_ctl_set_exits, stop there too, but
// Unicorn drops the code translated at every exit after each run and translates it again: about
// 2 us per engine run with Unicorn 2.0.1, more with more exits; a hook costs nothing elsewhere.)
// A breakpoint on a stop point stops here too: Unicorn calls an address's code hooks in the order
// they were added and none after one that stopped the engine, and a breakpoint's hook is added
// again after the stop points whenever GDB changes the breakpoints.
void aarch64_iss::on_stop_point(uc_struct* uc, uint64_t address, uint32_t, void* self_ptr) {
    auto* self = static_cast<aarch64_iss*>(self_ptr);
    if (!self->breakpoints_.empty() && self->breakpoint_stops_at(address) && self->stop_.kind == stop_kind::none)
        self->stop_.kind = stop_kind::breakpoint;
    uc_emu_stop(uc);
}

void aarch64_iss::on_access_point(uc_struct*, uint64_t address, uint32_t, void* self) {
    static_cast<aarch64_iss*>(self)->access_from_ = address;
}

void aarch64_iss::set_stop_points() {
    for (uint64_t h : stop_hooks_) uc_hook_del(uc_, h);
    stop_hooks_.clear();
    // One hook per run of consecutive addresses (a boot's MSRs often follow each other, as do the
    // loads and stores of a copy).
    auto add_hooks = [this](const std::vector<uint64_t>& addresses, void (*callback)(uc_struct*, uint64_t, uint32_t, void*)) {
        for (size_t i = 0; i < addresses.size();) {
            size_t j = i;
            while (j + 1 < addresses.size() && addresses[j + 1] == addresses[j] + 4) ++j;
            uc_hook h;
            check(uc_hook_add(uc_, &h, UC_HOOK_CODE, reinterpret_cast<void*>(callback), this, addresses[i], addresses[j]),
                  "code hook");
            stop_hooks_.push_back(h);
            i = j + 1;
        }
    };
    add_hooks(exits_, &aarch64_iss::on_stop_point);
    add_hooks(access_points_, &aarch64_iss::on_access_point);
}

uint64_t aarch64_iss::run_until(uint64_t from, uint64_t exit_address) {
    // Unicorn's own exit ("until") ends the translation block there and stops the engine before
    // it; a code hook would let the engine translate the whole block behind it again for every
    // run, which is the reference mode's every instruction. The block at `from` may have been
    // translated before, through exit_address: translate it again. After the run Unicorn drops
    // the block ending at exit_address itself.
    check(uc_ctl_remove_cache(uc_, from, from + 4), "dropping a translated block");
    stop_ = {};
    counted_ = before_block_ = 0;
    block_start_ = from;
    const uint64_t budget = budget_, soft_budget = soft_budget_;
    budget_ = soft_budget_ = ~uint64_t(0); // the block hook does not stop this run: the until address does
    block_checks_ = !breakpoints_.empty() || !engine_warm_;
    set_fast_limit();
    ++engine_runs_;
    // Unicorn's exit is an imitated WFI (unicorn 2.1.1 qemu/target/arm/translate-a64.c
    // aarch64_tr_translate_insn: uc_addr_is_exit -> DISAS_WFI -> helper_wfi), and helper_wfi honours
    // the WFI traps (op_helper.c check_wfx_trap): at EL0 with SCTLR_EL1.nTWI = 0, as Linux runs user
    // space (arch/arm64/include/asm/sysreg.h INIT_SCTLR_EL1_MMU_ON sets nTWE, not nTWI), it moves
    // the PC back onto the instruction before the exit, which has already run, and raises UNDEFINED
    // (exception 1) there: user space got SIGILL on a plain ADD. The engine's HCR_EL2/SCR_EL3 never
    // set TWI; the engine's SCTLR_EL1.nTWI is set for the run. The firmware's own WFIs never run in
    // the engine (they are the ISS's stop points, wait_trap_target), and the engine's SCTLR_EL1
    // write is raw (no TLB flush; nTWI is in none of its cached translation flags).
    const bool exit_would_trap = el() == 0 && !((engine_sctlr_el1() >> sctlr_ntwi) & 1);
    if (exit_would_trap) set_engine_sctlr_el1(engine_sctlr_el1() | (uint64_t(1) << sctlr_ntwi));
    apply_broadcast_maintenance();
    last_error_ = uc_emu_start(uc_, from, exit_address, 0, 0);
    if (hook_error_) std::rethrow_exception(std::exchange(hook_error_, nullptr));
    if (exit_would_trap) set_engine_sctlr_el1(engine_sctlr_el1() & ~(uint64_t(1) << sctlr_ntwi));
    budget_ = budget;
    soft_budget_ = soft_budget;
    if (stop_.kind == stop_kind::memory) set_pc(faulting_access());
    return retired_in_run();
}

uint64_t aarch64_iss::engine_sctlr_el1() const {
    uc_arm64_cp_reg sctlr{1, 0, 3, 0, 0, 0};
    uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &sctlr);
    return sctlr.val;
}

void aarch64_iss::set_engine_sctlr_el1(uint64_t value) {
    uc_arm64_cp_reg sctlr{1, 0, 3, 0, 0, value};
    uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &sctlr);
}

// Instructions retired by the engine run that just ended: the blocks before the last one, and of
// the last one those before the PC when the engine stopped inside it. A stop outside it (a
// branch or a fall-through to an engine exit, which starts a block of its own) means the last
// block ran to its end: the PC minus its start would count a backward branch as a huge number
// and a forward one as the instructions skipped.
uint64_t aarch64_iss::retired_in_run() const {
    const uint64_t pc = engine_pc(), in_block = counted_ - before_block_;
    if (pc >= block_start_ && pc - block_start_ < 4 * in_block) return before_block_ + (pc - block_start_) / 4;
    return counted_;
}

// Unicorn 2.0.1 reports a load or store outside plain memory with a stale PC (it stores the PC
// before a load or store only while a memory read/write hook exists, and such a hook sends every
// load and store through its slow path), after the instructions before it in the translation
// block have run. The access is at or after the last point whose address a callback saw: the
// start of the block (the block hook) or an access point (a code hook on every load and store
// after the first in a straight-line run, set when the ELF is loaded), and before the next access
// point (a block ends at every branch). Between them, the loads and stores after the first are
// members of one group (see start): the same base register Rn plus an immediate, Rn written by
// nothing from the group's first access up to them. So each member's address, computed from the
// registers now, is the address it used (or, the faulting one, is about to use); those before the
// faulting one accessed plain memory without fault, so the first whose bytes hold the faulting
// address is the one. Code outside the ELF's executable segments has no access points: a second
// load or store after the point there makes the access ambiguous.
uint64_t aarch64_iss::faulting_access() {
    const uint64_t block_end = block_start_ + 4 * (counted_ - before_block_);
    uint64_t at = access_from_;
    while (at < block_end && !may_access_window(at, fetch_word(at))) at += 4;
    if (at >= block_end)
        fail(3, fmt::format("{}: an access to {:#x} outside plain memory from no load or store of the block at {:#x}",
                            where(access_from_), stop_.address, block_start_));
    std::vector<uint64_t> candidates{at};
    for (uint64_t later = at + 4; later < block_end; later += 4) {
        if (!may_access_window(later, fetch_word(later))) continue;
        if (std::binary_search(access_points_.begin(), access_points_.end(), later)) break; // its hook did not run
        if (!std::binary_search(group_members_.begin(), group_members_.end(), later))
            fail(3, fmt::format("{}: an access to {:#x} outside plain memory in code outside the ELF's executable segments, "
                                "from one of several loads and stores of the block at {:#x}: not modelled",
                                where(at), stop_.address, block_start_));
        candidates.push_back(later);
    }
    if (candidates.size() == 1) return at;
    for (uint64_t c : candidates)
        if (reaches_fault(c)) return c;
    fail(3, fmt::format("{}: an access to {:#x} outside plain memory from none of the loads and stores of its group: not modelled",
                        where(at), stop_.address));
}

bool aarch64_iss::reaches_fault(uint64_t pc) const {
    const auto form = decode_base_offset(fetch_word(pc));
    if (!form || form->is_load == stop_.is_write) return false;
    uint64_t base = 0;
    if (form->base == 31) uc_reg_read(uc_, UC_ARM64_REG_SP, &base);
    else base = read_x(form->base);
    // With the MMU on the engine reports the fault's physical address: translate the register's.
    bool translated = false;
    const auto pa = stage1_translate(base + uint64_t(form->offset), translated);
    return pa && stop_.address - *pa < form->bytes;
}

void aarch64_iss::on_interrupt(uc_struct* uc, uint32_t intno, void* self_ptr) {
    auto* self = static_cast<aarch64_iss*>(self_ptr);
    self->stop_.kind = stop_kind::exception;
    self->stop_.intno = intno;
    uc_emu_stop(uc);
}

bool aarch64_iss::on_unmapped(uc_struct* uc, int type, uint64_t address, int size, int64_t, void* self_ptr) {
    auto* self = static_cast<aarch64_iss*>(self_ptr);
    if (type == UC_MEM_FETCH_UNMAPPED) {
        self->stop_.kind = stop_kind::fetch_fault;
        self->stop_.address = address;
        return false;
    }
    if (self->stop_.kind == stop_kind::none) {
        self->stop_.kind = stop_kind::memory;
        self->stop_.address = address;
        self->stop_.size = unsigned(size);
        self->stop_.is_write = type == UC_MEM_WRITE_UNMAPPED;
    }
    (void)uc;
    return false; // the engine stops with the PC on the instruction, before it changed anything
}

uint64_t aarch64_iss::run_engine(uint64_t budget) {
    stop_ = {};
    budget_ = budget;
    soft_stopped_ = false;
    counted_ = 0;
    before_block_ = 0;
    uint64_t pc = engine_pc();
    block_start_ = pc;
    irq_watch_ = irq_pending();
    block_checks_ = irq_watch_ || !breakpoints_.empty() || !engine_warm_;
    set_fast_limit();
    ++engine_runs_;
    // Only the CPU resuming from a breakpoint it halted at runs that breakpoint's instruction; a
    // run that starts on a breakpoint for any other reason (after an instruction the ISS executed,
    // an exception entry, an ERET, a budget stop) stops there first.
    if (resume_breakpoint_ && *resume_breakpoint_ != pc) resume_breakpoint_.reset();
    if (resume_breakpoint_) skip_breakpoint_at(pc);
    else skip_breakpoint_ = false;
    apply_broadcast_maintenance();
    last_error_ = uc_emu_start(uc_, pc, no_until_, 0, 0);
    irq_watch_ = false;
    if (hook_error_) std::rethrow_exception(std::exchange(hook_error_, nullptr));
    // A run that counted a block and ended through Unicorn's loop leaves it a previous block; one
    // that ended with an exception inside its first block (a longjmp out of it) may not.
    engine_warm_ = engine_warm_ || (counted_ > 0 && stop_.kind != stop_kind::exception && stop_.kind != stop_kind::memory);
    if (stop_.kind == stop_kind::memory) set_pc(faulting_access());
    if (missed_sysreg_) {
        missed_sysreg_ = false;
        fail(3, fmt::format("{}: MRS/MSR of a register the ISS or the gate owns in code the ISS could not scan before it "
                            "ran: not modelled (docs/firmware.md \"What is not modelled\")", where(missed_sysreg_pc_)));
    }
    uint64_t retired;
    if (stop_.kind == stop_kind::irq) {
        // As for the budget stop below: the PC may be stale, the block at block_start_ did not run.
        set_pc(block_start_);
        return counted_;
    }
    if (stop_.kind == stop_kind::rescan) {
        // The new block did not run (the engine stopped before it): the blocks before it did, whole.
        // Its instructions of the ISS's become stop points and it is translated again with their hooks.
        const uint64_t at = stop_.address;
        for (uint64_t a : found_exits_) exits_.insert(std::upper_bound(exits_.begin(), exits_.end(), a), a);
        for (uint64_t a : found_exits_) {
            uc_hook h;
            check(uc_hook_add(uc_, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&aarch64_iss::on_stop_point), this, a, a),
                  "code hook");
            stop_hooks_.push_back(h);
        }
        check(uc_ctl_remove_cache(uc_, at, at + rescan_size_), "dropping a translated block");
        set_pc(at);
        stop_.kind = stop_kind::budget; // nothing to handle: run again from the block
        return counted_;
    }
    if (stop_.kind == stop_kind::budget) {
        // The block hook stopped the engine before the block at block_start_ ran. While any code
        // hook exists (the stop points), Unicorn does not restore the PC to that block's start, and
        // a chained jump between blocks does not store it: the engine may leave its PC on the
        // branch that led there, and running from it again would execute that branch twice.
        set_pc(block_start_);
        retired = counted_;
        uint64_t rest = soft_stopped_ ? 0 : budget - counted_;
        uint64_t from = engine_pc();
        // The block that would overshoot is straight-line: run exactly `rest` of it.
        if (rest > 0) retired += run_until(from, from + 4 * rest);
        else stop_.kind = stop_kind::none; // the stop point test below, as for any other stop
    } else {
        retired = retired_in_run();
    }
    if (stop_.kind == stop_kind::none && std::binary_search(exits_.begin(), exits_.end(), engine_pc()))
        stop_.kind = stop_kind::special;
    if (uc_err(last_error_) != UC_ERR_OK && stop_.kind != stop_kind::memory && stop_.kind != stop_kind::fetch_fault) {
        stop_.kind = stop_kind::engine_error;
        stop_.intno = unsigned(last_error_);
    }
    if (stop_.kind == stop_kind::none) stop_.kind = stop_kind::budget;
    return retired;
}

uint64_t aarch64_iss::engine_pc() const {
    uint64_t pc = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PC, &pc);
    return pc;
}

void aarch64_iss::set_pc(uint64_t pc) { uc_reg_write(uc_, UC_ARM64_REG_PC, &pc); }

uint32_t aarch64_iss::fetch_word(uint64_t pc) const {
    uint32_t w = 0;
    bool translated = false;
    const auto pa = stage1_translate(pc, translated);
    if (!pa || uc_mem_read(uc_, *pa, &w, 4) != UC_ERR_OK) return 0;
    return w;
}

uint64_t aarch64_iss::read_x(unsigned r) const {
    if (r >= 31) return 0; // XZR
    uint64_t v = 0;
    int id = r <= 28 ? UC_ARM64_REG_X0 + int(r) : r == 29 ? UC_ARM64_REG_X29 : UC_ARM64_REG_X30;
    uc_reg_read(uc_, id, &v);
    return v;
}

void aarch64_iss::write_x(unsigned r, uint64_t v) {
    if (r >= 31) return;
    int id = r <= 28 ? UC_ARM64_REG_X0 + int(r) : r == 29 ? UC_ARM64_REG_X29 : UC_ARM64_REG_X30;
    uc_reg_write(uc_, id, &v);
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
