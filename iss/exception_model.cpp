// The exception model the engine does not have, the CPU's side: which exception an instruction or
// an interrupt raises (SVC/HVC/SMC, BRK, WFI/WFE traps, EL0's system-instruction traps, UNDEFINED),
// with the decisions of exception_routing and the entry and ERET of exception_levels (the EL2/EL3
// state, over the engine's registers: engine_register_port); around them the ISS's own work: time,
// the core's Security state, trace, log (docs/firmware.md "Exceptions the ISS delivers"). Members of aarch64_iss.
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

// The decisions (iss/exception_routing.h) over the state as it is now (SCR_EL3 and HCR_EL2 read
// here, not through the register port: context() asks on every gate access); SCTLR_EL1 is read from
// the engine only where it matters (EL0's WFI/WFE).
exception_routing aarch64_iss::routing() const { return levels_.routing(scr(), hcr()); }

bool aarch64_iss::secure_state() const { return routing().secure(); }

bool aarch64_iss::guest() const { return routing().guest(); }

unsigned aarch64_iss::route_from_el0() const { return routing().route_from_el0(); }

void aarch64_iss::take_undefined(uint64_t pc) {
    take_exception(routing().same_or_el1(), false, exception_routing::esr_undefined(), pc, std::nullopt);
}

// The engine's registers as exception_levels reads and writes them. The engine always runs at its
// EL1 (EL0 at its EL0): its SP_EL1 slot holds SP_ELx of the ISS's EL.
uint64_t aarch64_iss::engine_register_port::pc() const { return cpu_.engine_pc(); }
void aarch64_iss::engine_register_port::set_pc(uint64_t pc) { cpu_.set_pc(pc); }
uint64_t aarch64_iss::engine_register_port::pstate() const {
    uint64_t ps = 0;
    uc_reg_read(cpu_.uc_, UC_ARM64_REG_PSTATE, &ps);
    return ps;
}
void aarch64_iss::engine_register_port::set_pstate(uint64_t ps) {
    uc_reg_write(cpu_.uc_, UC_ARM64_REG_PSTATE, &ps);
    // Writing PSTATE does not recompute the engine's cached translation flags (its EL among them,
    // QEMU's hflags); writing a system register does (arm_rebuild_hflags in Unicorn 2.1.1's
    // reg_write for UC_ARM64_REG_CP_REG). TPIDR_EL1 written with its own value changes nothing else.
    uc_arm64_cp_reg tpidr{13, 0, 3, 0, 4, 0};
    uc_reg_read(cpu_.uc_, UC_ARM64_REG_CP_REG, &tpidr);
    uc_reg_write(cpu_.uc_, UC_ARM64_REG_CP_REG, &tpidr);
}
void aarch64_iss::engine_register_port::set_iss_el(unsigned) { cpu_.follow_el_translation(); } // EL2/EL3 untranslated
namespace {
uint64_t read_reg(uc_engine* uc, int id) {
    uint64_t v = 0;
    uc_reg_read(uc, id, &v);
    return v;
}
void write_reg(uc_engine* uc, int id, uint64_t v) { uc_reg_write(uc, id, &v); }
} // namespace
uint64_t aarch64_iss::engine_register_port::sp() const { return read_reg(cpu_.uc_, UC_ARM64_REG_SP); }
void aarch64_iss::engine_register_port::set_sp(uint64_t sp) { write_reg(cpu_.uc_, UC_ARM64_REG_SP, sp); }
uint64_t aarch64_iss::engine_register_port::sp_el0() const { return read_reg(cpu_.uc_, UC_ARM64_REG_SP_EL0); }
void aarch64_iss::engine_register_port::set_sp_el0(uint64_t sp) { write_reg(cpu_.uc_, UC_ARM64_REG_SP_EL0, sp); }
uint64_t aarch64_iss::engine_register_port::sp_el1() const { return read_reg(cpu_.uc_, UC_ARM64_REG_SP_EL1); }
void aarch64_iss::engine_register_port::set_sp_el1(uint64_t sp) { write_reg(cpu_.uc_, UC_ARM64_REG_SP_EL1, sp); }
namespace {
int el1_register_id(engine_register_file::el1_register r) {
    switch (r) {
    case engine_register_file::el1_register::elr: return UC_ARM64_REG_ELR_EL1;
    case engine_register_file::el1_register::esr: return UC_ARM64_REG_ESR_EL1;
    case engine_register_file::el1_register::far: return UC_ARM64_REG_FAR_EL1;
    case engine_register_file::el1_register::vbar: return UC_ARM64_REG_VBAR_EL1;
    case engine_register_file::el1_register::spsr: break; // no register id: read_spsr_el1
    }
    return UC_ARM64_REG_INVALID;
}
} // namespace
uint64_t aarch64_iss::engine_register_port::el1(el1_register r) const {
    if (r == el1_register::spsr) return read_spsr_el1(cpu_.uc_);
    return read_reg(cpu_.uc_, el1_register_id(r));
}
void aarch64_iss::engine_register_port::set_el1(el1_register r, uint64_t value) {
    if (r == el1_register::spsr) write_spsr_el1(cpu_.uc_, value);
    else write_reg(cpu_.uc_, el1_register_id(r), value);
}
uint64_t aarch64_iss::engine_register_port::scr_el3() const { return cpu_.scr(); }
uint64_t aarch64_iss::engine_register_port::hcr_el2() const { return cpu_.hcr(); }

