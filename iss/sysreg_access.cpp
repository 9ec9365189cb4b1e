// The system-register access path: MRS/MSR the ISS executes, either of a register it holds
// itself (CurrentEL, SPSel, the EL2/EL3 banks) or through the gate (the units' and control
// registers, one TLM transaction at the instruction's instant), and their traps. Members of aarch64_iss.
#include "iss/aarch64_iss.h"
#include "iss/exception_routing.h"
#include "iss/a64_encoding.h"
#include "iss/unicorn_calls.h"

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

access_context aarch64_iss::context() const {
    access_context ctx;
    ctx.initiator = initiator_kind::cpu;
    ctx.cpu = cpu_;
    ctx.el = el();
    const exception_routing r = routing(); // SCR_EL3 and HCR_EL2 read once for both
    ctx.secure = r.secure();
    ctx.guest = r.guest();
    return ctx;
}

aarch64_iss::gate_result aarch64_iss::gate_access(bool is_write, bool system_register, uint64_t address, unsigned bytes,
                                                  uint64_t value, uint64_t pc) {
    ++peripheral_accesses_;
    tlm::tlm_generic_payload& trans = payload_; // reused: a payload allocates its extension array
    access_context ctx = context();
    ctx.path = system_register ? access_path::system_register : access_path::memory_mapped;
    sc_time delay = SC_ZERO_TIME;
    uint64_t data = value;
    transport_register(to_gate, trans, is_write, address, bytes, data, &ctx, delay); // models/register_access.h
    gate_result r;
    r.detail = ctx.detail;
    r.syndrome = ctx.syndrome;
    r.outcome = outcome_of(trans, ctx);
    if (!is_write && r.outcome == access_outcome::ok) r.value = data;
    if (r.outcome == access_outcome::error) r.detail = bus_error_detail(trans, ctx);
    if (!*access_log_ && !trace_) return r; // no access log: the record is not built (its cost is most of an access's)
    access_record a;
    a.time_fs = now_fs();
    a.time = format_time(a.time_fs);
    a.file = image_.path;
    a.pc = fmt::format("{:#x}", pc);
    a.context = context().describe();
    a.op = is_write ? "write" : "read";
    a.outcome = to_string(r.outcome);
    if (system_register) a.encoding = sysreg_encoding::from_key(uint32_t(address)).generic_name();
    else a.address = fmt::format("{:#x}", address);
    a.size = bytes; // the access's width: an LDR W is 4 bytes, an LDR X or LDP X (each register) 8
    if (is_write || r.outcome == access_outcome::ok) a.value = fmt::format("{:#x}", is_write ? value : r.value);
    if (r.syndrome) a.syndrome = fmt::format("{:#x}", r.syndrome);
    a.cpu_cycle = core_.clock().edges_at(a.time_fs);
    if (!r.detail.empty()) a.detail = r.detail;
    if (*access_log_) log_.access(a);
    if (trace_) trace_->access(*this, a, system_register);
    return r;
}

bool aarch64_iss::handled_here(const sysreg_encoding& enc) const {
    uint32_t k = enc.key();
    return gate_.sysreg_owner(cpu_, k) || k == key_currentel || k == key_spsel || enc.op1 == 4 ||
           enc.op1 == 5 || enc.op1 == 6 || el1_trap_candidate(enc) || k == key_cpacr_el1;
}

void aarch64_iss::handle_sysreg(uint64_t pc) {
    uint32_t word = fetch_word(pc);
    sysreg_encoding enc = encoding_of(word);
    bool is_read = (word >> 21) & 1;
    unsigned rt = word & 31;
    gate_result r;
    uint64_t hcr_before = 0;
    if (served_trap_ && served_trap_->first == pc) {
        r = served_trap_->second; // the access happened in the engine's hook, at this instant (serve_in_engine)
        served_trap_.reset();
    } else {
        served_trap_.reset();
        if (enc.key() == key_cpacr_el1) {
            cpacr_access(pc, word, is_read, rt);
            return;
        }
        if (in_el1_trap_group(enc)) {
            // ID_AA64PFR0_EL1 is the gate's (the AMU's presence), the rest the engine's.
            if (el1_register_trapped(enc, is_read)) {
                take_exception(2, false, sysreg_trap_syndrome(enc, !is_read, rt), pc, std::nullopt);
                return;
            }
            if (!gate_.sysreg_owner(cpu_, enc.key())) {
                engine_register_access(pc, enc, is_read, rt);
                return;
            }
        }
        if (local_sysreg(enc.key(), is_read, rt)) return;
        sync();
        hcr_before = hcr();
        r = gate_access(!is_read, true, enc.key(), 8, is_read ? 0 : read_x(rt), pc);
    }
    switch (r.outcome) {
    case access_outcome::ok:
    case access_outcome::ignored:
        if (is_read) write_x(rt, r.value);
        else if (const auto c = cpu_controls::at(enc)) report_unmodelled(*c, read_x(rt));
        if (!is_read && enc.key() == key_hcr_el2) el1_traps_changed(hcr_before, hcr());
        set_pc(pc + 4);
        retire(1);
        return;
    case access_outcome::trap_el1:
    case access_outcome::trap_el2:
    case access_outcome::trap_el3: {
        unsigned target = r.outcome == access_outcome::trap_el1 ? 1 : r.outcome == access_outcome::trap_el2 ? 2 : 3;
        take_exception(target, false, sysreg_trap_syndrome(enc, !is_read, rt), pc, std::nullopt);
        return;
    }
    default: take_undefined(pc); return;
    }
}

