#pragma once
// The engine driver: one Unicorn 2.1 AArch64 engine (its uc_struct, memory mapping, hooks) run for
// an exact number of instructions, stopped before chosen addresses (stop points, breakpoints), with
// its registers and its translated-code and TLB maintenance (docs/firmware.md "The engine driver").
// It knows nothing of EL2/EL3, the gate, SystemC time or semihosting: its client (the ISS) decides
// the rare paths through engine_client. Unit tests: tests/unit/test_engine_driver.cpp.
//
// How a run is exact (measured on Unicorn 2.1.1):
// - a UC_HOOK_BLOCK hook counts instructions a translation block at a time and stops the engine
//   before a block that would exceed the budget; the rest of the budget runs with an `until`
//   address inside that straight-line block, so a run retires an exact count;
// - a stop point is a UC_HOOK_CODE hook bounded to its address (one per run of consecutive
//   addresses) that stops the engine *before* the instruction, with the PC on it;
// - new translation blocks are scanned before they first run (UC_HOOK_EDGE_GENERATED, and the
//   block hook for the first block of a run): instructions the client executes itself become stop
//   points there, and the block is translated again with their hooks;
// - exceptions the engine raises (SVC/HVC/SMC with the PC past the instruction, UNDEFINED and
//   aborts with the PC on it) arrive at UC_HOOK_INTR, which stops the engine without entering them;
// - a load or store outside mapped memory stops the engine (UC_HOOK_MEM_UNMAPPED); Unicorn leaves
//   its PC stale there, and the client locates the instruction (engine_client::faulting_access).
// No callback may throw through the engine's frames: a client's hook that fails hands its
// exception to fail_in_hook, and the run rethrows it after uc_emu_start returns.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

struct uc_struct;
struct uc_arm64_cp_reg;

namespace pmusim {

// What the engine driver asks its client on the paths that are not the hot ones.
class engine_client {
public:
    // The instruction at `address` (as the engine fetches it) is one the client executes itself:
    // the new-block scan makes it a stop point. Asked for each word of each new translation block.
    virtual bool executes_itself(uint64_t address) = 0;
    // A watching run (run's `watch`) asks at each block start after the first whether the engine
    // stops before that block (the ISS: a pending interrupt became unmasked in the block before).
    virtual bool stop_before_block(uint64_t address) = 0;
    // An MRS (is_read) or MSR at `pc`, no stop point (UC_HOOK_INSN): the hook's answer (1: the engine
    // skips the instruction). `reg` is Unicorn's id of Rt, `cp` the register and, for MSR, the value.
    virtual uint32_t system_register_instruction(uint64_t pc, bool is_read, int reg, const uc_arm64_cp_reg& cp) = 0;
    // A SYS instruction (TLBI, IC, DC, AT) the engine is about to execute: the hook's answer.
    virtual uint32_t system_instruction(const uc_arm64_cp_reg& cp) = 0;
    // A load or store outside mapped memory stopped the engine with a stale PC: the address of the
    // instruction that made it (the driver's position, block_position(), says where the run was).
    virtual uint64_t faulting_access() = 0;

protected:
    ~engine_client() = default;
};

class engine_driver {
public:
    // Why the engine stopped.
    enum class stop_kind {
        none,
        budget,       // the budget (or the soft budget) ran out, or a rescan: nothing to handle
        watch,        // the client stopped it before a block (stop_before_block): PC at that block
        rescan,       // internal: a new block held instructions of the client's (becomes budget)
        client,       // a client's hook stopped it (stop_in_hook)
        memory,       // a load or store outside mapped memory: address, size, is_write; PC on it
        exception,    // UC_HOOK_INTR: intno (QEMU's EXCP_*)
        stop_point,   // the PC is on a stop point
        fetch_fault,  // an instruction fetch outside mapped memory: address
        engine_error, // uc_emu_start failed: intno = the uc_err
        breakpoint,   // the PC is on a breakpoint
    };
    struct stop_info {
        stop_kind kind = stop_kind::none;
        uint64_t address = 0;
        unsigned size = 0;
        bool is_write = false;
        uint32_t intno = 0;
    };
    // Where the last run was (for the client's faulting-access search and its hooks): the block
    // the engine ran last began at block_start with before_block instructions of the run before
    // it, and the run had counted `counted` (that block's included); access_from is the last
    // block start or access point the engine passed.
    struct position {
        uint64_t block_start = 0, before_block = 0, counted = 0, access_from = 0;
    };
    static constexpr uint64_t no_budget = ~uint64_t(0);
    // Unicorn's interrupt numbers (QEMU target/arm/cpu.h EXCP_*) the driver's client meets.
    static constexpr uint32_t excp_udef = 1, excp_swi = 2, excp_prefetch_abort = 3, excp_data_abort = 4, excp_hvc = 11,
                              excp_smc = 13;

