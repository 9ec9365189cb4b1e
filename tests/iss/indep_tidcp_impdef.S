// Independent firmware (issue 28): HCR_EL2.TIDCP and
// the IMPLEMENTATION DEFINED encodings that are not the DSU's, from the Arm ARM (DDI 0487 M.a.a)
// alone.
// HCR_EL2.TIDCP (bit 20, D24.2.62): "Trap IMPLEMENTATION DEFINED functionality. Traps EL1 accesses
// to the encodings reserved for IMPLEMENTATION DEFINED functionality to EL2": in AArch64 the
// System registers accessed by MRS/MSR as S3_<op1>_<Cn>_<Cm>_<op2> with CRn == c11 or c15, and the
// System instructions SYS/SYSL with CRn == c11 or c15, reported with EC 0x18. The field names the
// reserved space, not the registers a PE implements; Linux's KVM sets TIDCP for every guest to see
// such accesses (arch/arm64/include/asm/kvm_arm.h@v6.1 HCR_GUEST_FLAGS, "TIDCP: Trap
// L2CTLR/L2ECTLR", the Cortex-A53/A57/A72 L2 control registers), and D1.4.5.6 ranks "exceptions
// taken from EL1 to EL2 because of ... HCR_EL2.TIDCP" (priority 18) above the UNDEFINED of "an
// encoding for an instruction that is not implemented" (priority 19). So at Non-secure EL1 with EL2
// enabled and TIDCP = 1 each of these traps to EL2 with EC 0x18 and the instruction's ISS
// (D24.2.46: Op0 << 20 | Op2 << 17 | Op1 << 14 | CRn << 10 | Rt << 5 | CRm << 1 | Direction,
// 1 = read; with EC 0x18 and IL: 0x62000000 | ISS), ELR = the instruction:
//   1. MRS X5, S3_0_C15_C0_0        ESR 0x62303ca1
//   2. MRS X6, S3_1_C15_C2_1        ESR 0x62327cc5 (CPUECTLR_EL1 on Cortex-A57/A72)
//   3. MSR S3_0_C11_C0_0, X7        ESR 0x62302ce0
//   4. SYS #0, C15, C0, #0, X8      ESR 0x62103d00 (Op0 1)
//   5. MRS X10, S3_1_C11_C0_2       ESR 0x62346d41 (L2CTLR_EL1 on Cortex-A53/A57/A72)
// (Until 2026-12-06 pmusim trapped the DSU's registers only: status 11.) Exit
// status: 10 x stage + the failing check (tests/iss/indep_traps.inc); 0 = as the Arm ARM says.
#include "common.inc"
#include "indep_exceptions.inc"
#include "indep_traps.inc"

.globl _start
_start:
    install_vectors
    go el1, SPSR_EL1H, SCTLR_RES1, (HCR_RW | HCR_TIDCP), (SCR_BASE | SCR_NS)
el1:
    expect_trap 1, V_EL2_LOW, 0x62303ca1, 5, 0, mrs x5, S3_0_C15_C0_0
    expect_trap 2, V_EL2_LOW, 0x62327cc5, 5, 0, mrs x6, S3_1_C15_C2_1
    mov x7, #0
    expect_trap 3, V_EL2_LOW, 0x62302ce0, 5, 0, msr S3_0_C11_C0_0, x7
    mov x8, #0
    expect_trap 4, V_EL2_LOW, 0x62103d00, 5, 0, sys #0, C15, C0, #0, x8
    expect_trap 5, V_EL2_LOW, 0x62346d41, 5, 0, mrs x10, S3_1_C11_C0_2
    mov x9, #0
    semihost_exit x9

el3_other:
    b common_el3_check
    trap_handlers el3_other
