// The engine driver (iss/engine_driver.h): runs of Unicorn bounded by an exact instruction budget,
// stop points and breakpoints, the scan of new translation blocks, the engine's registers and its
// maintenance (docs/firmware.md "The engine driver").
#include "iss/engine_driver.h"

#include <algorithm>
#include <utility>
#include <fmt/format.h>
#include <unicorn/unicorn.h>

#include "models/input_error.h"

namespace pmusim {

namespace {

void check(uc_err e, const char* what) {
    if (e != UC_ERR_OK) throw model_error(fmt::format("Unicorn: {}: {}", what, uc_strerror(e)));
}

// SCTLR_EL1.nTWI (Arm ARM D17.2.118): 0 traps EL0's WFI to EL1.
constexpr unsigned sctlr_ntwi = 16;

int x_register_id(unsigned r) { return r <= 28 ? UC_ARM64_REG_X0 + int(r) : r == 29 ? UC_ARM64_REG_X29 : UC_ARM64_REG_X30; }

// The start-up check's client: it executes nothing itself and stops nothing.
struct checking_client final : engine_client {
    bool executes_itself(uint64_t) override { return false; }
    bool stop_before_block(uint64_t) override { return false; }
    uint32_t system_register_instruction(uint64_t, bool, int, const uc_arm64_cp_reg&) override { return 0; }
    uint32_t system_instruction(const uc_arm64_cp_reg&) override { return 0; }
    uint64_t faulting_access() override { return 0; }
};

// The start-up check, once per process (engine_driver::self_check).
const std::string& start_up_failure() {
    static const std::string failure = engine_driver::self_check();
    return failure;
}

} // namespace

engine_driver::engine_driver(engine_client& client, size_t translation_buffer_bytes, int cpu_model) : client_(client) {
    check(uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &uc_), "uc_open");
    if (cpu_model >= 0) check(uc_ctl_set_cpu_model(uc_, cpu_model), "setting the CPU model");
    // A smaller translated-code buffer than Unicorn's 1 GiB default, whose first flush touches every
    // page of it (14 s measured on the shared machine, 0.07 s at 64 MiB).
    check(uc_ctl_set_tcg_buffer_size(uc_, uint32_t(translation_buffer_bytes)), "setting the translation buffer size");
    uc_hook h;
    check(uc_hook_add(uc_, &h, UC_HOOK_BLOCK, reinterpret_cast<void*>(&engine_driver::on_block), this, 1, 0), "block hook");
    hooks_.push_back(h);
    check(uc_hook_add(uc_, &h, UC_HOOK_INTR, reinterpret_cast<void*>(&engine_driver::on_interrupt), this, 1, 0), "interrupt hook");
    hooks_.push_back(h);
    check(uc_hook_add(uc_, &h, UC_HOOK_MEM_UNMAPPED, reinterpret_cast<void*>(&engine_driver::on_unmapped), this, 1, 0),
          "memory hook");
    hooks_.push_back(h);
    check(uc_hook_add(uc_, &h, UC_HOOK_INSN, reinterpret_cast<void*>(&engine_driver::on_sys), this, 1, 0, UC_ARM64_INS_SYS),
          "SYS hook");
    hooks_.push_back(h);
    check(uc_hook_add(uc_, &h, UC_HOOK_EDGE_GENERATED, reinterpret_cast<void*>(&engine_driver::on_new_block), this, 1, 0),
          "new-block hook");
    hooks_.push_back(h);
    check(uc_hook_add(uc_, &h, UC_HOOK_INSN, reinterpret_cast<void*>(&engine_driver::on_mrs), this, 1, 0, UC_ARM64_INS_MRS),
          "MRS hook");
    hooks_.push_back(h);
    check(uc_hook_add(uc_, &h, UC_HOOK_INSN, reinterpret_cast<void*>(&engine_driver::on_msr), this, 1, 0, UC_ARM64_INS_MSR),
          "MSR hook");
    hooks_.push_back(h);
    if (!dynamic_cast<checking_client*>(&client) && !start_up_failure().empty()) {
        uc_close(uc_);
        uc_ = nullptr;
        throw model_error("Unicorn does not behave as the engine driver relies on (docs/firmware.md \"The engine driver\"): " +
                          start_up_failure());
    }
}

engine_driver::~engine_driver() {
    if (uc_) uc_close(uc_);
}