// The registers the ISS holds itself; false when the access goes to the gate.
bool aarch64_iss::local_sysreg(uint32_t k, bool is_read, unsigned rt) {
    uint64_t pc = engine_pc();
    if (gate_.sysreg_owner(cpu_, k)) return false;
    sysreg_encoding enc = sysreg_encoding::from_key(k);
    auto done = [&](uint64_t value) {
        if (is_read) write_x(rt, value);
        set_pc(pc + 4);
        retire(1);
        return true;
    };
    if (k == key_currentel) {
        if (!is_read || el() == 0) { take_undefined(pc); return true; }
        return done(uint64_t(el()) << 2);
    }
    if (k == key_spsel) {
        if (el() == 0) { take_undefined(pc); return true; }
        if (is_read) return done(levels_.spsel() ? 1 : 0);
        levels_.set_spsel(read_x(rt) & 1);
        return done(0);
    }
    // Minimum EL of the register by op1 (Arm ARM D17.2, "Op1" column): 4/5 EL2, 6 EL3.
    unsigned min_el = enc.op1 == 6 ? 3 : (enc.op1 == 4 || enc.op1 == 5) ? 2 : enc.op1 == 3 ? 0 : 1;
    if (el() < min_el) { take_undefined(pc); return true; }
    if (enc.op1 != 4 && enc.op1 != 5 && enc.op1 != 6) {
        // An EL0/EL1 register that is not ours at EL0: UNDEFINED (min_el passed, so only op1 0 at EL>=1 here).
        take_undefined(pc);
        return true;
    }
    // SP_EL1, SP_EL2, the EL2/EL3 banks and the other EL2/EL3 registers (iss/exception_levels.h).
    if (is_read) return done(levels_.read_register(k));
    levels_.write_register(k, read_x(rt));
    return done(0);
}

// CPACR_EL1 is the engine's register, executed by the ISS so that trap settings nothing models are
// reported: Unicorn 2.1.1 stubs QEMU's fp_exception_el to return 0 (qemu/target/arm/helper.c), so
// its CPU never takes an FP/SIMD access trap, and no trace unit exists. FPEN [21:20] other than
// 0b11 and TTA [28] = 1 (Arm ARM D24.2.35 CPACR_EL1) are logged once per CPU; the value is stored
// and reads back as written. At EL0 it is UNDEFINED, as every EL1 register.
void aarch64_iss::cpacr_access(uint64_t pc, uint32_t word, bool is_read, unsigned rt) {
    if (el() == 0) {
        if (!el0_system_trap(word, pc)) take_undefined(pc);
        return;
    }
    uc_arm64_cp_reg r{1, 0, 3, 0, 2, is_read ? 0 : read_x(rt)};
    if (is_read) {
        uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &r);
        write_x(rt, r.val);
    } else {
        uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &r);
        const unsigned fpen = unsigned(r.val >> 20) & 3;
        if (fpen != 3 && !reported_fpen_) {
            reported_fpen_ = true;
            log_note(fmt::format("CPACR_EL1.FPEN = {:#04b} written: FP/SIMD access traps are not modelled, no behaviour "
                                 "follows (docs/firmware.md \"What the ISS leaves out\"); reported once", fpen));
        }
        if (((r.val >> 28) & 1) && !reported_tta_) {
            reported_tta_ = true;
            log_note("CPACR_EL1 bit 28 (TTA) set: not modelled, no behaviour follows (docs/firmware.md \"What the ISS "
                     "leaves out\"); reported once");
        }
    }
    set_pc(pc + 4);
    retire(1);
}

