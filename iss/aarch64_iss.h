#pragma once
// An AArch64 instruction-set simulator as one more initiator on the firmware gate
// (docs/firmware.md). Unicorn 2 executes the instructions (at its EL1 only); this class
// models what Unicorn does not: EL0-EL3 with their banked registers, exception entry and
// ERET, SVC/HVC/SMC routing, the system registers the gate owns, memory-mapped unit
// windows, interrupts, WFI, semihosting and time.
//
// One class, its members in one file per part (docs/firmware.md "Inside the ISS", "The parts"):
//   aarch64_iss.cpp            construction, start/power_on/power_off, the run loop, finish
//   engine_client.cpp          the ISS as the engine driver's client: its runs, its stop points, the
//                              MRS/MSR hook, the faulting-access search, the engine's registers
//   time_pacing.cpp            local time, sync, run budgets (SMP quanta), WFI's wait, IRQ pacing
//   exception_model.cpp        which exception an instruction raises (SVC/HVC/SMC, WFx, EL0 traps),
//                              entry and ERET around exception_levels (time, trace, log, checks)
//   sysreg_access.cpp          MRS/MSR the ISS executes: its own registers, the gate's (served in the
//                              engine's MRS/MSR hook when the engine lacks them), their traps
//   el1_register_traps.cpp     HCR_EL2.TVM/TRVM/TID1-3/TACR traps of EL1 registers the engine holds
//   window_access.cpp          loads/stores outside plain memory, stage 1 faults, the MMIO slow path
//   maintenance_broadcast.cpp  the platform's CPUs, TLBI/IC broadcast, code written by a host
//   semihosting_port.cpp, debug_access.cpp; and classes of their own: engine_driver (the engine's
//   runs, hooks, stop points), exception_levels (the EL state, entry, ERET), exception_routing,
//   elf_loader, load_store, stage1_walk, stage2_map, access_groups; a64_encoding.h /
//   unicorn_calls.h (shared helpers).
//
// How the engine is driven (Unicorn 2.1.1; docs/firmware.md "Inside the ISS", "The engine driver"):
// - the engine driver (iss/engine_driver.h) runs it for an exact number of instructions (a block
//   hook, then Unicorn's `until` inside the last straight-line block) and stops it *before* each
//   stop point (a code hook bounded to the address);
// - the instructions the ISS executes itself (MRS/MSR of registers the gate or the ISS holds that
//   the engine cannot serve in its MRS/MSR hook, ERET, WFI, WFE, SEV, SEVL, HLT #0xF000) are stop points:
//   found in the ELF's executable segments when it is loaded, and in any other code when the
//   engine first translates it (the driver's new-block scan asks executes_itself); the ISS then
//   synchronises SystemC time, performs the instruction and steps on;
// - MRS/MSR of a gate register the engine lacks is served inside the engine's MRS/MSR hook;
// - loads, stores and fetches outside plain memory are stage 2 faults of the ISS's own stage 2
//   (iss/stage2_map.h): UC_HOOK_INTR with the PC on the instruction (window_access.cpp);
// - SVC, HVC and SMC arrive at UC_HOOK_INTR with the PC past them, UNDEFINED with the PC on it.
// No wait() happens inside an engine callback, except an access served in the MRS/MSR hook while
// no other CPU runs (sysreg_access.cpp serve_in_engine).
#include <array>
#include <exception>
#include <cstdlib>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>
#include <vector>

#include "iss/cpu_host.h"
#include "iss/engine_driver.h"
#include "iss/elf_loader.h"
#include "iss/exception_levels.h"
#include "iss/semihosting.h"
#include "iss/stage1_walk.h"
#include "models/access_context.h"
#include "models/cpu_controls.h"
#include "models/rational.h"
#include "models/sim_time.h"

struct uc_struct;
struct uc_arm64_cp_reg;