void engine_driver::map_memory(uint64_t base, uint64_t size, void* bytes, bool writable_and_executable) {
    check(uc_mem_map_ptr(uc_, base, size, writable_and_executable ? UC_PROT_ALL : UC_PROT_READ, bytes), "mapping memory");
    // The address a budget run is told to stop at ("until"): none an instruction can have. Unicorn
    // drops the translated code at that address after every run, except for 0.
    if (base == 0) no_until_ = 1; // odd: no instruction starts there
}

// ---------------------------------------------------------------------------------------------
// The block hook

void engine_driver::on_block(uc_struct*, uint64_t address, uint32_t size, void* self_ptr) {
    // Called for every translation block the engine runs, directly from the translated code
    // (Unicorn 2.1.1 calls a single block hook so, tcg-op.h gen_uc_tracecode): in a loop it is what
    // the ISS pays above bare Unicorn (docs/performance.md scenario 7), so its common path is one
    // test, the block ending within fast_limit_ (the budget and the soft budget; 0 while the rare
    // checks are on), and four stores; everything else is block_checked's, out of line.
    auto* self = static_cast<engine_driver*>(self_ptr);
    const uint64_t before = self->counted_, after = before + size / 4;
    if (__builtin_expect(after > self->fast_limit_, 0)) return self->block_checked(address, size);
    self->before_block_ = before;
    self->block_start_ = address;
    self->access_from_ = address;
    self->counted_ = after;
}

// The limit of on_block's common path for the run about to start.
void engine_driver::set_fast_limit() { fast_limit_ = block_checks_ ? 0 : std::min(budget_, soft_budget_); }

