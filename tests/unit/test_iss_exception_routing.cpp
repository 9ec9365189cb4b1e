// The ISS's exception-model decisions (iss/exception_routing.h), tested alone. Every expected
// value is written here from the architecture, never from the class's own helpers or the esr::
// constants:
//   [ARM]   Arm Architecture Reference Manual for A-profile, DDI 0487 (J.a): D1.10 "Exception
//           entry" / D1.10.2 "Exception vectors", AArch64.TakeException; D1.3 "Exception
//           routing" (physical IRQ routing, asynchronous exception masking); the pseudo-code of
//           WFI/WFE (AArch64.CheckForWFxTrap, AArch64.WFxTrap); C6.2 "HVC", "SMC"; the field
//           pages of SCR_EL3, HCR_EL2, SCTLR_EL1, SPSR_ELx; ESR_ELx and its ISS encodings.
//   [LNX]   Linux 6.1 arch/arm64/include/asm/esr.h (ESR_ELx_EC_*, ESR_ELx_IL, ESR_ELx_CV,
//           ESR_ELx_COND_SHIFT, ESR_ELx_WFx_ISS_WFE, ESR_ELx_SYS64_ISS_*), ptrace.h (PSR_MODE_*,
//           PSR_*_BIT), kvm_arm.h (HCR_*), and arch/arm64/kernel/entry.S's vector table layout.
// The bit positions of the controls are written out as literals below, with their field names.
#include <catch2/catch.hpp>

#include "iss/exception_routing.h"

using namespace pmusim;
using smc = exception_routing::smc_route;
using kind = exception_routing::kind;

namespace {
// SCR_EL3 fields ([ARM] SCR_EL3 page; TF-A include/arch/aarch64/arch.h SCR_*_BIT).
constexpr uint64_t SCR_NS = 1u << 0, SCR_IRQ = 1u << 1, SCR_SMD = 1u << 7, SCR_HCE = 1u << 8, SCR_RW = 1u << 10,
                   SCR_TWI = 1u << 12, SCR_TWE = 1u << 13, SCR_EEL2 = 1u << 18;
// HCR_EL2 fields ([ARM] HCR_EL2 page; [LNX] kvm_arm.h HCR_VM, HCR_IMO, HCR_TWI, HCR_TWE, HCR_TSC, HCR_TGE).
constexpr uint64_t HCR_VM = 1u << 0, HCR_IMO = 1u << 4, HCR_TWI = 1u << 13, HCR_TWE = 1u << 14, HCR_TSC = 1u << 19,
                   HCR_TGE = 1u << 27;
// SCTLR_EL1.nTWI [16], nTWE [18] ([ARM] SCTLR_EL1 page; [LNX] sysreg.h SCTLR_EL1_NTWI/NTWE).
constexpr uint64_t SCTLR_nTWI = 1u << 16, SCTLR_nTWE = 1u << 18;
// PSTATE/SPSR ([LNX] ptrace.h: PSR_N_BIT 0x80000000, PSR_C_BIT 0x20000000, PSR_D_BIT 0x200,
// PSR_A_BIT 0x100, PSR_I_BIT 0x80, PSR_F_BIT 0x40; PSR_MODE_EL0t 0, EL1t 4, EL1h 5, EL2t 8,
// EL2h 9, EL3t 0xc, EL3h 0xd).
constexpr uint64_t N = 0x80000000, C = 0x20000000, D = 0x200, A = 0x100, I = 0x80, F = 0x40;

// Non-secure state with EL2 and EL3 present and AArch64 below EL3.
exception_routing at(unsigned el, uint64_t scr = SCR_NS | SCR_RW | SCR_HCE, uint64_t hcr = 0, uint64_t sctlr = SCTLR_nTWI | SCTLR_nTWE) {
    exception_state s;
    s.el = el;
    s.scr_el3 = scr;
    s.hcr_el2 = hcr;
    s.sctlr_el1 = sctlr;
    return exception_routing(s);
}
constexpr uint64_t secure_scr = SCR_RW; // NS = 0, EEL2 = 0: EL2 is disabled in Secure state
} // namespace