void aarch64_iss::update_security() {
    if (const auto s = levels_.security_change()) core_.set_secure(*s, std::max(t_pos_, now_fs()));
}

void aarch64_iss::take_exception(unsigned target, bool irq, uint64_t esr, uint64_t elr, std::optional<uint64_t> far) {
    exception_entered(levels_.take_exception(target, irq, esr, elr, far));
}

// After the entry (the PC is at the vector): what the exception changes outside the CPU's registers,
// and the checks that end a run.
void aarch64_iss::exception_entered(const exception_entry& e) {
    update_security();
    const uint64_t esr = e.irq ? 0 : e.esr;
    if (trace_) trace_->exception(*this, std::max(t_pos_, now_fs()), e.from_el, e.to_el, e.irq, esr, e.elr, e.far, e.vector);
    log_.line(fmt::format("[{}] cpu{}: {} EL{} -> EL{} at {:#x} (ESR {:#x}, ELR {:#x})", format_time(now_fs()), cpu_,
                          e.irq ? "IRQ" : "exception", e.from_el, e.to_el, e.vector, esr, e.elr));
    // A synchronous exception at the vector it leads to, with nothing retired since that vector
    // was entered (no handler there: zeros are UNDEFINED), would loop forever at one instant.
    if (levels_.loops(e, retired_))
        fail(2, fmt::format("{}: exception loop: the exception taken at the vector {:#x} (ESR {:#x}) leads to that vector "
                            "again without an instruction retiring (no handler at VBAR_EL{} + {:#x})",
                            where(e.elr), e.vector, e.esr, e.to_el, e.offset));
    // The vector is a virtual address at EL1 with the MMU on (stage1_translate reads the new EL's regime).
    bool translated = false;
    const auto vector_pa = stage1_translate(e.vector, translated);
    if (!vector_pa || !in_plain_memory(*vector_pa))
        fail(2, fmt::format("{}: exception to EL{} (ESR {:#x}) but VBAR_EL{} = {:#x} holds no vector table in memory",
                            where(e.elr), e.to_el, esr, e.to_el, e.vbar));
}