// A block past fast_limit_: the rare checks, the budget, then counted as on_block counts.
void engine_driver::block_checked(uint64_t address, uint32_t size) {
    const uint64_t n = size / 4;
    if (block_checks_) {
        ++block_serial_; // breakpoints
        // Every block Unicorn translates gets the edge hook's scan before it runs, except those it
        // translates before its first block has returned to its loop (cpu-exec.c cpu_loop_exec_tb
        // sets uc->last_tb then; tb_find calls the edge hook only with one): the first block of a
        // run is scanned here until then.
        if (!warm_ && counted_ == 0 && scan_block(address, size)) return;
        if (!warm_ && counted_ > 0) {
            // A block of this run has ended and this one begins: the one before returned to
            // Unicorn's loop (a block's jumps are patched to lead straight to the next only by
            // tb_find, after it returned once), so the edge hook scans every block from here on.
            // The rest of the run needs no check the flag would call for: the common path again.
            warm_ = true;
            block_checks_ = watch_ || !breakpoints_.empty();
            set_fast_limit();
        }
        if (watch_ && counted_ > 0 && client_.stop_before_block(address)) {
            stop_.kind = stop_kind::watch;
            block_start_ = address;
            uc_emu_stop(uc_);
            return;
        }
    }
    if (counted_ >= soft_budget_) {
        // The soft budget is passed; stop at this block boundary, no partial block to translate.
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

// ---------------------------------------------------------------------------------------------
// New blocks, stop points, breakpoints

void engine_driver::on_new_block(uc_struct*, void* cur, void*, void* self_ptr) {
    const auto* tb = static_cast<const uc_tb*>(cur);
    static_cast<engine_driver*>(self_ptr)->scan_block(tb->pc, tb->size);
}

// The block is about to run for the first time (or, from the block hook, is the first of a run):
// the engine stops before it runs when it holds an instruction of the client's without a stop point.
bool engine_driver::scan_block(uint64_t address, uint32_t size) {
    if (stop_.kind != stop_kind::none) return false;
    std::vector<uint64_t> found;
    for (uint64_t a = address; a + 4 <= address + size; a += 4)
        if (client_.executes_itself(a) && !is_stop_point(a)) found.push_back(a);
    if (found.empty()) return false;
    found_stop_points_ = std::move(found);
    rescan_size_ = size;
    stop_.kind = stop_kind::rescan;
    stop_.address = address;
    uc_emu_stop(uc_);
    return true;
}

// A code hook on an instruction runs before it, with the PC stored; stopping the engine there
// leaves the instruction unexecuted. (Unicorn's exits, uc_ctl_set_exits, stop there too, but
// Unicorn drops the code translated at every exit after each run and translates it again: about
// 2 us per engine run with Unicorn 2.0.1, more with more exits; a hook costs nothing elsewhere.)
// A breakpoint on a stop point stops here too: Unicorn calls an address's code hooks in the order
// they were added and none after one that stopped the engine, and a breakpoint's hook is added
// again after the stop points whenever the breakpoints change.
void engine_driver::on_stop_point(uc_struct* uc, uint64_t address, uint32_t, void* self_ptr) {
    auto* self = static_cast<engine_driver*>(self_ptr);
    if (!self->breakpoints_.empty() && self->breakpoint_stops_at(address) && self->stop_.kind == stop_kind::none)
        self->stop_.kind = stop_kind::breakpoint;
    uc_emu_stop(uc);
}

void engine_driver::on_access_point(uc_struct*, uint64_t address, uint32_t, void* self) {
    static_cast<engine_driver*>(self)->access_from_ = address;
}

void engine_driver::set_stop_points(std::vector<uint64_t> stop_points, std::vector<uint64_t> access_points) {
    stop_points_ = std::move(stop_points);
    access_points_ = std::move(access_points);
    std::sort(stop_points_.begin(), stop_points_.end());
    std::sort(access_points_.begin(), access_points_.end());
    for (uint64_t h : stop_hooks_) uc_hook_del(uc_, h);
    stop_hooks_.clear();
    add_stop_point_hooks();
}

void engine_driver::add_stop_point_hooks() {
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
    add_hooks(stop_points_, &engine_driver::on_stop_point);
    add_hooks(access_points_, &engine_driver::on_access_point);
}

void engine_driver::set_breakpoints(const std::vector<uint64_t>& addresses) {
    std::vector<uint64_t> sorted = addresses;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    if (sorted == breakpoints_) return;
    for (uint64_t h : breakpoint_hooks_) uc_hook_del(uc_, h);
    breakpoint_hooks_.clear();
    // Code translated before a hook existed does not call it: drop the blocks holding the old and
    // the new addresses, so that they are translated again with (or without) the hook.
    for (uint64_t a : breakpoints_) uc_ctl_remove_cache(uc_, a, a + 4);
    breakpoints_ = sorted;
    for (uint64_t a : breakpoints_) {
        uc_hook h;
        check(uc_hook_add(uc_, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&engine_driver::on_breakpoint), this, a, a),
              "breakpoint hook");
        breakpoint_hooks_.push_back(h);
        uc_ctl_remove_cache(uc_, a, a + 4);
    }
}

void engine_driver::skip_breakpoint_at(uint64_t pc) {
    skip_breakpoint_ = std::binary_search(breakpoints_.begin(), breakpoints_.end(), pc);
    skip_breakpoint_at_ = pc;
    skipped_in_block_ = ~uint64_t(0);
}

// Whether the engine stops before the instruction at this address for a breakpoint: yes, unless
// the run started on it to run it (skip_breakpoint_at), the first time the engine gets there. The
// address's breakpoint hook and its stop-point hook (on_stop_point) both ask for the same arrival,
// in the same execution of its block; a later arrival is a later block's, and stops.
bool engine_driver::breakpoint_stops_at(uint64_t address) {
    if (address == skip_breakpoint_at_) {
        if (skip_breakpoint_) {
            skip_breakpoint_ = false;
            skipped_in_block_ = block_serial_;
            return false;
        }
        if (skipped_in_block_ == block_serial_) return false;
    }
    return std::binary_search(breakpoints_.begin(), breakpoints_.end(), address);
}

void engine_driver::on_breakpoint(uc_struct* uc, uint64_t address, uint32_t, void* self_ptr) {
    auto* self = static_cast<engine_driver*>(self_ptr);
    if (!self->breakpoint_stops_at(address)) return;
    if (self->stop_.kind == stop_kind::none) self->stop_.kind = stop_kind::breakpoint;
    uc_emu_stop(uc);
}

// ---------------------------------------------------------------------------------------------
// The other hooks

// Unicorn 2.1.1 calls the MRS/MSR hook with the PC stored, before the register is looked up
// (translate-a64.c gen_hook_sys, handle_sys); returning 1 skips the instruction. At a stop point
// the engine has stopped before it: the client executes it after the run.
uint32_t engine_driver::on_mrs(uc_struct*, int reg, const uc_arm64_cp_reg* cp, void* self_ptr) {
    auto* self = static_cast<engine_driver*>(self_ptr);
    const uint64_t pc = self->pc();
    if (self->is_stop_point(pc)) return 0;
    return self->client_.system_register_instruction(pc, true, reg, *cp);
}
uint32_t engine_driver::on_msr(uc_struct*, int reg, const uc_arm64_cp_reg* cp, void* self_ptr) {
    auto* self = static_cast<engine_driver*>(self_ptr);
    const uint64_t pc = self->pc();
    if (self->is_stop_point(pc)) return 0;
    return self->client_.system_register_instruction(pc, false, reg, *cp);
}
uint32_t engine_driver::on_sys(uc_struct*, int, const uc_arm64_cp_reg* cp, void* self_ptr) {
    return static_cast<engine_driver*>(self_ptr)->client_.system_instruction(*cp);
}

void engine_driver::on_interrupt(uc_struct* uc, uint32_t intno, void* self_ptr) {
    auto* self = static_cast<engine_driver*>(self_ptr);
    self->stop_.kind = stop_kind::exception;
    self->stop_.intno = intno;
    uc_emu_stop(uc);
}

bool engine_driver::on_unmapped(uc_struct*, int type, uint64_t address, int size, int64_t, void* self_ptr) {
    auto* self = static_cast<engine_driver*>(self_ptr);
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
    return false; // the engine stops before the instruction changed anything
}

void engine_driver::stop_in_hook(stop_kind kind) {
    if (stop_.kind == stop_kind::none) stop_.kind = kind;
    uc_emu_stop(uc_);
}

void engine_driver::stop_now() { uc_emu_stop(uc_); }

void engine_driver::fail_in_hook(std::exception_ptr error) {
    if (!hook_error_) hook_error_ = std::move(error);
    uc_emu_stop(uc_);
}

// ---------------------------------------------------------------------------------------------
// Runs

void engine_driver::after_engine() {
    if (hook_error_) std::rethrow_exception(std::exchange(hook_error_, nullptr));
    if (stop_.kind == stop_kind::memory) set_pc(client_.faulting_access());
}

uint64_t engine_driver::run(uint64_t budget, uint64_t soft_budget, bool watch) {
    stop_ = {};
    budget_ = budget;
    soft_budget_ = soft_budget;
    soft_stopped_ = false;
    counted_ = 0;
    before_block_ = 0;
    const uint64_t from = pc();
    block_start_ = from;
    watch_ = watch;
    block_checks_ = watch_ || !breakpoints_.empty() || !warm_;
    set_fast_limit();
    ++runs_;
    last_error_ = uc_emu_start(uc_, from, no_until_, 0, 0);
    watch_ = false;
    // A run that counted a block and ended through Unicorn's loop leaves it a previous block; one
    // that ended with an exception inside its first block (a longjmp out of it) may not.
    warm_ = warm_ || (counted_ > 0 && stop_.kind != stop_kind::exception && stop_.kind != stop_kind::memory);
    after_engine();
    if (stop_.kind == stop_kind::watch) {
        // As for the budget stop below: the PC may be stale, the block at block_start_ did not run.
        set_pc(block_start_);
        return counted_;
    }
    if (stop_.kind == stop_kind::rescan) {
        // The new block did not run (the engine stopped before it): the blocks before it did, whole.
        // Its instructions of the client's become stop points and it is translated again with their hooks.
        const uint64_t at = stop_.address;
        for (uint64_t a : found_stop_points_) {
            stop_points_.insert(std::upper_bound(stop_points_.begin(), stop_points_.end(), a), a);
            uc_hook h;
            check(uc_hook_add(uc_, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&engine_driver::on_stop_point), this, a, a),
                  "code hook");
            stop_hooks_.push_back(h);
        }
        check(uc_ctl_remove_cache(uc_, at, at + rescan_size_), "dropping a translated block");
        set_pc(at);
        stop_.kind = stop_kind::budget; // nothing to handle: run again from the block
        return counted_;
    }
    uint64_t retired;
    if (stop_.kind == stop_kind::budget) {
        // The block hook stopped the engine before the block at block_start_ ran. While any code
        // hook exists (the stop points), Unicorn does not restore the PC to that block's start, and
        // a chained jump between blocks does not store it: the engine may leave its PC on the
        // branch that led there, and running from it again would execute that branch twice.
        set_pc(block_start_);
        retired = counted_;
        const uint64_t rest = soft_stopped_ ? 0 : budget - counted_;
        // The block that would overshoot is straight-line: run exactly `rest` of it.
        if (rest > 0) retired += run_until(block_start_, block_start_ + 4 * rest);
        else stop_.kind = stop_kind::none; // the stop point test below, as for any other stop
    } else {
        retired = retired_in_run();
    }
    if (stop_.kind == stop_kind::none && is_stop_point(pc())) stop_.kind = stop_kind::stop_point;
    if (uc_err(last_error_) != UC_ERR_OK && stop_.kind != stop_kind::memory && stop_.kind != stop_kind::fetch_fault) {
        stop_.kind = stop_kind::engine_error;
        stop_.intno = unsigned(last_error_);
    }
    if (stop_.kind == stop_kind::none) stop_.kind = stop_kind::budget;
    return retired;
}

