#include "iss/aarch64_iss.h"
#include "iss/a64_encoding.h"
#include "iss/unicorn_calls.h"
#include "iss/access_groups.h"
#include "iss/load_store.h"
#include "iss/stage1_walk.h"
#include "iss/stage2_map.h"

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
#include "models/access_record.h"
#include "models/firmware_gate.h"

namespace pmusim {

using namespace sc_core;
using namespace a64;

namespace {
// Thrown by fail() to leave the run loop with the result already set.
struct firmware_stopped {};
} // namespace

aarch64_iss::aarch64_iss(const sc_module_name& name, cpu_host& host, unsigned cpu)
    : aarch64_iss(name, host, cpu, host.wiring(cpu)) {}

aarch64_iss::aarch64_iss(const sc_module_name& name, std::unique_ptr<cpu_host> host, unsigned cpu)
    : aarch64_iss(name, *host, cpu) {
    owned_host_ = std::move(host);
}

aarch64_iss::aarch64_iss(const sc_module_name& name, cpu_host& host, unsigned cpu, const cpu_wiring& wiring)
    : sc_module(name), to_gate("to_gate"), host_(host), gate_(host.gate()), cpu_(cpu),
      core_(wiring.core ? *wiring.core : throw model_error("the host gave cpu" + std::to_string(cpu) + " no core model")),
      irqs_(wiring.irq_inputs), log_(host.log()), controls_(host.controls()), memories_(host.memories()),
      access_log_(log_.access_log()), engine_(*this), uc_(engine_.uc()) {
    to_gate.bind(gate_.from_initiators);
    cycles_per_instruction_ = wiring.cycles_per_instruction;
    // The engine (iss/engine_driver.h) has its translated-code buffer of 128 MiB, not Unicorn's 1 GiB
    // default, whose first flush (power_on, IC IALLUIS) touches every page of it: 14 s measured on
    // the shared machine, 0.07 s at 64 MiB. Plain memory: the memory model's own bytes, mapped once
    // (as DMI): no callback per access.
    for (const auto& [base, m] : memories_) engine_.map_memory(base, m->size(), m->data());
    // The engine's lower ELs are AArch64 (its arm_el_is_aa64 reads SCR_EL3.RW and HCR_EL2.RW):
    // EL0 runs at the engine's EL0. The ISS's own SCR_EL3/HCR_EL2 are the gate's registers.
    uc_arm64_cp_reg engine_scr{1, 1, 3, 6, 0, (uint64_t(1) << 10) | 1};
    uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &engine_scr);
    // The engine's stage 2 maps plain memory only, so that any access outside it is a data abort
    // at the exact instruction (iss/stage2_map.h). Its tables are this engine's private memory.
    std::vector<std::pair<uint64_t, uint64_t>> plain;
    for (const auto& [base, m] : memories_) plain.emplace_back(base, m->size());
    const stage2_map s2 = build_stage2_map(plain, stage2_table_base);
    stage2_tables_.reset(static_cast<uint64_t*>(std::aligned_alloc(4096, s2.bytes())));
    std::memcpy(stage2_tables_.get(), s2.words.data(), s2.bytes());
    engine_.map_memory(s2.table_base, s2.bytes(), stage2_tables_.get(), false);
    uc_arm64_cp_reg vtcr{2, 1, 3, 4, 2, s2.vtcr}, vttbr{2, 1, 3, 4, 0, s2.vttbr};
    uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &vtcr);
    uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &vttbr);
    engine_stage2(true);
    // MPIDR_EL1 as the engine's EL1 reads it: VMPIDR_EL2 (EL2 implemented, Non-secure EL1: QEMU's
    // mpidr_read, Arm ARM D17.2.101), this CPU's affinity in pmusim's DynamIQ layout.
    uc_arm64_cp_reg vmpidr{0, 0, 3, 4, 5, wiring.mpidr};
    uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &vmpidr);
    // The engine driver's hooks call this ISS on their rare paths (engine_client, iss/engine_client.cpp):
    // the new-block scan, a pending IRQ unmasked, MRS/MSR, SYS (TLBI/IC broadcast: the Inner
    // Shareable maintenance reaches the other engines), a load or store outside mapped memory.
    instances().push_back(this);
    SC_HAS_PROCESS(aarch64_iss);
    SC_THREAD(thread);
}

