// Independent firmware (issue 28, "Done when"): written from the Arm ARM (DDI 0487 M.a.a) and
// docs/firmware.md's contract alone, without reading iss/. The traps of WFI and WFE:
// - Which EL a WFx traps to (C6.2.503 WFI, C6.2.501 WFE; J1.1.2.46 AArch64.CheckForWFxTrap): at
//   EL0 SCTLR_EL1.nTWI/nTWE = 0 first (to EL1, to EL2 when HCR_EL2.TGE = 1), then, at EL0 or EL1
//   with EL2 enabled, HCR_EL2.TWI/TWE (to EL2), then, below EL3, SCR_EL3.TWI/TWE (to EL3).
//   SCTLR_EL1.nTWx does not apply to EL1, HCR_EL2.TWx does not apply to EL2 nor to Secure EL0/EL1
//   (EL2 not enabled there: SCR_EL3.NS = 0, EEL2 = 0), SCR_EL3.TWx does not apply to EL3 (a WFI at
//   EL3 waits).
// - The syndrome (D24.2.46 ESR_EL2, "ISS encoding for an exception from a WF* instruction"):
//   EC 0x01, IL 1, CV 1 and COND 0b1110 (taken from AArch64), TI 0b00 WFI / 0b01 WFE:
//   (0x01 << 26) | (1 << 25) | (1 << 24) | (0xE << 20) | TI = 0x07E00000 / 0x07E00001; ELR = the
//   WFx itself (the preferred return address of a trap).
// - A WFI while an interrupt is pending does not trap: J1.3.3.444 Hint_WFI ends the instruction
//   when AArch64.InterruptPending() (J1.1.3.394: any pending physical IRQ, masked or not) before
//   it checks the traps; the trap controls trap a WFI only "if the instruction would otherwise
//   have caused the PE to enter a low-power state" (D1.7.2 "Wait for Interrupt mechanism"). So with
//   the IRQ pending and masked by PSTATE.I the WFI completes at once: no trap, no IRQ taken. The
//   line is dsu0's overflow interrupt (routed to cpu0 in arm-default, docs/firmware.md), raised
//   from EL3.
// - WFE and the Event Register: an exception return sets it (D1.7.1.1 "The Event Register"), and a
//   WFE with it set clears it and completes without checking any trap (J1.3.3.442 Hint_WFE). The
//   contract says pmusim has no event register (docs/firmware.md "WFE, SEV"). So each WFE check
//   here runs `WFE; WFE` right after an ERET and accepts the trap at either: the Arm ARM traps the
//   second, pmusim the first; the handler resumes after both. (tests/iss/indep_pending/
//   indep_wfe_event.S checks the Event Register itself.)
// Exit status: 10 x stage + the failing check (tests/iss/indep_traps.inc).
#include "common.inc"
#include "indep_exceptions.inc"
#include "indep_traps.inc"
// DSU encodings: Arm DSU-110 TRM, CLUSTERPM* registers; TF-A dsu_def.h (CLUSTERPMMDCR_EL3).
#define CLUSTERPMCR_EL1        S3_0_C15_C5_0
#define CLUSTERPMCNTENSET_EL1  S3_0_C15_C5_1
#define CLUSTERPMOVSCLR_EL1    S3_0_C15_C5_4
#define CLUSTERPMSELR_EL1      S3_0_C15_C5_5
#define CLUSTERPMINTENSET_EL1  S3_0_C15_C5_6
#define CLUSTERPMXEVTYPER_EL1  S3_0_C15_C6_1
#define CLUSTERPMXEVCNTR_EL1   S3_0_C15_C6_2
#define CLUSTERPMMDCR_EL3      S3_6_C15_C6_3
// ESR_ELx for a trapped WFI / WFE taken from AArch64 (above).
#define ESR_WFI   0x07e00000
#define ESR_WFE   0x07e00001
// Every trap control set: HCR_EL2.TWI/TWE; SCR_EL3.TWI/TWE, Non-secure (_S: Secure).
#define HCR_WFX   (HCR_RW | HCR_TWI | HCR_TWE)
#define SCR_WFX   (SCR_BASE | SCR_NS | SCR_TWI | SCR_TWE)
#define SCR_WFX_S (SCR_BASE | SCR_TWI | SCR_TWE)
#define SCTLR_NOTRAP (SCTLR_RES1 | SCTLR_NTWX)

.macro provoke_wfi stage, vec, m
    expect_trap \stage, \vec, ESR_WFI, \m, 0, wfi
.endm
.macro provoke_wfe stage, vec, m
    expect_trap \stage, \vec, ESR_WFE, \m, 1, wfe
.endm

.globl _start
_start:
    install_vectors

    // 1-2: everything traps; at EL0 SCTLR_EL1.nTWx = 0 wins: EL1.
    go el0_all, SPSR_EL0T, SCTLR_RES1, HCR_WFX, SCR_WFX
