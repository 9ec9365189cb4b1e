// The exception model the engine does not have: EL2 and EL3, routing of SVC/HVC/SMC, IRQs and
// traps to an EL, the syndromes (ESR_ELx), exception entry and ERET, WFI/WFE traps, EL0's system
// instruction traps (docs/firmware.md "Exceptions the ISS delivers"). Members of aarch64_iss.
#include "iss/aarch64_iss.h"
#include "iss/a64_encoding.h"
#include "iss/exception_routing.h"
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
#include "models/firmware_gate.h"

namespace pmusim {

using namespace sc_core;
using namespace a64;

uint64_t aarch64_iss::scr() const { return controls_.value(cpu_, control::scr_el3); }

uint64_t aarch64_iss::hcr() const { return controls_.value(cpu_, control::hcr_el2); }

// The decisions (iss/exception_routing.h) over the state as it is now; SCTLR_EL1 is read from the
// engine only where it matters (EL0's WFI/WFE).
exception_routing aarch64_iss::routing() const {
    exception_state s;
    s.el = el_;
    s.scr_el3 = scr();
    s.hcr_el2 = hcr();
    return exception_routing(s);
}

bool aarch64_iss::secure_state() const { return routing().secure(); }

bool aarch64_iss::guest() const { return routing().guest(); }

unsigned aarch64_iss::route_from_el0() const { return routing().route_from_el0(); }

void aarch64_iss::take_undefined(uint64_t pc) {
    take_exception(routing().same_or_el1(), false, exception_routing::esr_undefined(), pc, std::nullopt);
}

void aarch64_iss::save_stack_pointers() {
    uint64_t ps = 0, sp = 0, other = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PSTATE, &ps);
    uc_reg_read(uc_, UC_ARM64_REG_SP, &sp);
    if (el_ == 0) {
        sp_[0] = sp;
        return;
    }
    if (ps & 1) { // SPSel = 1: the live SP is SP_ELx; the engine keeps SP_EL0 in its bank
        sp_[el_] = sp;
        uc_reg_read(uc_, UC_ARM64_REG_SP_EL0, &other);
        sp_[0] = other;
    } else {
        sp_[0] = sp;
        uc_reg_read(uc_, UC_ARM64_REG_SP_EL1, &other);
        sp_[el_] = other;
    }
}

// Writes PSTATE (NZCV, DAIF, SPSel from `value`; bit 32 set: keep the engine's) for the ISS's
// current EL, and the stack pointers of that state. The engine always runs at EL1: its SP_EL1
// slot holds SP_ELx of the ISS's EL.
void aarch64_iss::load_pstate(uint64_t value) {
    follow_el_translation(); // EL2/EL3 run untranslated (window_access.cpp)
    uint64_t ps = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PSTATE, &ps);
    if (!(value >> 32)) ps = (value & pstate_nzcv_daif) | (value & 1);
    uint64_t spsel = el_ == 0 ? 0 : (ps & 1);
    // EL0 runs at the engine's EL0 (EL0t), so the engine itself refuses EL1-only registers and
    // instructions there; EL1-EL3 run at the engine's EL1 (EL1t / EL1h).
    uint64_t engine = (ps & pstate_nzcv_daif) | (el_ == 0 ? 0 : (1u << 2) | spsel);
    uc_reg_write(uc_, UC_ARM64_REG_PSTATE, &engine);
    // Writing PSTATE does not recompute the engine's cached translation flags (its EL among them,
    // QEMU's hflags); writing a system register does (arm_rebuild_hflags in Unicorn 2.1.1's
    // reg_write for UC_ARM64_REG_CP_REG). TPIDR_EL1 written with its own value changes nothing else.
    uc_arm64_cp_reg tpidr{13, 0, 3, 0, 4, 0};
    uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &tpidr);
    uc_reg_write(uc_, UC_ARM64_REG_CP_REG, &tpidr);
    uint64_t own = sp_[el_ == 0 ? 0 : el_];
    uc_reg_write(uc_, UC_ARM64_REG_SP_EL0, &sp_[0]);
    uc_reg_write(uc_, UC_ARM64_REG_SP_EL1, &own);
    uint64_t live = spsel ? own : sp_[0];
    uc_reg_write(uc_, UC_ARM64_REG_SP, &live);
}

void aarch64_iss::update_security() {
    bool s = secure_state();
    if (s == core_secure_) return;
    core_secure_ = s;
    core_.set_secure(s, std::max(t_pos_, now_fs()));
}

