// The exception model's decisions (iss/exception_routing.h): where, which vector, which SPSR/ESR.
#include "iss/exception_routing.h"

#include "models/cpu_controls.h"

namespace pmusim {

namespace {
constexpr bool bit(uint64_t v, unsigned n) { return (v >> n) & 1; }
// ESR_ELx exception classes (Arm ARM D24.2.47, EC field).
constexpr uint32_t ec_wfx = 0x01, ec_illegal_state = 0x0e, ec_svc64 = 0x15, ec_hvc64 = 0x16, ec_smc64 = 0x17;
// PSTATE bits kept in SPSR_ELx on entry (D1.7): NZCV [31:28], D A I F [9:6].
constexpr uint64_t nzcv_daif = 0xf00003c0;
constexpr uint64_t pstate_spsel = 1;
} // namespace

bool exception_routing::secure() const { return s_.el == 3 || !bit(s_.scr_el3, ctl::scr_ns); }

bool exception_routing::el2_enabled() const { return cpu_controls::el2_enabled_by(s_.scr_el3, secure()); }

bool exception_routing::guest() const {
    return s_.el <= 1 && el2_enabled() && bit(s_.hcr_el2, ctl::hcr_vm) && !bit(s_.hcr_el2, ctl::hcr_tge);
}

unsigned exception_routing::route_from_el0() const { return bit(s_.hcr_el2, ctl::hcr_tge) && el2_enabled() ? 2 : 1; }

bool exception_routing::hvc_undefined() const {
    return s_.el == 0 || !bit(s_.scr_el3, ctl::scr_hce) || (s_.el < 3 && !el2_enabled());
}

exception_routing::smc_route exception_routing::smc() const {
    if (s_.el == 0) return smc_route::undefined;
    // HCR_EL2.TSC's trap has priority over SCR_EL3.SMD (the HCR_EL2.TSC field page: the trap
    // applies "regardless of the value of SCR_EL3.SMD").
    if (s_.el == 1 && bit(s_.hcr_el2, ctl::hcr_tsc) && el2_enabled()) return smc_route::trap_to_el2;
    // SCR_EL3.SMD disables SMC at EL1 and above, EL3 included (Arm ARM J1.1.2.44
    // AArch64.CheckForSMCUndefOrTrap: no EL condition; D24.2.169 SCR_EL3.SMD).
    if (bit(s_.scr_el3, ctl::scr_smd)) return smc_route::disabled;
    return smc_route::to_el3;
}

unsigned exception_routing::wfx_trap_target(bool wfe) const {
    if (s_.el == 0 && !bit(s_.sctlr_el1, wfe ? 18 : 16)) return route_from_el0(); // SCTLR_EL1.nTWE [18] / nTWI [16]
    if (s_.el <= 1 && el2_enabled() && bit(s_.hcr_el2, wfe ? ctl::hcr_twe : ctl::hcr_twi)) return 2;
    if (s_.el <= 2 && bit(s_.scr_el3, wfe ? ctl::scr_twe : ctl::scr_twi)) return 3;
    return 0;
}

unsigned exception_routing::irq_route() const {
    if (bit(s_.scr_el3, ctl::scr_irq)) return 3;
    // IMO or TGE route to EL2 "when executing at any Exception level" (HCR_EL2.IMO page): at EL2
    // too, where PSTATE.I then masks it; at EL3 an IRQ routed to EL2 is not taken.
    if (s_.el <= 2 && el2_enabled() && (bit(s_.hcr_el2, ctl::hcr_imo) || bit(s_.hcr_el2, ctl::hcr_tge))) return 2;
    return 1;
}

unsigned exception_routing::irq_target(bool masked) const {
    const unsigned target = irq_route();
    if (target < s_.el) return 0;
    // PSTATE.I masks an IRQ taken to the current EL and one taken to EL1 (from EL0); one taken
    // to EL2 or EL3 from a lower EL is not maskable there (HCR_EL2.E2H is not modelled).
    if (masked && (target == s_.el || target == 1)) return 0;
    return target;
}

uint64_t exception_routing::vector_offset(unsigned from_el, bool spsel, unsigned target_el, kind k, bool lower_aarch32) {
    // D1.10.2: Current EL with SP0 0x000, with SPx 0x200; lower EL AArch64 0x400, AArch32 0x600;
    // within each, Synchronous +0x000, IRQ +0x080, FIQ +0x100, SError +0x180.
    uint64_t base = target_el > from_el ? (lower_aarch32 ? 0x600 : 0x400) : (from_el != 0 && spsel) ? 0x200 : 0x000;
    return base + 0x80 * uint64_t(k);
}

uint64_t exception_routing::spsr_on_entry(uint64_t pstate, unsigned from_el) {
    const uint64_t spsel = from_el == 0 ? 0 : (pstate & pstate_spsel);
    return (pstate & nzcv_daif) | (uint64_t(from_el) << 2) | spsel;
}

uint64_t exception_routing::esr_undefined() { return esr::syndrome(esr::ec_unknown); }
// Illegal Execution state (AArch64.IllegalState): EC 0x0E, ISS 0.
uint64_t exception_routing::esr_illegal_state() { return esr::syndrome(ec_illegal_state); }
uint64_t exception_routing::esr_svc(uint16_t imm16) { return esr::syndrome(ec_svc64, imm16); }
uint64_t exception_routing::esr_hvc(uint16_t imm16) { return esr::syndrome(ec_hvc64, imm16); }
uint64_t exception_routing::esr_smc(uint16_t imm16) { return esr::syndrome(ec_smc64, imm16); }

uint64_t exception_routing::esr_wfx(bool wfe) {
    // ISS for EC 0x01: CV [24] = 1, COND [23:20] = 0b1110 (from AArch64), TI [1:0] = 0 WFI, 1 WFE.
    return esr::syndrome(ec_wfx, (uint64_t(1) << 24) | (uint64_t(0xe) << 20) | (wfe ? 1 : 0));
}

uint64_t exception_routing::hcr_bits_ignored(uint64_t hcr_el2) { return hcr_el2 & (uint64_t(1) << ctl::hcr_e2h); }

uint64_t exception_routing::esr_sysreg(const sysreg_encoding& enc, bool is_write, unsigned rt) {
    return sysreg_trap_syndrome(enc, is_write, rt);
}

} // namespace pmusim