    // Opens the engine (Unicorn's default AArch64 CPU, or `cpu_model`, a UC_CPU_ARM64_* value) with
    // a translated-code buffer of that size, adds its hooks, and checks at start-up that the engine
    // behaves as the driver relies on (self_check); model_error otherwise.
    explicit engine_driver(engine_client& client, size_t translation_buffer_bytes = size_t(128) << 20, int cpu_model = -1);
    ~engine_driver();
    engine_driver(const engine_driver&) = delete;
    engine_driver& operator=(const engine_driver&) = delete;

    // The engine itself, for what the driver does not wrap (system registers, context save, MMIO maps).
    uc_struct* uc() const { return uc_; }

    // Memory the engine reads and writes directly (no callback per access).
    void map_memory(uint64_t base, uint64_t size, void* bytes, bool writable_and_executable = true);

    // Runs from the current PC for at most `budget` instructions; returns how many retired. A run
    // with a soft budget ends at the first block boundary at or after that many instructions
    // (soft_stopped()). A watching run asks the client at each block start (stop_before_block).
    uint64_t run(uint64_t budget, uint64_t soft_budget = no_budget, bool watch = false);
    // Runs from `from` until the PC reaches `exit_address` inside the straight-line block at `from`
    // (Unicorn's `until`), or another stop; returns the instructions retired.
    uint64_t run_until(uint64_t from, uint64_t exit_address);
    const stop_info& stop() const { return stop_; }
    stop_info& stop() { return stop_; } // a client's MMIO callbacks record the failed access here
    int last_error() const { return last_error_; } // uc_emu_start's, as a uc_err
    bool soft_stopped() const { return soft_stopped_; }
    uint64_t runs() const { return runs_; }
    position block_position() const { return {block_start_, before_block_, counted_, access_from_}; }
    // The instructions of the current run before `pc`, when `pc` is in the block the block hook
    // counted last (a hook inside that block: the instruction's start time follows from it).
    std::optional<uint64_t> retired_before(uint64_t pc) const {
        const uint64_t in_block = counted_ - before_block_;
        if (pc < block_start_ || pc - block_start_ >= 4 * in_block) return std::nullopt;
        return before_block_ + (pc - block_start_) / 4;
    }
    // The same for a code hook's address in any block: before_block plus its place in the block.
    uint64_t retired_before_in_block(uint64_t address) const {
        return before_block_ + (address >= block_start_ ? (address - block_start_) / 4 : 0);
    }

    // Stop points (sorted): the engine stops before each; access points: a code hook records the
    // address as access_from (the faulting-access search). Both replace the earlier sets.
    void set_stop_points(std::vector<uint64_t> stop_points, std::vector<uint64_t> access_points = {});
    const std::vector<uint64_t>& stop_points() const { return stop_points_; }
    const std::vector<uint64_t>& access_points() const { return access_points_; }
    bool is_stop_point(uint64_t address) const {
        return std::binary_search(stop_points_.begin(), stop_points_.end(), address);
    }
    // Breakpoints: the engine stops before each, except that the next run passes the one at
    // skip_breakpoint_at's address once (a CPU resuming from it); no_breakpoint_skip clears that.
    void set_breakpoints(const std::vector<uint64_t>& addresses);
    const std::vector<uint64_t>& breakpoints() const { return breakpoints_; }
    void skip_breakpoint_at(uint64_t pc);
    void no_breakpoint_skip() { skip_breakpoint_ = false; }
    bool skipping_breakpoint() const { return skip_breakpoint_; } // not yet passed

    // From a client's hook inside a run: stop the engine (recording `kind` when nothing else was).
    void stop_in_hook(stop_kind kind);
    void stop_now(); // uc_emu_stop only
    bool stopping() const { return stop_.kind != stop_kind::none; }
    // A client's hook failed: the engine stops, the run rethrows `error` after the engine returns.
    void fail_in_hook(std::exception_ptr error);
    bool hook_failed() const { return bool(hook_error_); }