namespace pmusim {

struct access_record;
class interrupt_line;
class core_model;
class firmware_gate;
class cpu_controls;
class memory;

// Where and how a CPU starts without an ELF (a loader outside the CPU placed the image): Linux's
// arm64 boot protocol is entry = the Image's first instruction, EL2 or EL1 Non-secure, x0 = the
// DTB's address, x1..x3 = 0 (Documentation/arm64/booting.rst).
struct cpu_boot {
    uint64_t entry = 0;
    unsigned el = 1;
    bool secure = false;
    std::array<uint64_t, 4> x{};      // x0..x3; the other general registers start at 0
    std::optional<uint64_t> sp;       // SP_ELx at entry; default: the top of the entry's memory
    std::string name = "boot image";  // what logs and messages call the code
};

// An SMC or HVC the CPU executed that a host-side model may serve (PSCI as a model, when no EL3
// or EL2 firmware runs): the function in x[0], arguments in x[1..3]. A handler that serves it
// writes the results into x and returns true; the instruction then retires like a call that
// returned (x0..x3 written, PC past it). false: the architecture's SMC/HVC exception as usual.
struct cpu_call {
    bool hvc = false;
    uint16_t imm16 = 0;
    unsigned el = 1;       // the calling EL
    bool secure = false;   // the calling security state
    std::array<uint64_t, 4> x{};
};
class aarch64_iss;
using cpu_call_handler = std::function<bool(aarch64_iss& cpu, cpu_call& call)>;

struct firmware_result {
    enum class state { idle, running, passed, failed, error, off };
    state s = state::idle;
    uint64_t exit_status = 0; // SYS_EXIT subcode
    int exit_code = 0;        // pmusim's: 0 passed, 1 failed, 2 bad input, 3 model error
    std::string message;      // why it failed or stopped, with the PC
};

class aarch64_iss : public sc_core::sc_module, private engine_client {
public:
    tlm_utils::simple_initiator_socket<aarch64_iss> to_gate;

    // CPU `cpu` of the system `host` describes (iss/cpu_host.h); the host outlives the ISS. A
    // platform's CPU: vp/platform_iss.h.
    aarch64_iss(const sc_core::sc_module_name& name, cpu_host& host, unsigned cpu);
    // The same over a host the ISS owns (an adapter made for it: vp/platform_iss.h make_platform_iss).
    aarch64_iss(const sc_core::sc_module_name& name, std::unique_ptr<cpu_host> host, unsigned cpu);
    ~aarch64_iss() override;

    // Loads the ELF into memory now (input_error on bad input) and starts running it at `el`
    // (3: Secure) from the current time. `time_limit_fs` is simulated time from now.
    void start(const std::string& elf_path, unsigned el, bool secure, fs_t time_limit_fs);

    // Boot/host API (docs/firmware.md "Booting a CPU from a host"). power_on starts the CPU at
    // `boot` from the current time (no ELF; the image is already in memory); it is what PSCI
    // CPU_ON does to a CPU that is off. power_off stops the CPU (PSCI CPU_OFF, SYSTEM_OFF): it
    // ends its run with the state `off` and the AMU's activity of an idle CPU; from any process
    // or from inside this CPU's own call handler. A CPU powered off can be powered on again.
    void power_on(const cpu_boot& boot, fs_t time_limit_fs = fs_never);
    void power_off(const std::string& why = "powered off");
    bool powered_off() const { return result_.s == firmware_result::state::off; }
    // The handler of SMC and HVC calls (PSCI as a model); none by default.
    void set_call_handler(cpu_call_handler handler) { call_handler_ = std::move(handler); }
    // General registers, for a call handler or a host loader (x31 reads as 0).
    uint64_t x(unsigned r) const { return read_x(r); }
    void set_x(unsigned r, uint64_t v) { write_x(r, v); }
    uint64_t pc() const { return engine_pc(); }
    // Multi-CPU maintenance: each engine has its own TLB and translated code. A TLBI ...IS or
    // IC IALLUIS/IVAU in one engine reaches every engine of the same platform (the Inner
    // Shareable domain); a host that writes code into memory (a loader, DMA, a debugger) calls
    // code_written() with the physical range so that no engine runs stale translations.
    void flush_tlb();
    void flush_translations();
    void code_written(uint64_t begin, uint64_t end);
    // Every ISS on the same gate (one platform: the Inner Shareable domain), for the broadcasts (cpu order).
    static std::vector<aarch64_iss*> on_gate(const firmware_gate& gate);
    bool other_cpus_running() const;
    bool running() const { return result_.s == firmware_result::state::running; }
    const sc_core::sc_event& finished() const { return finished_; }
    const firmware_result& result() const { return result_; }
    unsigned cpu() const { return cpu_; }