void aarch64_iss::take_exception(unsigned target, bool irq, uint64_t esr, uint64_t elr, std::optional<uint64_t> far) {
    uint64_t ps = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PSTATE, &ps);
    const uint64_t spsr = exception_routing::spsr_on_entry(ps, el_);
    const uint64_t offset = exception_routing::vector_offset(el_, ps & 1, target, irq ? exception_routing::kind::irq
                                                                                     : exception_routing::kind::synchronous);
    save_stack_pointers();
    unsigned from = el_;
    el_ = target;
    uint64_t vbar;
    if (target == 1) {
        uc_reg_write(uc_, UC_ARM64_REG_ELR_EL1, &elr);
        write_spsr_el1(uc_, spsr);
        if (!irq) uc_reg_write(uc_, UC_ARM64_REG_ESR_EL1, &esr);
        if (far) uc_reg_write(uc_, UC_ARM64_REG_FAR_EL1, &*far);
        uc_reg_read(uc_, UC_ARM64_REG_VBAR_EL1, &vbar);
    } else {
        elr_[target] = elr;
        spsr_[target] = spsr;
        if (!irq) esr_[target] = esr;
        if (far) far_[target] = *far;
        vbar = vbar_[target];
    }
    load_pstate((ps & 0xf0000000) | pstate_daif | 1);
    uint64_t vector = vbar + offset;
    update_security();
    if (trace_) trace_->exception(*this, std::max(t_pos_, now_fs()), from, target, irq, irq ? 0 : esr, elr, far, vector);
    log_.line(fmt::format("[{}] cpu{}: {} EL{} -> EL{} at {:#x} (ESR {:#x}, ELR {:#x})", format_time(now_fs()), cpu_,
                          irq ? "IRQ" : "exception", from, target, vector, irq ? 0 : esr, elr));
    // A synchronous exception at the vector it leads to, with nothing retired since that vector
    // was entered (no handler there: zeros are UNDEFINED), would loop forever at one instant.
    if (!irq && elr == last_vector_ && retired_ == retired_at_vector_)
        fail(2, fmt::format("{}: exception loop: the exception taken at the vector {:#x} (ESR {:#x}) leads to that vector "
                            "again without an instruction retiring (no handler at VBAR_EL{} + {:#x})",
                            where(elr), vector, esr, target, offset));
    last_vector_ = vector;
    retired_at_vector_ = retired_;
    // The vector is a virtual address at EL1 with the MMU on (stage1_translate reads the new EL's regime).
    bool translated = false;
    const auto vector_pa = stage1_translate(vector, translated);
    if (!vector_pa || !in_plain_memory(*vector_pa))
        fail(2, fmt::format("{}: exception to EL{} (ESR {:#x}) but VBAR_EL{} = {:#x} holds no vector table in memory",
                            where(elr), target, irq ? 0 : esr, target, vbar));
    set_pc(vector);
}

