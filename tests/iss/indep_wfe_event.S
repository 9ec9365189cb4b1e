// Independent firmware (issue 28): WFE and the Event Register, from the Arm ARM (DDI 0487 M.a.a) alone.
// - C6.2.501 WFE, J1.3.3.442 Hint_WFE: `if IsEventRegisterSet() then ClearEventRegister();
//   return;`: the instruction completes; only otherwise are the WFx traps checked
//   (J1.1.2.46 AArch64.CheckForWFxTrap) and the PE waits.
// - D1.7.1.1 "The Event Register": set by SEV, SEVL and by an exception return; cleared by a WFE
//   that finds it set.
// So at EL1 with HCR_EL2.TWE = 1 (EL2 enabled, Non-secure):
//   1. `SEVL; WFE`: the WFE finds the register set: no trap;
//   2. the next `WFE` finds it clear and would wait: trapped to EL2, EC 0x01, TI 0b01
//      (ESR 0x07E00001), ELR = the WFE;
//   3. the handler's ERET set it again: the first `WFE` after it completes, no trap;
//   4. the next one traps.
// (Until 2026-12-06 pmusim had no event register and trapped every WFE: status 11.) Exit status: 10 x stage + the failing check (tests/iss/indep_traps.inc); 0 = as the Arm
// ARM says.
#include "common.inc"
#include "indep_exceptions.inc"
#include "indep_traps.inc"
#define ESR_WFE   0x07e00001

.globl _start
_start:
    install_vectors
    go el1, SPSR_EL1H, SCTLR_RES1, (HCR_RW | HCR_TWE), (SCR_BASE | SCR_NS)
el1:
    sevl
    no_exception 1, wfe
    expect_trap 2, V_EL2_LOW, ESR_WFE, 5, 0, wfe
    no_exception 3, wfe
    expect_trap 4, V_EL2_LOW, ESR_WFE, 5, 0, wfe
    mov x9, #0
    semihost_exit x9

el3_other:
    b common_el3_check
    trap_handlers el3_other