TEST_CASE("iss exception routing: security state and EL2 enablement follow SCR_EL3.NS and EEL2", "[iss]") {
    // [ARM] D1.1 "Security state": EL3 is Secure; below it SCR_EL3.NS selects. EL2Enabled():
    // Non-secure, or Secure with SCR_EL3.EEL2 = 1.
    CHECK(at(3).secure());
    CHECK_FALSE(at(1).secure());
    CHECK(at(1, secure_scr).secure());
    CHECK(at(1).el2_enabled());
    CHECK_FALSE(at(1, secure_scr).el2_enabled());
    CHECK(at(1, secure_scr | SCR_EEL2).el2_enabled());
    // A guest: EL0/EL1, EL2 enabled, HCR_EL2.VM = 1, TGE = 0.
    CHECK(at(1, SCR_NS, HCR_VM).guest());
    CHECK(at(0, SCR_NS, HCR_VM).guest());
    CHECK_FALSE(at(1, SCR_NS, HCR_VM | HCR_TGE).guest());
    CHECK_FALSE(at(1, secure_scr, HCR_VM).guest());
    CHECK_FALSE(at(2, SCR_NS, HCR_VM).guest());
}

TEST_CASE("iss exception routing: SVC and UNDEFINED go to the current EL or from EL0 to EL1 or to EL2 under TGE", "[iss]") {
    // [ARM] D1.3 "Exception routing": synchronous exceptions from EL0 go to EL1, or to EL2 when
    // HCR_EL2.TGE = 1 and EL2 is enabled ("Routing ... when the value of HCR_EL2.TGE is 1");
    // SVC and UNDEFINED at EL1-EL3 are taken to the current EL.
    CHECK(at(0).same_or_el1() == 1);
    CHECK(at(0, SCR_NS | SCR_RW, HCR_TGE).same_or_el1() == 2);
    CHECK(at(0, secure_scr, HCR_TGE).same_or_el1() == 1); // TGE has no effect where EL2 is disabled
    CHECK(at(0, secure_scr | SCR_EEL2, HCR_TGE).same_or_el1() == 2);
    CHECK(at(1, SCR_NS | SCR_RW, HCR_TGE).same_or_el1() == 1);
    CHECK(at(2).same_or_el1() == 2);
    CHECK(at(3).same_or_el1() == 3);
}

TEST_CASE("iss exception routing: HVC is UNDEFINED at EL0 or with SCR_EL3.HCE clear or where EL2 is disabled", "[iss]") {
    // [ARM] C6.2 "HVC": UNDEFINED at EL0; UNDEFINED when SCR_EL3.HCE = 0; at EL1 UNDEFINED when
    // EL2 is not enabled in the current Security state; otherwise to EL2 (from EL1, EL2), EL3 from EL3.
    CHECK(at(0).hvc_undefined());
    CHECK_FALSE(at(1).hvc_undefined());
    CHECK(at(1).hvc_target() == 2);
    CHECK(at(1, SCR_NS | SCR_RW).hvc_undefined()); // HCE = 0
    CHECK(at(1, secure_scr | SCR_HCE).hvc_undefined());
    CHECK_FALSE(at(2).hvc_undefined());
    CHECK(at(2).hvc_target() == 2);
    CHECK_FALSE(at(3, SCR_HCE | SCR_RW).hvc_undefined());
    CHECK(at(3, SCR_HCE | SCR_RW).hvc_target() == 3);
    CHECK(at(3, SCR_RW).hvc_undefined());
}

TEST_CASE("iss exception routing: SMC traps to EL2 with HCR_EL2.TSC before SCR_EL3.SMD disables it", "[iss]") {
    // [ARM] C6.2 "SMC": UNDEFINED at EL0; HCR_EL2.TSC = 1 traps EL1's SMC to EL2 where EL2 is
    // enabled, whatever SCR_EL3.SMD is (HCR_EL2.TSC page); SCR_EL3.SMD = 1 makes it UNDEFINED at
    // EL1 and above, EL3 included (SCR_EL3.SMD page: "at EL1 and above"; J1.1.2.44
    // AArch64.CheckForSMCUndefOrTrap has no EL condition); otherwise the SMC exception goes to EL3.
    CHECK(at(0).smc() == smc::undefined);
    CHECK(at(1).smc() == smc::to_el3);
    CHECK(at(1, SCR_NS | SCR_RW, HCR_TSC).smc() == smc::trap_to_el2);
    CHECK(at(1, SCR_NS | SCR_RW | SCR_SMD, HCR_TSC).smc() == smc::trap_to_el2);
    CHECK(at(1, SCR_NS | SCR_RW | SCR_SMD).smc() == smc::disabled);
    CHECK(at(1, secure_scr, HCR_TSC).smc() == smc::to_el3); // EL2 disabled: TSC has no effect
    CHECK(at(2, SCR_NS | SCR_RW, HCR_TSC).smc() == smc::to_el3); // TSC traps EL1's only
    CHECK(at(2, SCR_NS | SCR_RW | SCR_SMD).smc() == smc::disabled);
    CHECK(at(3, SCR_SMD).smc() == smc::disabled); // J1.1.2.44: SMD applies at EL3 too
    CHECK(at(3, 0).smc() == smc::to_el3);
}