uint64_t engine_driver::run_until(uint64_t from, uint64_t exit_address) {
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
    budget_ = soft_budget_ = no_budget; // the block hook does not stop this run: the until address does
    block_checks_ = !breakpoints_.empty() || !warm_;
    set_fast_limit();
    ++runs_;
    // Unicorn's exit is an imitated WFI (unicorn 2.1.1 qemu/target/arm/translate-a64.c
    // aarch64_tr_translate_insn: uc_addr_is_exit -> DISAS_WFI -> helper_wfi), and helper_wfi honours
    // the WFI traps (op_helper.c check_wfx_trap): at EL0 with SCTLR_EL1.nTWI = 0, as Linux runs user
    // space (arch/arm64/include/asm/sysreg.h INIT_SCTLR_EL1_MMU_ON sets nTWE, not nTWI), it moves
    // the PC back onto the instruction before the exit, which has already run, and raises UNDEFINED
    // (exception 1) there: user space got SIGILL on a plain ADD. The engine's SCTLR_EL1.nTWI is set
    // for the run (a raw write: no TLB flush; nTWI is in none of its cached translation flags). The
    // engine's own EL is PSTATE.EL [3:2].
    const bool at_el0 = ((pstate() >> 2) & 3) == 0;
    const uint64_t sctlr = at_el0 ? sctlr_el1() : 0;
    const bool exit_would_trap = at_el0 && !((sctlr >> sctlr_ntwi) & 1);
    if (exit_would_trap) set_sctlr_el1(sctlr | (uint64_t(1) << sctlr_ntwi));
    last_error_ = uc_emu_start(uc_, from, exit_address, 0, 0);
    if (exit_would_trap) set_sctlr_el1(sctlr_el1() & ~(uint64_t(1) << sctlr_ntwi));
    budget_ = budget;
    soft_budget_ = soft_budget;
    after_engine();
    return retired_in_run();
}