    // Statistics (benchmarks, tests).
    uint64_t instructions_retired() const { return retired_; }
    uint64_t engine_runs() const { return engine_.runs(); }
    uint64_t peripheral_accesses() const { return peripheral_accesses_; }
    unsigned exception_level() const { return levels_.el(); }

    // Instructions per run-ahead quantum cap (tests); the quantum is otherwise bounded by the
    // next pending SystemC activity only.
    static void set_global_quantum(const sc_core::sc_time& q) { tlm_utils::tlm_quantumkeeper::set_global_quantum(q); }

    // A debugger (debug/iss_debugger.h, docs/debugging.md). The run loop calls checkpoint() before
    // every engine run; it may hold the CPU there (halted: simulated time stands still) and returns
    // the most instructions the run may retire (1: a single step; 0: stop the firmware, killed).
    class debug_hooks {
    public:
        virtual ~debug_hooks() = default;
        virtual uint64_t checkpoint(aarch64_iss& cpu, bool at_breakpoint) = 0;
        virtual void finished(aarch64_iss& cpu) = 0;
    };
    void set_debug_hooks(debug_hooks* hooks) { debug_ = hooks; }
    // Code hooks on these addresses only: the engine stops before the instruction.
    void set_breakpoints(const std::vector<uint64_t>& addresses);
    // The architectural state as a debugger sees it (between engine runs; iss/debug_access.cpp).
    uint64_t debug_read_x(unsigned r) const { return read_x(r); }
    void debug_write_x(unsigned r, uint64_t v) { write_x(r, v); }
    uint64_t debug_pc() const { return engine_pc(); }
    void debug_set_pc(uint64_t pc) { set_pc(pc); }
    uint64_t debug_sp() const;
    void debug_set_sp(uint64_t sp);
    uint32_t debug_pstate() const; // NZCV, DAIF, M[3:0] = EL << 2 | SPSel
    void debug_set_pstate(uint32_t value); // NZCV and DAIF; the EL and SPSel are not changed
    void debug_read_v(unsigned n, uint8_t bytes[16]) const;
    void debug_write_v(unsigned n, const uint8_t bytes[16]);
    uint32_t debug_fp_status(bool control) const; // FPSR, or FPCR
    void debug_set_fp_status(bool control, uint32_t value);
    // Memory at a virtual address, translated by this CPU's stage 1 regime now (VA = PA with the
    // MMU off): plain memory, or a unit window read or written through the gate as this CPU (not in
    // the access log). false: an address does not translate, or the access cannot be made.
    bool debug_memory(bool is_write, uint64_t address, uint8_t* bytes, size_t length);
    const std::string& elf_path() const { return image_.path; }

    // The instruction, exception and access trace (debug/trace.h, docs/debugging.md).
    class trace_sink {
    public:
        virtual ~trace_sink() = default;
        virtual bool wants_instructions() const = 0;
        virtual void instruction(const aarch64_iss& cpu, uint64_t index, fs_t time, uint64_t pc, uint32_t word) = 0;
        virtual void exception(const aarch64_iss& cpu, fs_t time, unsigned from_el, unsigned to_el, bool irq, uint64_t esr,
                               uint64_t elr, std::optional<uint64_t> far, uint64_t vector) = 0;
        virtual void access(const aarch64_iss& cpu, const access_record& record, bool system_register) = 0;
    };
    void set_trace(trace_sink* trace);

    // Exception-model constants (Arm ARM D1.10, D17.2.37 ESR_ELx), public for tests.
    static constexpr uint32_t ec_unknown = esr::ec_unknown, ec_svc64 = 0x15, ec_hvc64 = 0x16, ec_smc64 = 0x17,
                              ec_sysreg = esr::ec_sysreg, ec_wfx = 0x01, ec_dabort_lower = 0x24, ec_dabort_same = 0x25;

private:
    aarch64_iss(const sc_core::sc_module_name& name, cpu_host& host, unsigned cpu, const cpu_wiring& wiring);
    // Why the engine stopped (watch: a pending IRQ became unmasked; client: the MRS/MSR hook's trap).
    using stop_kind = engine_driver::stop_kind;
    using stop_info = engine_driver::stop_info;