void aarch64_iss::report_unmodelled(control reg, uint64_t written) {
    // Bits nothing models (cpu_controls), and HCR_EL2 bits the units' access rules read but the
    // exception model ignores (exception_routing::hcr_bits_ignored: E2H).
    const uint64_t ignored = reg == control::hcr_el2 ? exception_routing::hcr_bits_ignored(written) : 0;
    uint64_t& reported = reported_unmodelled_[unsigned(reg)];
    const uint64_t bits = (cpu_controls::unmodelled_bits(reg, written) | ignored) & ~reported;
    if (!bits) return;
    reported |= bits;
    const register_def* def = cpu_controls_table().find(register_name(reg));
    for (unsigned b = 0; b < 64; ++b) {
        if (!((bits >> b) & 1)) continue;
        std::string field;
        if (def)
            for (const auto& f : def->fields)
                if (b >= f.lsb && b < f.lsb + f.width) field = " (" + f.name + ")";
        if ((ignored >> b) & 1)
            log_note(fmt::format("{} bit {}{} set: not modelled by the ISS, which runs EL2 as with the bit 0 (the units' "
                                 "access rules read it; docs/firmware.md \"What the ISS leaves out\"); reported once",
                                 register_name(reg), b, field));
        else
            log_note(fmt::format("{} bit {}{} set: not modelled, no behaviour follows (docs/firmware.md \"What the ISS "
                                 "leaves out\"); reported once",
                                 register_name(reg), b, field));
    }
}

// An MRS/MSR of a gate register the engine's CPU lacks, served inside the engine's MRS/MSR hook
// (no engine exit; issue 28 "Speed"). Unicorn 2.1.1 calls the hook with the PC on the instruction
// (translate-a64.c gen_hook_sys). For a register its CPU lacks, handle_sys has already ended the
// translation block after the instruction (unallocated_encoding: DISAS_NORETURN, so nothing of the
// block follows it) and emitted the UNDEFINED exception behind the hook's skip label: returning 0
// raises it with the PC on the instruction, returning 1 skips it and leaves the block through its
// exit-request path (translator.c gen_tb_end). Writing the PC (uc_reg_write) sets Unicorn's
// quit_request (uc.c uc_reg_write_batch), so that exit keeps the PC written (cpu-exec.c
// cpu_tb_exec: no restore to the block's start) and, without uc_emu_stop, the engine goes on from
// it (softmmu/cpus.c tcg_cpu_exec); with uc_emu_stop the run ends there. Only while this is the only
// CPU running: another CPU's process may run while this one waits here, and its maintenance
// broadcasts must not reach an engine stopped inside a translation block.
uint32_t aarch64_iss::serve_in_engine(uint64_t pc, const sysreg_encoding& enc, bool is_read, unsigned rt, uint64_t value) {
    if (engine_.hook_failed() || engine_.stopping() || other_cpus_running()) return 0;
    // The instruction's place in this run: the block hook counted its block; its start time
    // follows from the instructions before it.
    const std::optional<uint64_t> in_run = engine_.retired_before(pc);
    if (!in_run) return 0;
    const uint64_t before = *in_run;
    const fs_t at = core_.clock().time_after_edges(t_pos_, before * cycles_per_instruction_);
    gate_result r;
    try {
        // No other process is due before the run's end (run_budget), so this wait only moves time on.
        const fs_t now = now_fs();
        if (at > now) wait(to_sc_time(at - now));
        r = gate_access(!is_read, true, enc.key(), 8, is_read ? 0 : value, pc);
    } catch (...) {
        // Nothing may unwind through the engine's frames: stop before the instruction, rethrow after the run.
        set_pc(pc);
        engine_.fail_in_hook(std::current_exception());
        return 1;
    }
    ++served_in_engine_;
    if (r.outcome != access_outcome::ok && r.outcome != access_outcome::ignored) {
        // A trap or UNDEFINED: taken by handle_sysreg after the run, with this access's result.
        served_trap_.emplace(pc, r);
        set_pc(pc);
        engine_.stop_in_hook(stop_kind::client);
        return 1;
    }
    if (is_read && rt != 31) write_x(rt, r.value);
    set_pc(pc + 4);
    // The access made something due before the run's end (an interrupt line's change, a counter's
    // new overflow instant): the run ends after this instruction, so that it happens at its instant.
    const sc_time gap = sc_time_to_pending_activity();
    if (sc_pending_activity_at_current_time() || (gap != sc_max_time() && now_fs() + gap.value() < run_limit_fs_) ||
        (irq_pending() && irq_target()))
        engine_.stop_now();
    return 1;
}

} // namespace pmusim