// Instructions retired by the engine run that just ended: the blocks before the last one, and of
// the last one those before the PC when the engine stopped inside it. A stop outside it (a
// branch or a fall-through to a stop point, which starts a block of its own) means the last
// block ran to its end: the PC minus its start would count a backward branch as a huge number
// and a forward one as the instructions skipped.
uint64_t engine_driver::retired_in_run() const {
    const uint64_t at = pc(), in_block = counted_ - before_block_;
    if (at >= block_start_ && at - block_start_ < 4 * in_block) return before_block_ + (at - block_start_) / 4;
    return counted_;
}

// ---------------------------------------------------------------------------------------------
// Registers and maintenance

uint64_t engine_driver::pc() const {
    uint64_t v = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PC, &v);
    return v;
}

void engine_driver::set_pc(uint64_t v) { uc_reg_write(uc_, UC_ARM64_REG_PC, &v); }

uint64_t engine_driver::x(unsigned r) const {
    if (r >= 31) return 0; // XZR
    uint64_t v = 0;
    uc_reg_read(uc_, x_register_id(r), &v);
    return v;
}

void engine_driver::set_x(unsigned r, uint64_t value) {
    if (r >= 31) return;
    uc_reg_write(uc_, x_register_id(r), &value);
}

uint64_t engine_driver::sp() const {
    uint64_t v = 0;
    uc_reg_read(uc_, UC_ARM64_REG_SP, &v);
    return v;
}