    void thread();
    void run_loop();
    // The reset state and run start common to start() and power_on().
    void begin_run(uint64_t entry, unsigned el, bool secure, fs_t time_limit_fs, std::optional<uint64_t> sp,
                   const std::string& what);
    cpu_call_handler call_handler_;
    bool power_off_requested_ = false;
    sc_core::sc_event wake_; // power_off from another process wakes a waiting CPU
    // SMC/HVC served by the call handler: true when it served the call (the instruction retired).
    bool host_call(uint64_t at, bool hvc, uint32_t imm16, uint64_t executed);
    uint32_t system_instruction(const uc_arm64_cp_reg& cp) override; // TLBI/IC broadcast
    static std::vector<aarch64_iss*>& instances();
    // Runs the engine for at most `budget` instructions from the current PC; returns how many retired.
    uint64_t run_engine(uint64_t budget);
    // engine_client: the engine driver's questions on its rare paths (iss/engine_client.cpp).
    bool executes_itself(uint64_t address) override;
    bool stop_before_block(uint64_t address) override; // a pending IRQ became unmasked
    uint32_t system_register_instruction(uint64_t pc, bool is_read, int reg, const uc_arm64_cp_reg& cp) override;
    uint64_t faulting_access() override;
    uint64_t engine_pc() const { return engine_.pc(); }
    void set_pc(uint64_t pc) { engine_.set_pc(pc); }
    uint32_t fetch_word(uint64_t pc) const;
    // The physical address of `va` through the EL1&0 stage 1 tables when the MMU is on
    // (translated = true); `va` itself otherwise; nullopt when the walk faults.
    std::optional<uint64_t> stage1_translate(uint64_t va, bool& translated) const;

    // Time: the instant the next instruction starts (all earlier ones have retired).
    void retire(uint64_t instructions);
    void sync(); // SystemC time := t_pos_, and other processes at that instant run first
    // The most instructions the next engine run may retire: up to the next pending SystemC activity
    // (several CPUs: the quantum's end), the time limit, or `cap` (a debugger's step).
    uint64_t run_budget(uint64_t cap);
    void wait_for_interrupt(); // WFI's wait, from the instant after it retired

    // Handlers of engine stops; each leaves the PC at the next instruction to execute.
    void handle_sysreg(uint64_t pc);
    void handle_memory(uint64_t pc, const stop_info& st);
    void handle_exception(uint64_t pc, uint32_t intno);
    void handle_special(uint64_t pc);
    // A data abort of the engine: an access outside plain memory (iss/stage2_map.h), performed.
    void window_access(uint64_t pc);
    bool emulate_load_store(uint64_t pc);
    void data_abort(uint64_t pc, uint32_t word);
    void prefetch_abort(uint64_t pc);
    // translate_only: no access-flag or permission check (the ISS's own reads: stage1_translate).
    walk_result walk(uint64_t va, bool write, bool fetch, bool el0, bool translate_only = false) const;
    unsigned pa_bits() const;
    mutable unsigned pa_bits_ = 0; // 0: not read yet
    bool debug_physical_memory(bool is_write, uint64_t address, uint8_t* bytes, size_t length);
    // Drops this engine's translations of the code at physical [begin, end).
    void drop_translations_of_physical(uint64_t begin, uint64_t end);
    void take_stage1_fault(uint64_t pc, uint64_t va, bool fetch, bool write, const walk_result& w);
    void engine_stage2(bool on);
    // The engine's HCR_EL2 (window_access.cpp); DC while the ISS runs EL2/EL3 code, so that EL1&0's
    // stage 1 does not translate it (follow_el_translation, at every EL change).
    uint64_t engine_hcr(bool stage2) const;
    void follow_el_translation();
    bool engine_hcr_dc_ = false;
    struct free_deleter {
        void operator()(void* p) const { std::free(p); }
    };
    std::unique_ptr<uint64_t[], free_deleter> stage2_tables_; // the engine's stage 2 tables (its private memory)
    // QEMU's exception numbers as UC_HOOK_INTR reports them (target/arm/cpu.h EXCP_*).
    static constexpr uint32_t excp_prefetch_abort = 3, excp_data_abort = 4;
    void semihosting_call(uint64_t pc);
    void take_undefined(uint64_t pc);
    bool el0_system_trap(uint32_t word, uint64_t at);
    bool el0_sys_present(const sysreg_encoding& enc) const;