TEST_CASE("iss exception routing: WFI and WFE trap by SCTLR_EL1.nTWx then HCR_EL2.TWx then SCR_EL3.TWx", "[iss]") {
    // [ARM] the WFI/WFE pseudo-code: at EL0 AArch64.CheckForWFxTrap(EL1) (SCTLR_EL1.nTWI/nTWE = 0
    // traps; AArch64.WFxTrap routes a trap to EL1 to EL2 when HCR_EL2.TGE = 1 and EL2 is enabled);
    // at EL0/EL1 with EL2 enabled, CheckForWFxTrap(EL2) (HCR_EL2.TWI/TWE = 1); below EL3,
    // CheckForWFxTrap(EL3) (SCR_EL3.TWI/TWE = 1); the first that traps wins.
    CHECK(at(0).wfx_trap_target(false) == 0);
    CHECK(at(0).wfx_trap_target(true) == 0);
    CHECK(at(0, SCR_NS | SCR_RW, 0, SCTLR_nTWE).wfx_trap_target(false) == 1); // nTWI = 0
    CHECK(at(0, SCR_NS | SCR_RW, 0, SCTLR_nTWE).wfx_trap_target(true) == 0);
    CHECK(at(0, SCR_NS | SCR_RW, 0, SCTLR_nTWI).wfx_trap_target(true) == 1);  // nTWE = 0
    CHECK(at(0, SCR_NS | SCR_RW, HCR_TGE, SCTLR_nTWE).wfx_trap_target(false) == 2);
    CHECK(at(0, SCR_NS | SCR_RW | SCR_TWI, HCR_TWI, 0).wfx_trap_target(false) == 1); // EL1's trap first
    CHECK(at(0, SCR_NS | SCR_RW | SCR_TWI, HCR_TWI).wfx_trap_target(false) == 2);
    CHECK(at(1, SCR_NS | SCR_RW, HCR_TWI).wfx_trap_target(false) == 2);
    CHECK(at(1, SCR_NS | SCR_RW, HCR_TWI).wfx_trap_target(true) == 0);
    CHECK(at(1, SCR_NS | SCR_RW, HCR_TWE).wfx_trap_target(true) == 2);
    CHECK(at(1, secure_scr, HCR_TWI).wfx_trap_target(false) == 0); // EL2 disabled
    CHECK(at(1, SCR_NS | SCR_RW | SCR_TWI, HCR_TWI).wfx_trap_target(false) == 2);
    CHECK(at(1, SCR_NS | SCR_RW | SCR_TWI).wfx_trap_target(false) == 3);
    CHECK(at(2, SCR_NS | SCR_RW, HCR_TWI | HCR_TWE).wfx_trap_target(false) == 0);
    CHECK(at(2, SCR_NS | SCR_RW | SCR_TWE).wfx_trap_target(true) == 3);
    CHECK(at(3, SCR_RW | SCR_TWI | SCR_TWE).wfx_trap_target(false) == 0);
    CHECK(at(1, SCR_NS | SCR_RW, 0, 0).wfx_trap_target(false) == 0); // SCTLR_EL1 traps EL0's only
}