uint64_t engine_driver::pstate() const {
    uint64_t v = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PSTATE, &v);
    return v;
}

bool engine_driver::read_system_register(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2,
                                         uint64_t& value) const {
    uc_arm64_cp_reg r{crn, crm, op0, op1, op2, 0};
    if (uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &r) != UC_ERR_OK) return false;
    value = r.val;
    return true;
}

bool engine_driver::write_system_register(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2,
                                          uint64_t value) {
    uc_arm64_cp_reg r{crn, crm, op0, op1, op2, value};
    return uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &r) == UC_ERR_OK;
}

uint64_t engine_driver::sctlr_el1() const {
    uint64_t v = 0;
    read_system_register(3, 0, 1, 0, 0, v);
    return v;
}

void engine_driver::set_sctlr_el1(uint64_t value) { write_system_register(3, 0, 1, 0, 0, value); }

uint32_t engine_driver::read_word(uint64_t physical) const {
    uint32_t w = 0;
    if (uc_mem_read(uc_, physical, &w, 4) != UC_ERR_OK) return 0;
    return w;
}

void engine_driver::flush_tlb() { check(uc_ctl_flush_tlb(uc_), "flushing the TLB"); }

void engine_driver::flush_translations() { check(uc_ctl_flush_tb(uc_), "flushing translated code"); }

void engine_driver::drop_translations(uint64_t begin, uint64_t end) {
    check(uc_ctl_remove_cache(uc_, begin, end), "dropping translated code");
}

// ---------------------------------------------------------------------------------------------
// The start-up check

// The facts the driver relies on, from a program an engine of its own runs: a budget inside a
// straight-line block retires exactly that many; SVC reaches the interrupt hook as EXCP_SWI with
// the PC past it (its preferred return address, Arm ARM D1.10), counted by the block hook; UDF as
// EXCP_UDEF with the PC on it, not counted (QEMU target/arm/cpu.h EXCP_*). Encodings (Arm ARM C6.2
// NOP, SVC, UDF): NOP 0xd503201f, SVC #imm16 0xd4000001 | imm16 << 5, UDF #imm16 0x00000000 | imm16.
std::string engine_driver::self_check() {
    checking_client client;
    engine_driver engine(client, size_t(1) << 20);
    // A page of its own at 64 KiB (Unicorn's reset state: EL1, MMU off, so VA = PA).
    constexpr uint64_t page = 0x10000;
    alignas(4096) static uint32_t words[1024];
    engine.map_memory(page, sizeof words, words);
    constexpr uint32_t nop = 0xd503201f, svc_1 = 0xd4000001 | (1u << 5), udf_0 = 0x00000000;
    const uint32_t program[] = {nop, nop, nop, nop, svc_1, udf_0};
    std::copy(std::begin(program), std::end(program), words);
    std::string out;
    auto expect = [&out](bool ok, const std::string& what) {
        if (!ok && out.empty()) out = what;
    };
    // A budget inside the straight-line block: exactly two NOPs, the PC on the third.
    engine.set_pc(page);
    uint64_t n = engine.run(2);
    expect(n == 2 && engine.pc() == page + 8 && engine.stop().kind == stop_kind::budget,
           fmt::format("a budget of 2 from {:#x} retired {} with the PC at {:#x}", page, n, engine.pc()));
    // SVC: the interrupt hook with EXCP_SWI and the PC past the SVC, which the block count holds.
    n = engine.run(100);
    expect(n == 3 && engine.stop().kind == stop_kind::exception && engine.stop().intno == excp_swi &&
               engine.pc() == page + 20,
           fmt::format("SVC #1 at {:#x}: {} retired, interrupt {}, PC {:#x} (expected 3, {}, {:#x})", page + 16, n,
                       engine.stop().intno, engine.pc(), excp_swi, page + 20));
    // UDF: EXCP_UDEF with the PC on the instruction, not retired.
    n = engine.run(100);
    expect(n == 0 && engine.stop().kind == stop_kind::exception && engine.stop().intno == excp_udef &&
               engine.pc() == page + 20,
           fmt::format("UDF #0 at {:#x}: {} retired, interrupt {}, PC {:#x} (expected 0, {}, the UDF)", page + 20, n,
                       engine.stop().intno, engine.pc(), excp_udef));
    return out;
}

} // namespace pmusim