void aarch64_iss::exception_return(uint64_t pc) {
    if (el_ == 0) { take_undefined(pc); return; }
    uint64_t elr, spsr;
    if (el_ == 1) {
        uc_reg_read(uc_, UC_ARM64_REG_ELR_EL1, &elr);
        spsr = read_spsr_el1(uc_);
    } else {
        elr = elr_[el_];
        spsr = spsr_[el_];
    }
    unsigned target = (spsr >> 2) & 3;
    if ((spsr >> 4) & 1) fail(2, fmt::format("{}: ERET to AArch32 (SPSR {:#x}): not modelled", where(pc), spsr));
    // Illegal exception return (Arm ARM D1.4.4.2): to a higher EL, M[3:0] = 0b0001, M[1] = 1, to EL2
    // where it is disabled (Secure, no Secure EL2), to EL1 with EL2 enabled and HCR_EL2.TGE; and an
    // SPSR with IL set. PC = ELR, EL and SPSel unchanged, NZCV and DAIF from the SPSR, PSTATE.IL = 1,
    // and the next instruction (the one at ELR) takes an Illegal Execution state exception (D1.4.5:
    // EC 0x0E, IL 1, ELR = that instruction, SPSR.IL = 1), routed as UNDEFINED. The ERET retires.
    const bool secure_after = el_ == 3 ? !(scr() & 1) : secure_state();
    const bool illegal = target > el_ || (spsr & 0xf) == 1 || (spsr & 2) || ((spsr >> 20) & 1) ||
                         (target == 2 && !cpu_controls::el2_enabled_by(scr(), secure_after)) ||
                         (target == 1 && cpu_controls::el2_enabled_by(scr(), secure_after) && ((hcr() >> ctl::hcr_tge) & 1));
    if (illegal) {
        constexpr uint64_t ec_illegal_state = 0x0e, pstate_il = 1u << 20;
        uint64_t ps = 0;
        uc_reg_read(uc_, UC_ARM64_REG_PSTATE, &ps);
        save_stack_pointers();
        load_pstate((spsr & pstate_nzcv_daif) | (el_ == 0 ? 0 : (ps & 1)));
        set_pc(elr);
        retire(1);
        log_note(fmt::format("{}: illegal exception return from EL{} (SPSR_EL{} {:#x}): PSTATE.IL set, EL unchanged",
                             where(pc), el_, el_, spsr));
        const unsigned to = routing().same_or_el1();
        take_exception(to, false, (ec_illegal_state << 26) | (1u << 25), elr, std::nullopt);
        if (to == 1) write_spsr_el1(uc_, read_spsr_el1(uc_) | pstate_il);
        else spsr_[to] |= pstate_il;
        return;
    }
    // SCR_EL3.RW = 0 makes the ELs below EL3 AArch32 (Arm ARM D1.4 "Execution state"): an ERET into
    // them is to AArch32, which pmusim does not model. HCR_EL2.RW is not checked: pmusim resets
    // HCR_EL2 to 0, and firmware that leaves EL2 unused (this repo's tests) need not set it.
    if (target < 3 && target > 0 && el_ == 3 && !((scr() >> ctl::scr_rw) & 1))
        fail(2, fmt::format("{}: ERET to EL{} with SCR_EL3.RW = 0 (AArch32 below EL3): not modelled", where(pc), target));
    save_stack_pointers();
    el_ = target;
    load_pstate(spsr & (pstate_nzcv_daif | 1));
    update_security();
    set_pc(elr);
    retire(1);
}

void aarch64_iss::handle_special(uint64_t pc) {
    uint32_t w = fetch_word(pc);
    if ((w & mask_sysreg_move) == insn_sysreg_move) {
        handle_sysreg(pc);
        return;
    }
    sync();
    if (w == insn_hlt_semihosting) {
        semihosting_call(pc);
        return;
    }
    if (w == insn_eret) {
        exception_return(pc);
        return;
    }
    if (w == insn_wfi || w == insn_wfe) {
        if (unsigned target = wait_trap_target(w == insn_wfe)) {
            // EC 0x01 "Trapped WFI or WFE" (exception_routing::esr_wfx). Preferred return: the WFx.
            take_exception(target, false, exception_routing::esr_wfx(w == insn_wfe), pc, std::nullopt);
            return;
        }
        if (w == insn_wfe) { // no event register is modelled: WFE completes at once, as a NOP
            set_pc(pc + 4);
            retire(1);
            return;
        }
    }
    // WFI: retires, then the CPU waits for its IRQ input (time_pacing.cpp).
    set_pc(pc + 4);
    retire(1);
    wait_for_interrupt();
}

// The EL a WFI/WFE traps to, or 0 (exception_routing::wfx_trap_target). A WFI that would not wait
// (an interrupt is pending, the wake-up condition) completes instead: the traps apply only when
// the instruction would wait.
unsigned aarch64_iss::wait_trap_target(bool wfe) const {
    if (!wfe && irq_pending()) return 0;
    exception_state s = routing().state();
    if (el_ == 0) {
        uc_arm64_cp_reg sctlr{1, 0, 3, 0, 0, 0}; // SCTLR_EL1: nTWI [16], nTWE [18]
        uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &sctlr);
        s.sctlr_el1 = sctlr.val;
    }
    return exception_routing(s).wfx_trap_target(wfe);
}

// Routing and masking of a physical IRQ (exception_routing::irq_route, irq_target). PSTATE is read
// from the engine only when PSTATE.I can mask it (routed to the current EL, or to EL1).
unsigned aarch64_iss::irq_target() const {
    const exception_routing r = routing();
    const unsigned route = r.irq_route();
    bool masked = false;
    if (route == el_ || route == 1) {
        uint64_t ps = 0;
        uc_reg_read(uc_, UC_ARM64_REG_PSTATE, &ps);
        masked = ps & pstate_i;
    }
    return r.irq_target(masked);
}