aarch64_iss::~aarch64_iss() {
    auto& all = instances();
    all.erase(std::remove(all.begin(), all.end(), this), all.end());
}

// ---------------------------------------------------------------------------------------------
// Starting

void aarch64_iss::start(const std::string& elf_path, unsigned el, bool secure, fs_t time_limit_fs) {
    if (running()) throw input_error(elf_path, 0, fmt::format("cpu{} is already running firmware", cpu_));
    image_ = load_elf_file(elf_path, memories_);
    // The instructions the ISS executes itself end translation blocks: an engine exit at each
    // address of an executable segment that holds one (ERET, WFI, HLT #0xF000, and MRS/MSR of a
    // register the gate or the ISS holds). The engine stops with the PC on it, not executed.
    // The loads and stores after the first in each straight-line run of code are access points
    // (see faulting_access), except those that join the group of an earlier one: the same base
    // register plus an immediate, not written in between. Executable segments in address order;
    // a run goes on across segments that touch.
    std::vector<uint64_t> exits, access_points;
    group_members_.clear();
    std::vector<const elf_segment*> code;
    for (const auto& s : image_.segments)
        if (s.executable) code.push_back(&s);
    std::sort(code.begin(), code.end(), [](const elf_segment* a, const elf_segment* b) { return a->address < b->address; });
    bool access_in_run = false;
    // The base register of the open group; no_group when none is open (a plain sentinel, not
    // std::optional, which GCC 12 warns about here as maybe-uninitialized).
    constexpr unsigned no_group = ~0u;
    unsigned group_base = no_group;
    uint64_t run_end = 0;
    for (const elf_segment* s : code) {
        if (s->address != run_end) access_in_run = false;
        for (uint64_t a = s->address; a + 4 <= s->address + s->file_size; a += 4) {
            uint32_t w = fetch_word(a);
            if (iss_instruction(w)) exits.push_back(a);
            if (ends_block(w)) access_in_run = false;
            else if (may_access_window(a, w)) {
                const auto form = decode_base_offset(w);
                if (access_in_run && form && group_base == unsigned(form->base)) group_members_.push_back(a);
                else {
                    if (access_in_run) access_points.push_back(a);
                    group_base = form ? unsigned(form->base) : no_group; // it anchors a group
                }
                access_in_run = true;
            }
            if (!access_in_run || (group_base != no_group && may_write_register(w, group_base))) group_base = no_group;
        }
        run_end = s->address + s->file_size;
    }
    engine_.set_stop_points(std::move(exits), std::move(access_points));
    // Code translated for an earlier firmware on this CPU is dropped (a whole-cache flush would
    // clear Unicorn's 1 GiB translation buffer: seconds).
    for (const auto& s : image_.segments)
        engine_.drop_translations(s.address, s.address + s.memory_size);
    begin_run(image_.entry, el, secure, time_limit_fs, std::nullopt, "firmware " + elf_path);
}

void aarch64_iss::power_on(const cpu_boot& boot, fs_t time_limit_fs) {
    if (running()) throw input_error(boot.name, 0, fmt::format("cpu{} is already running", cpu_));
    if (!in_plain_memory(boot.entry))
        throw input_error(boot.name, 0, fmt::format("cpu{}: entry {:#x} is outside the platform's plain memory", cpu_, boot.entry));
    image_ = {};
    image_.path = boot.name;
    image_.entry = boot.entry;
    group_members_.clear();
    engine_.set_stop_points({}, {});
    // The loader wrote the image behind the engine's back: no translation of old code survives.
    flush_translations();
    flush_tlb();
    begin_run(boot.entry, boot.el, boot.secure, time_limit_fs, boot.sp, boot.name);
    for (unsigned r = 0; r < 4; ++r) write_x(r, boot.x[r]);
}

void aarch64_iss::power_off(const std::string& why) {
    if (!running()) return;
    // From this CPU's own thread (its call handler) the run loop sees the state and returns; from
    // another process this CPU's thread is waiting (at sync or WFI) and sees it when it wakes.
    finish(firmware_result::state::off, 0, 0, why);
    power_off_requested_ = true;
    start_event_.cancel();
    wake_.notify(SC_ZERO_TIME);
}