TEST_CASE("iss exception routing: a physical IRQ is routed by SCR_EL3.IRQ and HCR_EL2.IMO or TGE and masked by PSTATE.I", "[iss]") {
    // [ARM] D1.3 "Asynchronous exception routing": SCR_EL3.IRQ = 1 routes to EL3 from every EL;
    // else, where EL2 is enabled, HCR_EL2.IMO = 1 or TGE = 1 routes to EL2 "when executing at any
    // Exception level" (HCR_EL2.IMO page); else to EL1. An interrupt routed to a lower EL than the
    // current one is not taken. Masking ("Asynchronous exception masking"): PSTATE.I masks one
    // taken to the current EL, and one taken to EL1 from EL0; one taken to EL2 or EL3 from a lower
    // EL is not masked (HCR_EL2.E2H is not modelled).
    CHECK(at(1).irq_route() == 1);
    CHECK(at(1).irq_target(false) == 1);
    CHECK(at(1).irq_target(true) == 0);
    CHECK(at(0).irq_target(false) == 1);
    CHECK(at(0).irq_target(true) == 0);
    CHECK(at(2).irq_target(false) == 0); // routed to EL1: not taken at EL2
    CHECK(at(3).irq_target(false) == 0);
    // HCR_EL2.IMO, TGE
    CHECK(at(1, SCR_NS | SCR_RW, HCR_IMO).irq_target(true) == 2);
    CHECK(at(0, SCR_NS | SCR_RW, HCR_IMO).irq_target(true) == 2);
    CHECK(at(0, SCR_NS | SCR_RW, HCR_TGE).irq_target(true) == 2);
    CHECK(at(2, SCR_NS | SCR_RW, HCR_IMO).irq_target(false) == 2);
    CHECK(at(2, SCR_NS | SCR_RW, HCR_IMO).irq_target(true) == 0);
    CHECK(at(2, SCR_NS | SCR_RW, HCR_TGE).irq_target(false) == 2);
    CHECK(at(1, secure_scr, HCR_IMO).irq_target(false) == 1); // EL2 disabled: IMO has no effect
    CHECK(at(3, SCR_RW, HCR_IMO).irq_target(false) == 0);
    // SCR_EL3.IRQ
    CHECK(at(1, SCR_NS | SCR_RW | SCR_IRQ, HCR_IMO).irq_route() == 3);
    CHECK(at(1, SCR_NS | SCR_RW | SCR_IRQ).irq_target(true) == 3);
    CHECK(at(2, SCR_NS | SCR_RW | SCR_IRQ).irq_target(true) == 3);
    CHECK(at(3, SCR_RW | SCR_IRQ).irq_target(false) == 3);
    CHECK(at(3, SCR_RW | SCR_IRQ).irq_target(true) == 0);
}

TEST_CASE("iss exception routing: vector offsets are those of the Arm ARM table of exception vectors", "[iss]") {
    // [ARM] D1.10.2 Table "Vector offsets from vector table base address": current EL with SP0
    // 0x000/0x080/0x100/0x180 (Synchronous/IRQ/FIQ/SError), current EL with SPx 0x200-0x380, lower EL
    // using AArch64 0x400-0x580, lower EL using AArch32 0x600-0x780. [LNX] entry.S's vectors: EL1t,
    // EL1h, EL0 64-bit, EL0 32-bit, four 128-byte entries each.
    using R = exception_routing;
    CHECK(R::vector_offset(1, false, 1, kind::synchronous) == 0x000);
    CHECK(R::vector_offset(1, false, 1, kind::irq) == 0x080);
    CHECK(R::vector_offset(1, false, 1, kind::fiq) == 0x100);
    CHECK(R::vector_offset(1, false, 1, kind::serror) == 0x180);
    CHECK(R::vector_offset(1, true, 1, kind::synchronous) == 0x200);
    CHECK(R::vector_offset(1, true, 1, kind::irq) == 0x280);
    CHECK(R::vector_offset(2, true, 2, kind::serror) == 0x380);
    CHECK(R::vector_offset(0, false, 1, kind::synchronous) == 0x400);
    CHECK(R::vector_offset(0, false, 1, kind::irq) == 0x480);
    CHECK(R::vector_offset(1, true, 2, kind::synchronous) == 0x400);
    CHECK(R::vector_offset(2, false, 3, kind::irq) == 0x480);
    CHECK(R::vector_offset(0, false, 1, kind::synchronous, true) == 0x600);
    CHECK(R::vector_offset(0, false, 1, kind::irq, true) == 0x680);
    CHECK(R::vector_offset(1, false, 2, kind::serror, true) == 0x780);
    CHECK(R::vector_offset(3, false, 3, kind::synchronous) == 0x000);
}

TEST_CASE("iss exception routing: SPSR on entry holds NZCV and DAIF and the mode of the EL left", "[iss]") {
    // [ARM] AArch64.TakeException: SPSR[] = GetPSRFromPSTATE(); SPSR_ELx fields N Z C V [31:28],
    // D A I F [9:6], M[4] = 0 (AArch64), M[3:0] = EL:SPSel (EL0t 0b0000, EL1t 0b0100, EL1h 0b0101,
    // EL2t 0b1000, EL2h 0b1001, EL3t 0b1100, EL3h 0b1101; [LNX] ptrace.h PSR_MODE_*).
    using R = exception_routing;
    CHECK(R::spsr_on_entry(N | C | I | 1, 1) == 0xA0000085); // EL1h, N C I
    CHECK(R::spsr_on_entry(D | A | I | F, 1) == 0x3C4);      // EL1t
    CHECK(R::spsr_on_entry(0, 0) == 0x0);                    // EL0t
    CHECK(R::spsr_on_entry(1, 0) == 0x0);                    // EL0 has no SPSel: EL0t
    CHECK(R::spsr_on_entry(F | 1, 2) == 0x49);               // EL2h
    CHECK(R::spsr_on_entry(0, 2) == 0x8);                    // EL2t
    CHECK(R::spsr_on_entry(N | D | 1, 3) == 0x8000020D);     // EL3h
}