namespace {
// EL0-class registers (op1 = 3) that EL0 may access in one direction only: read-only CTR_EL0,
// DCZID_EL0, RNDR, RNDRRS, TPIDRRO_EL0, CNTFRQ_EL0, CNTPCT_EL0, CNTVCT_EL0, CNTPCTSS_EL0,
// CNTVCTSS_EL0, PMCEID0_EL0, PMCEID1_EL0, PMUSERENR_EL0; write-only PMSWINC_EL0. As the engine's own
// register definitions give them (Unicorn 2.1 qemu/target/arm/helper.c, `.access = PL0_R` / `PL0_W`),
// which the engine applies before the EL0 enables but whose outcome (EC 0x00) Unicorn does not report.
bool el0_direction_exists(const sysreg_encoding& e, bool is_read) {
    if (e.op0 != 3 || e.op1 != 3) return true;
    auto is = [&e](unsigned crn, unsigned crm, unsigned op2) { return e.crn == crn && e.crm == crm && e.op2 == op2; };
    if (is(9, 12, 4)) return !is_read; // PMSWINC_EL0
    const bool read_only = is(0, 0, 1) || is(0, 0, 7) || is(2, 4, 0) || is(2, 4, 1) || is(13, 0, 3) || is(14, 0, 0) ||
                           is(14, 0, 1) || is(14, 0, 2) || is(14, 0, 5) || is(14, 0, 6) || is(9, 12, 6) || is(9, 12, 7) ||
                           is(9, 14, 0);
    return is_read || !read_only;
}
bool is_write_only(const sysreg_encoding& e) { return e.op0 == 3 && e.op1 == 3 && e.crn == 9 && e.crm == 12 && e.op2 == 4; }
} // namespace

// The SYS instructions of op1 = 3 with an EL0 enable the CPU implements: DC ZVA (SCTLR_EL1.DZE), DC
// CVAU, CVAC, CIVAC, IC IVAU (UCI) in every AArch64 CPU; DC CVAP / CVADP (UCI) with
// ID_AA64ISAR1_EL1.DPB [3:0] >= 1 / 2; CFP, DVP, COSP, CPP RCTX (EnRCTX) with SPECRES [43:40] >= 1
// (Arm ARM, the SCTLR_EL1 field pages and the ID_AA64ISAR1_EL1 fields; the engine's definitions:
// Unicorn 2.1 qemu/target/arm/helper.c, `dc cvap` and `dc cvadp` only with isar_feature dcpop /
// dcpodp). Any other (MTE's DC G*, GCS) is one the CPU lacks here: UNDEFINED.
bool aarch64_iss::el0_sys_present(const sysreg_encoding& e) const {
    if (e.op0 != 1 || e.op1 != 3) return false;
    uc_arm64_cp_reg isar1{0, 6, 3, 0, 1, 0};
    uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &isar1);
    const unsigned dpb = isar1.val & 15, specres = (isar1.val >> 40) & 15;
    auto is = [&e](unsigned crn, unsigned crm, unsigned op2) { return e.crn == crn && e.crm == crm && e.op2 == op2; };
    if (is(7, 4, 1) || is(7, 11, 1) || is(7, 10, 1) || is(7, 14, 1) || is(7, 5, 1)) return true;
    if (is(7, 12, 1)) return dpb >= 1;
    if (is(7, 13, 1)) return dpb >= 2;
    if (e.crn == 7 && e.crm == 3 && e.op2 >= 4) return specres >= (e.op2 == 6 ? 2u : 1u); // COSP: FEAT_SPECRES2
    return false;
}