    struct gate_result {
        access_outcome outcome = access_outcome::ok;
        uint64_t value = 0;
        uint64_t syndrome = 0;
        std::string detail;
    };
    gate_result gate_access(bool is_write, bool system_register, uint64_t address, unsigned bytes, uint64_t value,
                            uint64_t pc);
    access_context context() const;

    // Exception levels.
    bool secure_state() const; // EL3, or SCR_EL3.NS == 0
    bool guest() const;
    uint64_t scr() const;
    uint64_t hcr() const;
    unsigned route_from_el0() const; // EL1, or EL2 when HCR_EL2.TGE
    // Exception entry (levels_), then what only the ISS does: the core's Security state, trace, log,
    // and the checks that stop a run (an exception loop, a vector outside memory).
    void take_exception(unsigned target_el, bool irq, uint64_t esr, uint64_t elr, std::optional<uint64_t> far);
    void exception_entered(const exception_entry& e);
    void exception_return(uint64_t pc);
    void update_security();
    bool local_sysreg(uint32_t key, bool is_read, unsigned rt);
    bool irq_pending() const;
    unsigned wait_trap_target(bool wfe) const;
    // The Event Register (Arm ARM "Wait for Event mechanism and Send event"): set by SEVL, by any
    // CPU's SEV (on every CPU of the gate) and by an exception return; a WFE with it set clears it
    // and completes without waiting or trapping.
    bool event_register_ = false;
    void send_event(bool local);
    // A write to a control register (SCR_EL3, HCR_EL2, CPTR_ELx, MDCR_ELx, ...) that sets bits
    // nothing models: logged once per bit.
    void report_unmodelled(control reg, uint64_t written);
    uint64_t reported_unmodelled_[unsigned(control::count)] = {};
    // CPACR_EL1 (the engine's), executed here so that FPEN and TTA settings are reported once.
    void cpacr_access(uint64_t pc, uint32_t word, bool is_read, unsigned rt);
    bool reported_fpen_ = false, reported_tta_ = false;
    // The EL a pending IRQ is taken to now, or 0 when it is not taken (masked, or routed below).
    unsigned irq_target() const;
    // The exception model's decisions (iss/exception_routing.h) over the current EL, SCR_EL3, HCR_EL2.
    exception_routing routing() const;
    bool try_take_irq();

    void finish(firmware_result::state s, int exit_code, uint64_t status, const std::string& message);
    [[noreturn]] void fail(int exit_code, const std::string& message); // throws to the run loop
    std::string where(uint64_t pc) const;
    uint64_t read_x(unsigned r) const { return engine_.x(r); }
    void write_x(unsigned r, uint64_t v) { engine_.set_x(r, v); }
    bool in_plain_memory(uint64_t address) const;
    // The instruction at `pc` can load or store outside plain memory.
    bool may_access_window(uint64_t pc, uint32_t word) const;
    void log_note(const std::string& text);