void aarch64_iss::begin_run(uint64_t entry, unsigned el, bool secure, fs_t time_limit_fs, std::optional<uint64_t> sp,
                            const std::string& what) {
    power_off_requested_ = false;
    event_register_ = false;
    // Reset state (docs/firmware.md "Initial state").
    for (unsigned r = 0; r < 31; ++r) write_x(r, 0);
    const unsigned start_el = std::min(el, 3u);
    if (start_el < 3) {
        // What the EL3 firmware that would have run leaves behind: SCR_EL3.NS for the state asked for.
        auto& r = controls_.bank(cpu_);
        auto* scr = r.find("SCR_EL3");
        if (scr) {
            uint64_t v = scr->value;
            v = secure ? (v & ~uint64_t(1)) : (v | 1);
            v |= uint64_t(1) << ctl::scr_rw; // and AArch64 below EL3
            // Entering EL2, EL3 firmware enables HVC (TF-A lib/el3_runtime/aarch64/context_mgmt.c
            // sets SCR_EL3.HCE when the next EL is EL2): a kernel started at EL2 calls its hyp
            // stub with HVC, UNDEFINED while HCE = 0 (Arm ARM, HVC).
            if (start_el == 2) v |= uint64_t(1) << ctl::scr_hce;
            scr->value = v;
        }
        if (start_el < 2)
            if (auto* hcr = r.find("HCR_EL2")) hcr->value |= uint64_t(1) << ctl::hcr_rw; // EL1 is AArch64
    }
    uint64_t stack = 0; // SP_ELx of the start EL: the top of the entry's memory, or the boot's
    for (const auto& [base, m] : memories_)
        if (entry >= base && entry - base < m->size()) stack = (base + m->size()) & ~uint64_t(15);
    if (sp) stack = *sp;
    levels_.reset(start_el, stack); // DAIF masked, SPSel = 1 (ELxh), as out of reset
    set_pc(entry);

    started_at_ = now_fs();
    t_pos_ = started_at_;
    deadline_ = time_limit_fs > fs_never - started_at_ ? fs_never : started_at_ + time_limit_fs;
    result_ = {};
    result_.s = firmware_result::state::running;
    retired_ = 0;
    saved_workload_.clear();
    // The AMU counts what the firmware does: one instruction per cycles_per_instruction CPU cycles.
    std::map<std::string, rational> rates;
    for (const auto& k : core_.event_keys())
        if (!core_model::is_fixed_key(k)) rates[k] = rational(0);
    rates["inst"] = rational(1, cycles_per_instruction_);
    core_.set_workload(rates, t_pos_);
    core_.set_power(power_state::run, t_pos_);
    levels_.set_reported_security(!core_.secure()); // told to the core now, whatever it was
    update_security();
    log_.line(fmt::format("[{}] cpu{}: {} starts at EL{} {} at {:#x}", format_time(now_fs()), cpu_, what, levels_.el(),
                          secure_state() ? "Secure" : "Non-secure", entry));
    start_event_.notify(SC_ZERO_TIME);
}

// ---------------------------------------------------------------------------------------------
// The run loop

void aarch64_iss::thread() {
    for (;;) {
        wait(start_event_);
        try {
            run_loop();
        } catch (const firmware_stopped&) {
        } catch (const input_error& e) {
            finish(firmware_result::state::error, 2, 0, e.what());
        } catch (const std::exception& e) {
            finish(firmware_result::state::error, 3, 0, std::string("model error: ") + e.what());
        }
        if (const std::string line = semihosting_.take_partial_line(); !line.empty())
            log_.program_output(fmt::format("cpu{}: {}", cpu_, line));
    }
}