// A system instruction EL0 executed and the engine (at its EL0) refused. Those of op1 = 3 are the
// EL0-accessible class whose access an EL1 control enables (SCTLR_EL1.UMA for MSR DAIFSet/DAIFClr
// and MRS/MSR DAIF, UCT for CTR_EL0, DZE for DC ZVA, UCI for DC CVAU/CIVAC/IC IVAU; CNTKCTL_EL1,
// PMUSERENR_EL0 for the timer and PMU): refused, they trap to EL1 with EC 0x18 and the
// instruction's ISS (Arm ARM D24.2.47, "ISS encoding for an exception from MSR, MRS, or System
// instruction execution in AArch64 state"; the SCTLR_EL1 field pages). Every other EL1-only
// register or instruction (op1 0-2, 4-7: SCTLR_EL1, VBAR_EL1, TTBR0_EL1, TLBI, IC IALLU, ...) is
// UNDEFINED at EL0 (EC 0x00), as is one the gate owns (its rule decides, handle_sysreg).
bool aarch64_iss::el0_system_trap(uint32_t w, uint64_t at) {
    if ((w & 0xffc00000) != 0xd5000000) return false; // not a system instruction
    const unsigned op0 = (w >> 19) & 3, op1 = (w >> 16) & 7, crn = (w >> 12) & 15;
    if (op1 != 3 || op0 == 2) return false;
    const bool msr_immediate = op0 == 0 && crn == 4;
    if (op0 == 0 && !msr_immediate) return false; // hints, barriers: never refused at EL0
    const sysreg_encoding enc{uint8_t(op0), uint8_t(op1), uint8_t(crn), uint8_t((w >> 8) & 15), uint8_t((w >> 5) & 7)};
    if (op0 == 3 && handled_here(enc)) return false;
    const bool is_write = msr_immediate || !((w >> 21) & 1);
    // EC 0x18 is only for the EL0 enables' traps: an encoding the CPU lacks is UNDEFINED at every EL,
    // and so is an access in a direction the register does not have at EL0 (Arm ARM, the registers'
    // Accessibility pseudocode). The gate's registers: its rule decided (handle_sysreg).
    // (Unicorn's register read, engine_lacks' probe, asserts on a SYS instruction or a write-only
    // register: those are told by el0_sys_present and the direction table instead.)
    bool lacking = false;
    if (op0 == 1) lacking = !el0_sys_present(enc);
    else if (!msr_immediate && el0_direction_exists(enc, !is_write) && !is_write_only(enc)) lacking = engine_lacks(enc);
    if (!msr_immediate && !gate_.sysreg_owner(cpu_, enc.key()) &&
        (lacking || !el0_direction_exists(enc, !is_write))) {
        take_undefined(at);
        return true;
    }
    take_exception(route_from_el0(), false, sysreg_trap_syndrome(enc, is_write, msr_immediate ? 31 : w & 31), at,
                   std::nullopt);
    return true;
}

bool aarch64_iss::host_call(uint64_t at, bool hvc, uint32_t imm16, uint64_t executed) {
    if (!call_handler_) return false;
    cpu_call call;
    call.hvc = hvc;
    call.imm16 = uint16_t(imm16);
    call.el = el_;
    call.secure = secure_state();
    for (unsigned r = 0; r < 4; ++r) call.x[r] = read_x(r);
    if (!call_handler_(*this, call)) return false;
    if (!running()) return true; // the call powered this CPU off (CPU_OFF, SYSTEM_OFF)
    for (unsigned r = 0; r < 4; ++r) write_x(r, call.x[r]);
    set_pc(at + 4);
    retire(executed);
    return true;
}