    // The MMIO page's callbacks (user data = this; window_access.cpp).
    static uint64_t on_mmio_read(uc_struct* uc, uint64_t offset, unsigned size, void* self);
    static void on_mmio_write(uc_struct* uc, uint64_t offset, unsigned size, uint64_t value, void* self);
    // MRS/MSR of this encoding is executed by the ISS (the gate owns it, or an EL2/EL3 or PSTATE
    // register the ISS holds); the rest run inside the engine.
    bool handled_here(const sysreg_encoding& enc) const;
    // HCR_EL2.TVM/TRVM/TID1-3/TACR traps of EL1 registers the engine executes itself
    // (iss/el1_register_traps.cpp). A candidate: its trap bit is set now (the ISS executes it);
    // trapped: the access of this direction at this EL traps to EL2 now.
    bool el1_trap_candidate(const sysreg_encoding& enc) const;
    bool el1_register_trapped(const sysreg_encoding& enc, bool is_read) const;
    static bool in_el1_trap_group(const sysreg_encoding& enc);
    // An MRS/MSR of such a register the ISS executes and that does not trap: on the engine's register.
    void engine_register_access(uint64_t pc, const sysreg_encoding& enc, bool is_read, unsigned rt);
    // HCR_EL2 written: translated code scanned under the old trap bits is dropped.
    void el1_traps_changed(uint64_t hcr_before, uint64_t hcr_after);
    // The load or store at `pc` (of base-plus-immediate form) accesses the faulting address in the
    // fault's direction, computed from the current registers.
    bool reaches_fault(uint64_t pc) const;
    // Runs from `from` until the PC reaches `exit_address` (inside a straight-line block), or
    // another stop; returns the instructions retired.
    uint64_t run_until(uint64_t from, uint64_t exit_address);
    // The engine's SCTLR_EL1 (a raw access: no TLB flush).
    uint64_t engine_sctlr_el1() const;
    void set_engine_sctlr_el1(uint64_t value);
    // The host and what the ISS uses of it, asked for once (iss/cpu_host.h): no virtual call per
    // access. Two references here, where the platform and the recorder were (the members after
    // them keep their offsets: the block hook's and the MRS hook's fields), the rest at the end.
    cpu_host& host_;
    firmware_gate& gate_;
    unsigned cpu_;
    core_model& core_;
    std::vector<interrupt_line*> irqs_;
    sc_core::sc_event start_event_, finished_;
    firmware_result result_;
    elf_image image_;
    unsigned cycles_per_instruction_ = 1;

    // Architectural state Unicorn does not hold: the exception levels (iss/exception_levels.h), over
    // the engine's registers and the control registers (engine_register_port, exception_model.cpp).
    class engine_register_port final : public engine_register_file {
    public:
        explicit engine_register_port(aarch64_iss& cpu) : cpu_(cpu) {}
        uint64_t pc() const override;
        void set_pc(uint64_t pc) override;
        uint64_t pstate() const override;
        void set_pstate(uint64_t pstate) override;
        void set_iss_el(unsigned el) override;
        uint64_t sp() const override;
        void set_sp(uint64_t sp) override;
        uint64_t sp_el0() const override;
        void set_sp_el0(uint64_t sp) override;
        uint64_t sp_el1() const override;
        void set_sp_el1(uint64_t sp) override;
        uint64_t el1(el1_register r) const override;
        void set_el1(el1_register r, uint64_t value) override;
        uint64_t scr_el3() const override;
        uint64_t hcr_el2() const override;

    private:
        aarch64_iss& cpu_;
    };
    engine_register_port register_port_{*this};
    exception_levels levels_{register_port_};
    unsigned el() const { return levels_.el(); }

    // Code found at run time (outside the ELF's segments: copied, loaded, JIT-written, or no ELF):
    // the engine driver scans every translation block before it first runs and asks
    // executes_itself, that is, whether the word is one of these.
    bool iss_instruction(uint32_t word) const;
    // A register the engine's CPU does not have (its MRS/MSR is UNDEFINED there and ends its
    // translation block): such a register of the gate's is served inside the MRS/MSR hook
    // (serve_in_engine, iss/sysreg_access.cpp) instead of being an engine exit.
    bool engine_lacks(const sysreg_encoding& enc) const;
    mutable std::map<uint32_t, bool> engine_lacks_; // by key
    // Serves the gate register's MRS/MSR at `pc` inside the engine's hook: returns the hook's answer
    // (1: the engine skips the instruction; 0: it raises UNDEFINED before it, the slow path).
    uint32_t serve_in_engine(uint64_t pc, const sysreg_encoding& enc, bool is_read, unsigned rt, uint64_t value);
    // A trapped access served in the hook: handle_sysreg takes it from here, not from the gate again.
    std::optional<std::pair<uint64_t, gate_result>> served_trap_;
    uint64_t served_in_engine_ = 0;
    fs_t run_limit_fs_ = 0; // the end of the current engine run's budget (run_budget)
    uint64_t missed_sysreg_pc_ = 0;
    bool missed_sysreg_ = false;