    // Registers (between runs, or from a hook with the PC stored).
    uint64_t pc() const;
    void set_pc(uint64_t pc);
    uint64_t x(unsigned r) const; // x31 reads as 0 (XZR)
    void set_x(unsigned r, uint64_t value);
    uint64_t sp() const;
    uint64_t pstate() const;
    // A system register by its encoding (Unicorn's UC_ARM64_REG_CP_REG); false when the engine's
    // CPU does not have it.
    bool read_system_register(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2, uint64_t& value) const;
    bool write_system_register(unsigned op0, unsigned op1, unsigned crn, unsigned crm, unsigned op2, uint64_t value);
    // SCTLR_EL1, raw: no TLB maintenance.
    uint64_t sctlr_el1() const;
    void set_sctlr_el1(uint64_t value);
    uint32_t read_word(uint64_t physical) const; // 0 when not mapped

    // Maintenance.
    void flush_tlb();
    void flush_translations();
    // Drops the translated code of [begin, end) (virtual addresses, as the engine translates them now).
    void drop_translations(uint64_t begin, uint64_t end);
    // The next run's first block is scanned by the block hook (no edge leads to it: after a flush).
    void rescan_first_block() { warm_ = false; }

    // What the start-up check ran and found (tests): an empty string when the engine behaved as the
    // driver relies on, else what differed.
    static std::string self_check();

private:
    // Engine callbacks (user data = this).
    static void on_block(uc_struct* uc, uint64_t address, uint32_t size, void* self);
    [[gnu::noinline]] void block_checked(uint64_t address, uint32_t size); // on_block's rare path
    void set_fast_limit();
    static void on_new_block(uc_struct* uc, void* cur, void* prev, void* self);
    bool scan_block(uint64_t address, uint32_t size); // true: new stop points, engine stopped
    static void on_interrupt(uc_struct* uc, uint32_t intno, void* self);
    static bool on_unmapped(uc_struct* uc, int type, uint64_t address, int size, int64_t value, void* self);
    static void on_stop_point(uc_struct* uc, uint64_t address, uint32_t size, void* self);
    static void on_access_point(uc_struct* uc, uint64_t address, uint32_t size, void* self);
    static void on_breakpoint(uc_struct* uc, uint64_t address, uint32_t size, void* self);
    static uint32_t on_mrs(uc_struct* uc, int reg, const uc_arm64_cp_reg* cp, void* self);
    static uint32_t on_msr(uc_struct* uc, int reg, const uc_arm64_cp_reg* cp, void* self);
    static uint32_t on_sys(uc_struct* uc, int reg, const uc_arm64_cp_reg* cp, void* self);
    bool breakpoint_stops_at(uint64_t address);
    void add_stop_point_hooks();
    uint64_t retired_in_run() const;
    void after_engine(); // rethrows a hook's error; the memory stop's PC

    // The block hook's fields first (its common path: one compare, four stores).
    uint64_t counted_ = 0, fast_limit_ = 0, before_block_ = 0, block_start_ = 0, access_from_ = 0;
    uint64_t budget_ = 0;
    uint64_t soft_budget_ = no_budget;
    bool block_checks_ = true; // on_block's rare checks: first block scan, the watch, breakpoints
    bool watch_ = false;
    bool soft_stopped_ = false;
    bool warm_ = false; // the engine has run a block: every later new block has an edge (scanned)
    uc_struct* uc_ = nullptr;
    engine_client& client_;
    stop_info stop_;
    int last_error_ = 0;
    uint64_t runs_ = 0;
    uint64_t no_until_ = 0; // the `until` of a budget run: an address no instruction has
    std::exception_ptr hook_error_;
    std::vector<uint64_t> hooks_;
    std::vector<uint64_t> stop_points_, access_points_, stop_hooks_; // sorted; the code hooks of both
    std::vector<uint64_t> found_stop_points_; // of the block the last rescan stop names
    uint32_t rescan_size_ = 0;
    std::vector<uint64_t> breakpoints_, breakpoint_hooks_;
    uint64_t skip_breakpoint_at_ = 0;
    bool skip_breakpoint_ = false;
    uint64_t block_serial_ = 0;                // blocks the engine began to run while checking
    uint64_t skipped_in_block_ = ~uint64_t(0); // the block in which the engine passed skip_breakpoint_at_
};

} // namespace pmusim
