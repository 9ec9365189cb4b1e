// HCR_EL2.E2H (bit 34, the EL2 host of FEAT_VHE; Arm ARM DDI 0487 HCR_EL2 page, tests/facts/cpu.tsv;
// Linux arch/arm64/include/asm/kvm_arm.h HCR_E2H = 1 << 34) is not modelled by the ISS's exception
// model (docs/firmware.md "What the ISS leaves out"): a write that sets it is reported once in the log
// (check_log_once.sh), and the register keeps the value written (the units' access rules read it).
// At EL3: HCR_EL2 = RW | E2H twice, read back, then cleared; exit 0 when the value read is the one
// written.
#include "common.inc"
#define HCR_EL2   S3_4_C1_C1_0
.globl _start
_start:
    ldr x0, =((1 << 34) | (1 << 31))  // E2H, RW
    msr HCR_EL2, x0
    msr HCR_EL2, x0                    // a second write: reported once
    mrs x1, HCR_EL2
    cmp x1, x0
    check_eq 1
    mov x0, #(1 << 31)
    msr HCR_EL2, x0
    mov x9, #0
    semihost_exit x9