TEST_CASE("iss exception routing: syndromes of SVC HVC SMC WFx UNDEFINED and trapped MSR MRS are the ESR_ELx encodings", "[iss]") {
    // [ARM] ESR_ELx: EC [31:26], IL [25] (1: a 32-bit instruction), ISS [24:0]. ECs ([LNX] esr.h):
    // UNKNOWN 0x00, WFx 0x01, SVC64 0x15, HVC64 0x16, SMC64 0x17, SYS64 0x18. So EC << 26 | 1 << 25:
    // 0x02000000 (UNKNOWN), 0x06000000 (WFx), 0x56000000 (SVC), 0x5A000000 (HVC), 0x5E000000 (SMC),
    // 0x62000000 (SYS64).
    using R = exception_routing;
    CHECK(R::esr_undefined() == 0x02000000);
    // "ISS encoding for an exception from HVC or SVC instruction execution" / "... SMC": imm16 [15:0].
    CHECK(R::esr_svc(0) == 0x56000000);
    CHECK(R::esr_svc(0x1234) == 0x56001234);
    CHECK(R::esr_hvc(0xffff) == 0x5A00FFFF);
    CHECK(R::esr_smc(0x0042) == 0x5E000042);
    // "ISS encoding for an exception from a WFI or WFE instruction": CV [24] = 1, COND [23:20] =
    // 0b1110 (an exception from AArch64), TI [1:0] = 0b00 WFI, 0b01 WFE ([LNX] ESR_ELx_CV,
    // ESR_ELx_COND_SHIFT 20, ESR_ELx_WFx_ISS_WFE 1).
    CHECK(R::esr_wfx(false) == 0x07E00000);
    CHECK(R::esr_wfx(true) == 0x07E00001);
    // "ISS encoding for an exception from MSR, MRS, or System instruction execution in AArch64
    // state": Op0 [21:20], Op2 [19:17], Op1 [16:14], CRn [13:10], Rt [9:5], CRm [4:1], Direction [0]
    // (1: read, MRS).
    // MRS X3, PMCCNTR_EL0 (S3_3_C9_C13_0): 3<<20 | 0<<17 | 3<<14 | 9<<10 | 3<<5 | 13<<1 | 1 = 0x30E47B.
    CHECK(R::esr_sysreg({3, 3, 9, 13, 0}, false, 3) == 0x6230E47B);
    // MSR CNTV_CTL_EL0 (S3_3_C14_C3_1), X30: 3<<20 | 1<<17 | 3<<14 | 14<<10 | 30<<5 | 3<<1 | 0 = 0x32FBC6.
    CHECK(R::esr_sysreg({3, 3, 14, 3, 1}, true, 30) == 0x6232FBC6);
    // MSR DAIFClr, #2 (op0 0, op1 3, CRn 4, CRm = #2, op2 7; Rt reported as 31):
    // 0<<20 | 7<<17 | 3<<14 | 4<<10 | 31<<5 | 2<<1 | 0 = 0xED3E4.
    CHECK(R::esr_sysreg({0, 3, 4, 2, 7}, true, 31) == 0x620ED3E4);
}

TEST_CASE("iss exception routing: the Illegal Execution state syndrome is EC 0x0E and HCR_EL2.E2H is the bit ignored", "[iss]") {
    // [ARM] ESR_ELx EC 0b001110 "Illegal Execution state", ISS 0, IL 1: 0x0E << 26 | 1 << 25 =
    // 0x3A000000 ([LNX] esr.h ESR_ELx_EC_ILL 0x0E).
    CHECK(exception_routing::esr_illegal_state() == 0x3A000000);
    // [ARM] HCR_EL2.E2H is bit 34 ([LNX] kvm_arm.h HCR_E2H (UL(1) << 34)); RW [31], TGE [27], VM [0]
    // are modelled: only E2H comes back.
    constexpr uint64_t E2H = uint64_t(1) << 34, RW = uint64_t(1) << 31;
    CHECK(exception_routing::hcr_bits_ignored(E2H | RW | HCR_TGE | HCR_VM) == E2H);
    CHECK(exception_routing::hcr_bits_ignored(RW | HCR_TGE) == 0);
}