void aarch64_iss::exception_return(uint64_t pc) {
    using outcome = exception_return_result::outcome;
    const exception_return_result r = levels_.exception_return();
    switch (r.what) {
    case outcome::undefined: take_undefined(pc); return;
    case outcome::not_modelled:
        fail(2, fmt::format("{}: ERET to EL{} with SCR_EL3.RW = 0 (AArch32 below EL3): not modelled", where(pc), r.target_el));
    case outcome::illegal:
        retire(1);
        log_note(fmt::format("{}: illegal exception return from EL{} (SPSR_EL{} {:#x}): PSTATE.IL set, EL unchanged",
                             where(pc), r.from_el, r.from_el, r.spsr));
        break;
    case outcome::returned:
        update_security();
        retire(1);
        if (levels_.illegal_state())
            log_note(fmt::format("{}: exception return to EL{} with SPSR_EL{}.IL = 1 (SPSR {:#x}): PSTATE.IL set", where(pc),
                                 r.target_el, r.from_el, r.spsr));
        break;
    }
    // PSTATE.IL = 1: the instruction at ELR takes an Illegal Execution state exception (Arm ARM
    // D1.4.5: EC 0x0E, ELR = that instruction, SPSR.IL = 1) before it executes; the engine does
    // not hold PSTATE.IL, so it is taken here.
    if (levels_.illegal_state()) exception_entered(levels_.take_illegal_state_exception());
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
        event_register_ = true; // an exception return sets the Event Register
        return;
    }
    if (w == insn_sev || w == insn_sevl) {
        send_event(w == insn_sevl);
        set_pc(pc + 4);
        retire(1);
        return;
    }
    if (w == insn_wfe && event_register_) { // the event is consumed: no wait, so no trap either
        event_register_ = false;
        set_pc(pc + 4);
        retire(1);
        return;
    }
    if (w == insn_wfi || w == insn_wfe) {
        if (unsigned target = wait_trap_target(w == insn_wfe)) {
            // EC 0x01 "Trapped WFI or WFE" (exception_routing::esr_wfx). Preferred return: the WFx.
            take_exception(target, false, exception_routing::esr_wfx(w == insn_wfe), pc, std::nullopt);
            return;
        }
        if (w == insn_wfe) { // no event is due, but nothing else sends one: WFE completes at once
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

// SEVL sets this CPU's Event Register; SEV sends the event to every CPU of the platform (the
// gate's), this one included (Arm ARM C6.2 SEV, SEVL).
void aarch64_iss::send_event(bool local) {
    if (local) {
        event_register_ = true;
        return;
    }
    for (aarch64_iss* cpu : on_gate(gate_)) cpu->event_register_ = true;
}

// The EL a WFI/WFE traps to, or 0 (exception_routing::wfx_trap_target). A WFI that would not wait
// (an interrupt is pending, the wake-up condition) completes instead: the traps apply only when
// the instruction would wait.
unsigned aarch64_iss::wait_trap_target(bool wfe) const {
    if (!wfe && irq_pending()) return 0;
    exception_state s = routing().state();
    if (el() == 0) {
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
    if (route == el() || route == 1) {
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
    call.el = el();
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
        if (el() >= 1 && host_call(at, true, imm16, executed)) return;
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
        unsigned target = el() >= 2 ? el() : 1;
        if (el() <= 1 && r.el2_enabled() &&
            ((hcr() >> ctl::hcr_tge) & 1 || (controls_.value(cpu_, control::mdcr_el2) & mdcr_tde)))
            target = 2;
        take_exception(target, false, (ec_brk64 << 26) | (1u << 25) | imm16, at, std::nullopt);
        return;
    }
    if (el() == 0 && el0_system_trap(w, at)) return;
    if ((w & mask_sysreg_move) == insn_sysreg_move) {
        // Unicorn raises UNDEFINED itself for encodings its CPU lacks (EL2/EL3 registers) before
        // the MRS/MSR hooks run: the same handling as the hooks' path.
        handle_sysreg(at);
        return;
    }
    // SYS/SYSL in the IMPLEMENTATION DEFINED space (op0 = 1, CRn = 11 or 15) at EL1: HCR_EL2.TIDCP
    // traps it to EL2 before it is UNDEFINED (iss/el1_register_traps.cpp, as for MRS/MSR there).
    constexpr uint32_t mask_sys = 0xffd80000, insn_sys = 0xd5080000; // SYS (L 0) and SYSL (L 1)
    if ((w & mask_sys) == insn_sys && el() == 1) {
        const sysreg_encoding enc{1, uint8_t((w >> 16) & 7), uint8_t((w >> 12) & 15), uint8_t((w >> 8) & 15),
                                  uint8_t((w >> 5) & 7)};
        const bool is_read = (w >> 21) & 1;
        if (el1_register_trapped(enc, is_read)) {
            take_exception(2, false, sysreg_trap_syndrome(enc, !is_read, w & 31), at, std::nullopt);
            return;
        }
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
    if (levels_.vbar(target) == 0)
        fail(2, fmt::format("{}: instruction {:#010x} cannot be executed (UNDEFINED) and VBAR_EL{} is 0", where(at), w, target));
    take_undefined(at);
}

} // namespace pmusim