void aarch64_iss::handle_exception(uint64_t pc, uint32_t intno) {
    // SVC, HVC and SMC the engine takes itself (EXCP_SWI 2, EXCP_HVC 11, EXCP_SMC 13) arrive with
    // the PC past the instruction, which its block count already holds; UNDEFINED (EXCP_UDEF 1)
    // arrives with the PC on the instruction, not counted.
    bool past = intno == 2 || intno == 11 || intno == 13;
    uint64_t at = past ? pc - 4 : pc;
    const uint64_t executed = past ? 0 : 1;
    uint32_t w = fetch_word(at);
    sync();
    if (intno == excp_data_abort) {
        data_abort(at, w);
        return;
    }
    if (intno == excp_prefetch_abort) {
        prefetch_abort(at);
        return;
    }
    // A misaligned PC (BR/BLR/RET/ERET to an address with bits [1:0] set; the engine raises its
    // EXCP_UDEF 1 on it): a PC Alignment fault (Arm ARM D1.4.10.1): EC 0x22, IL 1, ELR and FAR = the
    // misaligned PC; EL1 from EL0 (EL2 with HCR_EL2.TGE), else the current EL.
    if (at & 3) {
        constexpr uint64_t ec_pc_alignment = 0x22;
        take_exception(routing().same_or_el1(), false, (ec_pc_alignment << 26) | (1u << 25), at, at);
        return;
    }
    if (w == insn_hlt_semihosting) {
        semihosting_call(at);
        return;
    }
    const uint16_t imm16 = uint16_t((w >> 5) & 0xffff);
    const exception_routing r = routing();
    if ((w & mask_exception_gen) == insn_svc) {
        retire(executed);
        take_exception(r.same_or_el1(), false, exception_routing::esr_svc(imm16), at + 4, std::nullopt);
        return;
    }
    if ((w & mask_exception_gen) == insn_hvc) {
        if (el_ >= 1 && host_call(at, true, imm16, executed)) return;
        if (r.hvc_undefined()) {
            take_undefined(at);
            return;
        }
        retire(executed);
        take_exception(r.hvc_target(), false, exception_routing::esr_hvc(imm16), at + 4, std::nullopt);
        return;
    }
    if ((w & mask_exception_gen) == insn_smc) {
        // The route (exception_routing::smc); a host call may serve an SMC that is not trapped to EL2.
        const auto route = r.smc();
        if (route == exception_routing::smc_route::undefined) { take_undefined(at); return; }
        if (route == exception_routing::smc_route::trap_to_el2) { // preferred return: the SMC
            take_exception(2, false, exception_routing::esr_smc(imm16), at, std::nullopt);
            return;
        }
        if (host_call(at, false, imm16, executed)) return;
        if (route == exception_routing::smc_route::disabled) { take_undefined(at); return; }
        retire(executed);
        take_exception(3, false, exception_routing::esr_smc(imm16), at + 4, std::nullopt);
        return;
    }
    // BRK #imm16 (the engine's EXCP_BKPT 7): a Breakpoint Instruction exception, always enabled
    // (Arm ARM D2.7): EC 0x3C, IL 1, ISS = imm16, ELR = the BRK itself (D2.7.3.2), not retired;
    // taken to the current EL from EL1-EL3, from EL0 to EL1, to EL2 from EL0/EL1 with HCR_EL2.TGE or
    // MDCR_EL2.TDE where EL2 is enabled (AArch64.SoftwareBreakpoint).
    constexpr uint32_t mask_brk = 0xffe0001f, insn_brk = 0xd4200000;
    constexpr uint64_t ec_brk64 = 0x3c, mdcr_tde = uint64_t(1) << ctl::mdcr_tde;
    if ((w & mask_brk) == insn_brk) {
        unsigned target = el_ >= 2 ? el_ : 1;
        if (el_ <= 1 && r.el2_enabled() &&
            ((hcr() >> ctl::hcr_tge) & 1 || (controls_.value(cpu_, control::mdcr_el2) & mdcr_tde)))
            target = 2;
        take_exception(target, false, (ec_brk64 << 26) | (1u << 25) | imm16, at, std::nullopt);
        return;
    }
    if (el_ == 0 && el0_system_trap(w, at)) return;
    if ((w & mask_sysreg_move) == insn_sysreg_move) {
        // Unicorn raises UNDEFINED itself for encodings its CPU lacks (EL2/EL3 registers) before
        // the MRS/MSR hooks run: the same handling as the hooks' path.
        handle_sysreg(at);
        return;
    }
    // Anything else the engine could not execute is UNDEFINED for the firmware; without a
    // vector table that ends the run (take_exception), naming the instruction.
    // QEMU raises its exception 1 (EXCP_UDEF) for UNDEFINED and for other synchronous exceptions
    // whose syndrome Unicorn does not report (software step, illegal execution state; never an
    // FP/SIMD access trap: Unicorn's fp_exception_el is a stub): the note names CPACR_EL1, MDSCR_EL1
    // and PSTATE (SS [21], IL [20]) so that the log tells them apart.
    uc_arm64_cp_reg cpacr{1, 0, 3, 0, 2, 0}, mdscr{0, 2, 2, 0, 2, 0};
    uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &cpacr);
    uc_reg_read(uc_, UC_ARM64_REG_CP_REG, &mdscr);
    uint64_t pstate = 0;
    uc_reg_read(uc_, UC_ARM64_REG_PSTATE, &pstate);
    log_note(fmt::format("instruction {:#010x} at {:#x} is UNDEFINED (engine exception {}, CPACR_EL1 {:#x}, MDSCR_EL1 {:#x}, "
                         "PSTATE {:#x})", w, at, intno, cpacr.val, mdscr.val, pstate));
    const unsigned target = r.same_or_el1();
    uint64_t vbar = 0;
    if (target == 1) uc_reg_read(uc_, UC_ARM64_REG_VBAR_EL1, &vbar);
    else vbar = vbar_[target];
    if (vbar == 0)
        fail(2, fmt::format("{}: instruction {:#010x} cannot be executed (UNDEFINED) and VBAR_EL{} is 0", where(at), w, target));
    take_undefined(at);
}

} // namespace pmusim
