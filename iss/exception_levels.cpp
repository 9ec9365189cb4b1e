// The exception levels' state and mechanics (iss/exception_levels.h): entry, ERET, PSTATE and the
// stack pointers over the engine's register file.
#include "iss/exception_levels.h"

#include <algorithm>

#include "iss/a64_encoding.h"
#include "models/cpu_controls.h"

namespace pmusim {

using namespace a64;

namespace {
using reg = engine_register_file::el1_register;
// PSTATE.IL [20] (Arm ARM D1.7, SPSR_ELx.IL).
constexpr uint64_t pstate_il = uint64_t(1) << 20;
} // namespace

void exception_levels::reset(unsigned el, uint64_t sp) {
    std::fill(std::begin(sp_), std::end(sp_), 0);
    for (uint64_t* bank : {elr_, spsr_, esr_, far_, vbar_}) std::fill(bank, bank + 4, 0);
    el23_registers_.clear();
    regs_.set_el1(reg::vbar, 0);
    el_ = std::min(el, 3u);
    illegal_state_ = false;
    sp_[el_] = sp;
    load_pstate(pstate_daif | 1); // DAIF masked, SPSel = 1 (ELxh), as out of reset
    last_vector_ = ~uint64_t(0);
}

uint64_t exception_levels::pstate() const {
    const uint64_t ps = regs_.pstate();
    // The engine runs at EL1 (EL0 at its EL0): the EL is ours (M[3:2]), SPSel the engine's M[0].
    const uint64_t spsel = el_ == 0 ? 0 : (ps & 1);
    return (ps & pstate_nzcv_daif) | (uint64_t(el_) << 2) | spsel;
}

exception_routing exception_levels::routing(uint64_t scr_el3, uint64_t hcr_el2) const {
    exception_state s;
    s.el = el_;
    s.scr_el3 = scr_el3;
    s.hcr_el2 = hcr_el2;
    return exception_routing(s);
}

void exception_levels::save_stack_pointers() {
    const uint64_t ps = regs_.pstate(), sp = regs_.sp();
    if (el_ == 0) {
        sp_[0] = sp;
        return;
    }
    // The engine keeps the SP not in use in its bank: SP_EL0 with SPSel = 1, and SP_ELx of the ISS's
    // EL (in the engine's SP_EL1 slot) with SPSel = 0.
    if (ps & 1) {
        sp_[el_] = sp;
        sp_[0] = regs_.sp_el0();
    } else {
        sp_[0] = sp;
        sp_[el_] = regs_.sp_el1();
    }
}

// The engine's PSTATE for the ISS's EL: EL0 runs at the engine's EL0 (EL0t), so that the engine
// itself refuses EL1-only registers and instructions there; EL1-EL3 at its EL1 (EL1t / EL1h), whose
// SP_EL1 slot holds SP_ELx of the ISS's EL. `value`: NZCV, DAIF and SPSel; none: the engine's kept.
void exception_levels::write_pstate(uint64_t value, bool keep) {
    regs_.set_iss_el(el_);
    uint64_t ps = regs_.pstate();
    if (!keep) ps = (value & pstate_nzcv_daif) | (value & 1);
    const uint64_t spsel = el_ == 0 ? 0 : (ps & 1);
    regs_.set_pstate((ps & pstate_nzcv_daif) | (el_ == 0 ? 0 : (1u << 2) | spsel));
    const uint64_t own = sp_[el_];
    regs_.set_sp_el0(sp_[0]);
    regs_.set_sp_el1(own);
    regs_.set_sp(spsel ? own : sp_[0]);
}

void exception_levels::load_pstate(uint64_t nzcv_daif_spsel) { write_pstate(nzcv_daif_spsel, false); }

void exception_levels::reload_stack_pointers() { write_pstate(0, true); }

bool exception_levels::spsel() const { return el_ != 0 && (regs_.pstate() & 1); }

void exception_levels::set_spsel(bool spsel) {
    const uint64_t ps = regs_.pstate();
    save_stack_pointers();
    load_pstate((ps & pstate_nzcv_daif) | (spsel ? 1 : 0));
}

exception_entry exception_levels::take_exception(unsigned target, bool irq, uint64_t esr, uint64_t elr,
                                                 std::optional<uint64_t> far) {
    const uint64_t ps = regs_.pstate();
    exception_entry e;
    e.from_el = el_;
    e.to_el = target;
    e.irq = irq;
    e.esr = irq ? 0 : esr;
    e.elr = elr;
    e.far = far;
    // SPSR_ELx: PSTATE as it was, IL included (AArch64.TakeException: GetPSRFromPSTATE).
    e.spsr = exception_routing::spsr_on_entry(ps, el_) | (illegal_state_ ? pstate_il : 0);
    e.offset = exception_routing::vector_offset(el_, ps & 1, target,
                                                irq ? exception_routing::kind::irq : exception_routing::kind::synchronous);
    save_stack_pointers();
    el_ = target;
    illegal_state_ = false;
    if (target == 1) {
        regs_.set_el1(reg::elr, elr);
        regs_.set_el1(reg::spsr, e.spsr);
        if (!irq) regs_.set_el1(reg::esr, esr);
        if (far) regs_.set_el1(reg::far, *far);
        e.vbar = regs_.el1(reg::vbar);
    } else {
        elr_[target] = elr;
        spsr_[target] = e.spsr;
        if (!irq) esr_[target] = esr;
        if (far) far_[target] = *far;
        e.vbar = vbar_[target];
    }
    // PSTATE.{D,A,I,F} = 1, SPSel = 1; NZCV unchanged (AArch64.TakeException).
    load_pstate((ps & 0xf0000000) | pstate_daif | 1);
    e.vector = e.vbar + e.offset;
    regs_.set_pc(e.vector);
    return e;
}

exception_entry exception_levels::take_illegal_state_exception() {
    // AArch64.IllegalState: EC 0x0E, preferred return = this instruction; taken to the current EL,
    // or EL1 from EL0 (EL2 with HCR_EL2.TGE where EL2 is enabled).
    return take_exception(routing().same_or_el1(), false, exception_routing::esr_illegal_state(), regs_.pc(), std::nullopt);
}

exception_return_result exception_levels::exception_return() {
    exception_return_result r;
    r.from_el = el_;
    if (el_ == 0) { // ERET is UNDEFINED at EL0 (C6.2 ERET)
        r.what = exception_return_result::outcome::undefined;
        return r;
    }
    if (el_ == 1) {
        r.elr = regs_.el1(reg::elr);
        r.spsr = regs_.el1(reg::spsr);
    } else {
        r.elr = elr_[el_];
        r.spsr = spsr_[el_];
    }
    const uint64_t spsr = r.spsr, scr = regs_.scr_el3(), hcr = regs_.hcr_el2();
    const unsigned target = (spsr >> 2) & 3;
    r.target_el = target;
    // IllegalExceptionReturn (Arm ARM, "Illegal return events from AArch64 state"; ELFromSPSR):
    // - SPSR.M[4] = 1, AArch32: this CPU has no AArch32 at any EL (ID_AA64PFR0_EL1.EL0-EL3 = 0b0001,
    //   models/cpu_controls.cpp), so ELFromSPSR finds the mode invalid (HaveAArch32() is false);
    // - M[1] = 1 (reserved), or M[3:0] = 0b0001 (EL0 with SP_ELx);
    // - a return to a higher EL;
    // - to EL2 where EL2 is disabled (Secure state without SCR_EL3.EEL2);
    // - to EL1 where EL2 is enabled and HCR_EL2.TGE = 1.
    // EL2 is enabled in the Security state after the return: SCR_EL3.NS's from EL3, the current one below.
    const bool secure_after = el_ == 3 ? !(scr & 1) : routing(scr, hcr).secure();
    const bool el2_enabled = cpu_controls::el2_enabled_by(scr, secure_after);
    const bool illegal = ((spsr >> 4) & 1) || (spsr & 2) || (spsr & 0xf) == 1 || target > el_ ||
                         (target == 2 && !el2_enabled) || (target == 1 && el2_enabled && ((hcr >> ctl::hcr_tge) & 1));
    if (illegal) {
        // PC = ELR; EL and SPSel unchanged; NZCV and DAIF from the SPSR; PSTATE.IL = 1
        // (SetPSTATEFromPSR with illegal_psr_state): the instruction at ELR takes an Illegal
        // Execution state exception.
        const uint64_t ps = regs_.pstate();
        save_stack_pointers();
        load_pstate((spsr & pstate_nzcv_daif) | (ps & 1));
        regs_.set_pc(r.elr);
        illegal_state_ = true;
        r.what = exception_return_result::outcome::illegal;
        return r;
    }
    // SCR_EL3.RW = 0 makes the ELs below EL3 AArch32 (Arm ARM D1.4 "Execution state"), which pmusim
    // does not model. HCR_EL2.RW is not checked: pmusim resets HCR_EL2 to 0, and firmware that
    // leaves EL2 unused need not set it.
    if (target > 0 && target < 3 && el_ == 3 && !((scr >> ctl::scr_rw) & 1)) {
        r.what = exception_return_result::outcome::not_modelled;
        return r;
    }
    save_stack_pointers();
    el_ = target;
    load_pstate(spsr & (pstate_nzcv_daif | 1));
    regs_.set_pc(r.elr);
    // A legal return restores PSTATE.IL from SPSR.IL ("Legal returns that set PSTATE.IL to 1"): at
    // the target EL, the instruction at ELR takes an Illegal Execution state exception.
    illegal_state_ = (spsr & pstate_il) != 0;
    return r;
}

const uint64_t* exception_levels::bank_slot(uint32_t k) const {
    const unsigned op1 = (k >> 11) & 7;
    if (op1 != 4 && op1 != 6) return nullptr; // op1 = 5 (the EL12/EL02 aliases of VHE): stored
    const unsigned bank = op1 == 6 ? 3 : 2;
    if (k == el_bank_key(op1, 4, 0, 0)) return &spsr_[bank];
    if (k == el_bank_key(op1, 4, 0, 1)) return &elr_[bank];
    if (k == el_bank_key(op1, 5, 2, 0)) return &esr_[bank];
    if (k == el_bank_key(op1, 6, 0, 0)) return &far_[bank];
    if (k == el_bank_key(op1, 12, 0, 0)) return &vbar_[bank];
    return nullptr;
}

uint64_t exception_levels::read_register(uint32_t k) {
    if (k == key_sp_el1 || k == key_sp_el2) {
        save_stack_pointers();
        return sp_[k == key_sp_el1 ? 1 : 2];
    }
    if (uint64_t* slot = bank_slot(k)) return *slot;
    return el23_registers_[k];
}

uint64_t exception_levels::stored_register(uint32_t k) const {
    if (const uint64_t* slot = bank_slot(k)) return *slot;
    const auto it = el23_registers_.find(k);
    return it == el23_registers_.end() ? 0 : it->second;
}

void exception_levels::write_register(uint32_t k, uint64_t value) {
    if (k == key_sp_el1 || k == key_sp_el2) {
        save_stack_pointers();
        sp_[k == key_sp_el1 ? 1 : 2] = value;
        reload_stack_pointers();
        return;
    }
    if (uint64_t* slot = bank_slot(k)) *slot = value;
    else el23_registers_[k] = value;
}

uint64_t exception_levels::vbar(unsigned el) const { return el == 1 ? regs_.el1(reg::vbar) : vbar_[el & 3]; }

std::optional<bool> exception_levels::security_change() {
    const bool s = routing().secure();
    if (s == reported_secure_) return std::nullopt;
    reported_secure_ = s;
    return s;
}

bool exception_levels::loops(const exception_entry& e, uint64_t retired) {
    const bool loop = !e.irq && e.elr == last_vector_ && retired == retired_at_vector_;
    last_vector_ = e.vector;
    retired_at_vector_ = retired;
    return loop;
}

} // namespace pmusim