    // The engine's stop points are the ISS's instructions and the access points (engine_driver::
    // access_points: loads and stores after the first in a straight-line run); group_members_
    // (sorted) are those of them in an earlier one's group, without a hook.
    std::vector<uint64_t> group_members_;
    // SMP quanta (iss/time_pacing.cpp, docs/firmware.md "SMP: runs in quanta"): a run whose limit
    // is the quantum's end, not an event, ends at the first block boundary at or after
    // soft_budget_ instructions (~0: none; the engine driver's soft budget); the CPU then waits for
    // that boundary only (boundary_event_ at boundary_at_, 0 when not waiting), its local time up
    // to a block ahead.
    uint64_t soft_budget_ = ~uint64_t(0);
    fs_t quantum_end_ = 0, boundary_due_ = 0, boundary_at_ = 0;
    sc_core::sc_event boundary_event_;
    void pace();
    void after_run();
    void wait_for_boundary(fs_t boundary);
    sc_core::sc_time time_to_next_event(bool smp);
    // TLB and translation-buffer maintenance other CPUs broadcast (TLBI ...IS, IC IALLUIS), applied
    // once at this engine's next run (iss/maintenance_broadcast.cpp).
    bool tlb_flush_pending_ = false, tb_flush_pending_ = false;
    void apply_broadcast_maintenance();
    uint64_t mmio_page_ = 0;
    gate_result mmio_error_;
    tlm::tlm_generic_payload payload_; // of gate_access
    bool mmio_failed_ = false;
    // The access the fault reported, while its instruction executes on the MMIO page.
    struct mmio_split {
        uint64_t address = 0;
        unsigned size = 0;
        bool is_write = false;
        bool done = false;       // read: the gate access happened
        unsigned bytes_seen = 0; // write: the bytes the callbacks gave so far (bit per byte)
        uint64_t value = 0;
    } mmio_access_;
    bool in_mmio_access(uint64_t address, unsigned size) const;
    void next_mmio_access(uint64_t address, bool is_write);
    uint64_t mmio_pc_ = 0;

    // Time.
    fs_t t_pos_ = 0;     // the instant the next instruction starts
    fs_t deadline_ = 0;  // time limit (absolute)
    fs_t started_at_ = 0;
    tlm_utils::tlm_quantumkeeper qk_;
    std::map<std::string, rational> saved_workload_;

    uint64_t retired_ = 0, peripheral_accesses_ = 0;

    // Debugger and trace (iss/debug_access.cpp).
    debug_hooks* debug_ = nullptr;
    bool at_breakpoint_ = false;
    std::optional<uint64_t> resume_breakpoint_; // the CPU halted at this breakpoint and resumes from it
    // The next engine run passes the breakpoint at `pc` once (a single-instruction run from it).
    void skip_breakpoint_at(uint64_t pc) { engine_.skip_breakpoint_at(pc); }
    trace_sink* trace_ = nullptr;
    uint64_t trace_hook_ = 0;
    uint64_t traced_index_ = ~uint64_t(0);
    static void on_traced_instruction(uc_struct* uc, uint64_t address, uint32_t size, void* self);
    semihosting semihosting_; // its operations; the partial stdout line (iss/semihosting_port.cpp)
    struct semihosting_port;  // this CPU's memory, log and time as semihosting's host
    // The rest of what the ISS uses of its host (host_, gate_ above).
    cpu_log& log_;
    cpu_controls& controls_;
    const std::vector<std::pair<uint64_t, memory*>>& memories_;
    std::ostream* const* access_log_; // *access_log_: the access log's stream, null when none
    std::unique_ptr<cpu_host> owned_host_; // host_, when the ISS owns it
    // The engine (its runs, hooks, stop points: iss/engine_driver.h), and its handle, with which the
    // parts read and write the engine's registers. Last: the members above keep the offsets they had
    // before the engine driver was a class of its own (the MRS/MSR hook's path reads many of them).
    engine_driver engine_;
    uc_struct* const uc_;
};

} // namespace pmusim
