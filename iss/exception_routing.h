#pragma once
// The exception model's decisions, apart from its mechanics: pure functions of the architectural
// state (current EL, security state, SCR_EL3, HCR_EL2, PSTATE, SCTLR_EL1) that say where an
// exception goes, at which vector, with which SPSR and ESR. aarch64_iss (iss/exception_model.cpp)
// reads the state, asks this class, and does the writing (registers, the engine, time).
// Sources: Arm ARM DDI0487 D1.10 (exception entry, vectors), D1.3 (routing), the ESR_ELx ISS
// encodings (D24.2.47), and the SCR_EL3/HCR_EL2/SCTLR_EL1 field pages; each function cites its own.
#include <cstdint>

#include "models/access_context.h"

namespace pmusim {

// What the routing reads (never the engine: the caller gathers it).
struct exception_state {
    unsigned el = 3;        // the current EL, 0..3
    uint64_t scr_el3 = 0;   // SCR_EL3 as the control registers hold it
    uint64_t hcr_el2 = 0;   // HCR_EL2
    uint64_t pstate = 0;    // NZCV [31:28], DAIF [9:6], SPSel [0] (the rest ignored)
    uint64_t sctlr_el1 = 0; // SCTLR_EL1 (nTWI [16], nTWE [18]); read only for EL0's WFI/WFE
};

class exception_routing {
public:
    explicit exception_routing(const exception_state& s) : s_(s) {}

    // Secure state: EL3, or SCR_EL3.NS = 0 (Arm ARM D1.1 "Security state").
    bool secure() const;
    // EL2 is enabled in the current security state: Non-secure, or Secure with SCR_EL3.EEL2.
    bool el2_enabled() const;
    // EL0/EL1 under a hypervisor: EL2 enabled, stage 2 on (HCR_EL2.VM) and not the host (TGE).
    bool guest() const;

    // Synchronous exceptions EL0 takes go to EL1, or to EL2 when HCR_EL2.TGE is 1 and EL2 is
    // enabled (Arm ARM D1.3.4 "Routing exceptions ... when HCR_EL2.TGE is 1").
    unsigned route_from_el0() const;
    // An UNDEFINED instruction, an SVC, an exception taken to "the current EL or EL1 at least":
    // the current EL, or route_from_el0() at EL0.
    unsigned same_or_el1() const { return s_.el == 0 ? route_from_el0() : s_.el; }

    // HVC (Arm ARM C6.2 "HVC"): UNDEFINED at EL0, with SCR_EL3.HCE = 0, or below EL3 where EL2 is
    // disabled; otherwise taken to EL2, or to EL3 from EL3.
    bool hvc_undefined() const;
    unsigned hvc_target() const { return s_.el > 2 ? s_.el : 2; }

    // SMC (Arm ARM C6.2 "SMC", HCR_EL2.TSC, SCR_EL3.SMD): in the order the checks apply.
    enum class smc_route {
        undefined,      // at EL0: UNDEFINED
        trap_to_el2,    // EL1 with HCR_EL2.TSC where EL2 is enabled: trapped to EL2 (preferred return: the SMC)
        disabled,       // SCR_EL3.SMD = 1 (EL1-EL3): UNDEFINED (after a host call may have served it)
        to_el3,         // the SMC exception to EL3 (preferred return: past the SMC)
    };
    smc_route smc() const;

    // WFI/WFE traps (Arm ARM D1.6 "Wait for Interrupt/Event" and the trap controls' field pages):
    // SCTLR_EL1.nTWI/nTWE = 0 traps EL0's to EL1 (to EL2 under TGE); HCR_EL2.TWI/TWE traps EL0's
    // and EL1's to EL2 where EL2 is enabled; SCR_EL3.TWI/TWE traps EL0-EL2's to EL3; in that
    // priority. Returns the target EL, or 0 when it does not trap. The caller applies the rule
    // that a WFI which would not wait (an interrupt pending) completes instead.
    unsigned wfx_trap_target(bool wfe) const;

    // Physical IRQ routing (Arm ARM D1.3.6): SCR_EL3.IRQ to EL3; else HCR_EL2.IMO or TGE to EL2
    // from EL0-EL2 where EL2 is enabled; else EL1.
    unsigned irq_route() const;
    // The EL a pending IRQ is taken to now, or 0: routed below the current EL it is not taken;
    // PSTATE.I (`masked`) masks one routed to the current EL or to EL1, never one routed to EL2/EL3
    // from a lower EL.
    unsigned irq_target(bool masked) const;

    // Exception entry (Arm ARM D1.10.2 "Exception vectors", AArch64.TakeException):
    enum class kind { synchronous = 0, irq = 1, fiq = 2, serror = 3 };
    // The offset from VBAR_ELx of the vector an exception from `from_el` (stack pointer SPSel)
    // to `target_el` uses; `lower_aarch32`: the lower EL is AArch32.
    static uint64_t vector_offset(unsigned from_el, bool spsel, unsigned target_el, kind k, bool lower_aarch32 = false);
    // SPSR_ELx written on entry from `pstate` at `from_el`: NZCV, DAIF, M[4] = 0 (AArch64),
    // M[3:0] = EL << 2 | SPSel (SPSel is 0 at EL0: EL0t).
    static uint64_t spsr_on_entry(uint64_t pstate, unsigned from_el);

    // ESR_ELx of the synchronous exceptions the ISS raises itself (Arm ARM D24.2.47 ESR_ELx).
    static uint64_t esr_undefined();                              // EC 0x00, IL 1
    static uint64_t esr_svc(uint16_t imm16);                      // EC 0x15, ISS imm16
    static uint64_t esr_hvc(uint16_t imm16);                      // EC 0x16
    static uint64_t esr_smc(uint16_t imm16);                      // EC 0x17
    static uint64_t esr_wfx(bool wfe);                            // EC 0x01, CV 1, COND 0b1110, TI
    static uint64_t esr_illegal_state();                          // EC 0x0E, IL 1
    static uint64_t esr_sysreg(const sysreg_encoding& enc, bool is_write, unsigned rt); // EC 0x18

    // The HCR_EL2 bits of `hcr_el2` that the units' access rules read but the exception model
    // ignores: E2H [34], the EL2 host (FEAT_VHE: the EL2&0 translation regime, EL1 register names
    // redirected to EL2's at EL2, EL0 in the host under TGE, the IRQ masking of the HCR_EL2.IMO page
    // with E2H = 1). The ISS runs EL2 as with E2H = 0; a write that sets one is reported once.
    static uint64_t hcr_bits_ignored(uint64_t hcr_el2);

    const exception_state& state() const { return s_; }

private:
    exception_state s_;
};

} // namespace pmusim