el0_all:
    provoke_wfi 1, V_EL1_LOW, 0
    provoke_wfe 2, V_EL1_LOW, 0
    go el0_hcr, SPSR_EL0T, SCTLR_NOTRAP, HCR_WFX, SCR_WFX, svc
el0_hcr:                           // 3-4: nTWx = 1: HCR_EL2 next, EL2
    provoke_wfi 3, V_EL2_LOW, 0
    provoke_wfe 4, V_EL2_LOW, 0
    go el0_scr, SPSR_EL0T, SCTLR_NOTRAP, HCR_RW, SCR_WFX, svc
el0_scr:                           // 5-6: only SCR_EL3: EL3
    provoke_wfi 5, V_EL3_LOW, 0
    provoke_wfe 6, V_EL3_LOW, 0
    go el0_tge, SPSR_EL0T, SCTLR_RES1, (HCR_RW | HCR_TGE), (SCR_BASE | SCR_NS), svc
el0_tge:                           // 7-8: nTWx = 0 with HCR_EL2.TGE: EL2
    provoke_wfi 7, V_EL2_LOW, 0
    provoke_wfe 8, V_EL2_LOW, 0
    go el1_hcr, SPSR_EL1H, SCTLR_RES1, HCR_WFX, SCR_WFX, svc
el1_hcr:                           // 9-10: EL1 (nTWx = 0 does not apply): EL2
    provoke_wfi 9, V_EL2_LOW, 5
    provoke_wfe 10, V_EL2_LOW, 5
    go el1_scr, SPSR_EL1H, SCTLR_RES1, HCR_RW, SCR_WFX
el1_scr:                           // 11-12: EL1, only SCR_EL3: EL3
    provoke_wfi 11, V_EL3_LOW, 5
    provoke_wfe 12, V_EL3_LOW, 5
    go el2_scr, SPSR_EL2H, SCTLR_RES1, HCR_WFX, SCR_WFX
el2_scr:                           // 13-14: EL2 (HCR_EL2.TWx do not apply): EL3
    provoke_wfi 13, V_EL3_LOW, 9
    provoke_wfe 14, V_EL3_LOW, 9
    go sel1, SPSR_EL1H, SCTLR_RES1, HCR_WFX, SCR_WFX_S
sel1:                              // 15-16: Secure EL1: EL2 is not enabled, HCR_EL2 ignored: EL3
    provoke_wfi 15, V_EL3_LOW, 5
    provoke_wfe 16, V_EL3_LOW, 5
    go sel0, SPSR_EL0T, SCTLR_NOTRAP, HCR_WFX, SCR_WFX_S
sel0:                              // 17-18: Secure EL0, nTWx = 1: EL3
    provoke_wfi 17, V_EL3_LOW, 0
    provoke_wfe 18, V_EL3_LOW, 0
    go el3_wait, SPSR_EL3H, SCTLR_RES1, HCR_RW, SCR_WFX, svc

    // 19: at EL3 SCR_EL3.TWI does not apply: the WFI waits for dsu0's overflow line, which rises
    // 1000 DSU cycles after CLUSTERPMCR_EL1.E (DAIF all set: not taken).
el3_wait:
    mov x0, #1
    msr CLUSTERPMMDCR_EL3, x0      // SPME: count in Secure state too
    msr CLUSTERPMSELR_EL1, xzr     // counter 0
    mov x0, #0x11                  // CYCLES
    msr CLUSTERPMXEVTYPER_EL1, x0
    mov x0, #-1000
    msr CLUSTERPMXEVCNTR_EL1, x0
    mov x0, #1
    msr CLUSTERPMINTENSET_EL1, x0
    msr CLUSTERPMCNTENSET_EL1, x0
    msr CLUSTERPMCR_EL1, x0
    no_exception 19, wfi
    mrs x0, CLUSTERPMOVSCLR_EL1
    and x0, x0, #1
    cmp x0, #1                     // woken by the overflow
    check_eq 195
    // 20: EL1, HCR_EL2.TWI and SCR_EL3.TWI set, the IRQ pending (routed to EL1: SCR_EL3.IRQ = 0,
    // HCR_EL2.IMO = 0) and masked by PSTATE.I: the WFI neither traps nor takes the IRQ.
    go el1_pending, SPSR_EL1H, SCTLR_RES1, HCR_WFX, SCR_WFX
el1_pending:
    no_exception 20, wfi
    // 21: the same at EL0 with SCTLR_EL1.nTWI = 0.
    go el0_pending, SPSR_EL0T, SCTLR_RES1, HCR_WFX, SCR_WFX
el0_pending:
    no_exception 21, wfi
    go pass, SPSR_EL3H, SCTLR_RES1, HCR_RW, (SCR_BASE | SCR_NS), svc

pass:
    mov x9, #0
    semihost_exit x9

el3_other:                         // nothing but the service: check it as a trap
    b common_el3_check

    trap_handlers el3_other