void aarch64_iss::run_loop() {
    while (running()) {
        pace();
        if (!running()) return; // powered off by another process while this one waited
        // sc_stop() ends the simulation after the current delta: a run now (nothing is pending any
        // more) would go on to the next device access, far past the end (pmusim linux's time limit).
        if (sc_get_curr_simcontext()->sim_status() == SC_SIM_USER_STOP) return;
        if (now_fs() >= deadline_)
            fail(2, fmt::format("{}: the firmware did not exit within {} (time limit)", where(engine_pc()),
                                format_time(deadline_ - started_at_)));
        uint64_t cap = ~uint64_t(0);
        if (debug_) {
            cap = debug_->checkpoint(*this, at_breakpoint_); // may hold the CPU (halted)
            at_breakpoint_ = false;
            if (cap == 0) {
                finish(firmware_result::state::failed, 1, 0, "killed by the debugger");
                return;
            }
        }
        if (try_take_irq()) continue;
        const uint64_t budget = run_budget(cap);
        if (budget == 0) continue; // SMP: an event came before this CPU's own time; it has happened now
        uint64_t retired = run_engine(budget);
        retire(retired);
        after_run();
        uint64_t pc = engine_pc();
        // The breakpoint's instruction ran (its hook let it pass): the resume is over. A run that
        // stopped before reaching it (an engine rescan, an interrupt) leaves it for the next run.
        if (resume_breakpoint_ && !engine_.skipping_breakpoint()) resume_breakpoint_.reset();
        // A debugger's step (budget 1) whose instruction the engine retired, stopped on one the
        // ISS executes itself (an MRS/MSR it serves, ERET, WFI, semihosting): that one is the next
        // step's, not this one's.
        engine_driver::stop_info& stop = engine_.stop();
        if (debug_ && cap == 1 && retired >= budget && stop.kind == stop_kind::stop_point) stop.kind = stop_kind::budget;
        switch (stop.kind) {
        case stop_kind::budget:
        case stop_kind::watch: // a pending IRQ became unmasked: try_take_irq takes it
        case stop_kind::rescan: break;
        case stop_kind::breakpoint:
            at_breakpoint_ = true;
            resume_breakpoint_ = pc;
            break;
        case stop_kind::client: handle_sysreg(pc); break; // the MRS/MSR hook's trapped access
        case stop_kind::memory: handle_memory(pc, stop); break;
        case stop_kind::exception: handle_exception(pc, stop.intno); break;
        case stop_kind::stop_point: handle_special(pc); break;
        case stop_kind::fetch_fault:
            fail(2, fmt::format("{}: instruction fetch from {:#x}, outside the platform's plain memory", where(pc), stop.address));
        case stop_kind::engine_error:
        case stop_kind::none:
            fail(3, fmt::format("{}: the engine stopped: {}", where(pc), uc_strerror(uc_err(stop.intno))));
        }
    }
}

std::string aarch64_iss::where(uint64_t pc) const {
    return fmt::format("{}: cpu{} PC {:#x} EL{}", image_.path, cpu_, pc, el());
}

void aarch64_iss::finish(firmware_result::state s, int exit_code, uint64_t status, const std::string& message) {
    levels_.save_stack_pointers();
    result_.s = s;
    result_.exit_code = exit_code;
    result_.exit_status = status;
    result_.message = message;
    // The CPU stops running firmware; its activity returns to what it was (the AMU's view of an
    // idle text-sequence CPU).
    fs_t t = std::max(t_pos_, now_fs());
    std::map<std::string, rational> back;
    for (const auto& k : core_.event_keys())
        if (!core_model::is_fixed_key(k)) back[k] = rational(k == "inst" ? 1 : 0);
    core_.set_workload(back, t);
    host_.firmware_exited(cpu_, t);
    log_.line(fmt::format("[{}] cpu{}: {} {} after {} instructions{}", format_time(t), cpu_,
                          image_.segments.empty() ? image_.path : "firmware " + image_.path,
                          s == firmware_result::state::passed   ? "passed"
                          : s == firmware_result::state::failed ? "failed"
                          : s == firmware_result::state::off    ? "powered off"
                                                                : "stopped",
                          retired_, message.empty() ? "" : ": " + message));
    finished_.notify(SC_ZERO_TIME);
    if (debug_) debug_->finished(*this);
}

void aarch64_iss::fail(int exit_code, const std::string& message) {
    finish(firmware_result::state::error, exit_code, 0, message);
    throw firmware_stopped{};
}

void aarch64_iss::log_note(const std::string& text) { log_.line(fmt::format("[{}] cpu{}: {}", format_time(now_fs()), cpu_, text)); }

} // namespace pmusim
