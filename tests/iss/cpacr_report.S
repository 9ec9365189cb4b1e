// CPACR_EL1 (Arm ARM D24.2.35): FPEN [21:20] and TTA [28] read back as written, from EL3 and EL1;
// a value that would trap FP/SIMD accesses (FPEN != 0b11) or trace (TTA = 1), which pmusim does not
// model, is reported once in the log (check_log_once.sh; docs/firmware.md "What the ISS leaves out").
// At EL0, MRS CPACR_EL1 is UNDEFINED: EC 0x00 to EL1, ELR = the MRS.
#include "common.inc"
#define SCR_EL3   S3_6_C1_C1_0
#define SPSR_EL3  S3_6_C4_C0_0
#define ELR_EL3   S3_6_C4_C0_1
.globl _start
_start:
    msr CPACR_EL1, xzr                 // FPEN 0b00: reported
    mrs x0, CPACR_EL1
    cmp x0, #0
    check_eq 1
    ldr x1, =((1 << 28) | (1 << 20))   // TTA, FPEN 0b01: TTA reported, FPEN not again
    msr CPACR_EL1, x1
    mrs x0, CPACR_EL1
    cmp x0, x1
    check_eq 2
    mov x0, #((1 << 10) | 0x30 | 1)    // SCR_EL3: RW, RES1 [5:4], NS
    msr SCR_EL3, x0
    adr x0, el1_vectors
    msr VBAR_EL1, x0
    mov x0, #0x3c5                     // EL1h, DAIF masked
    msr SPSR_EL3, x0
    adr x0, el1_entry
    msr ELR_EL3, x0
    eret
el1_entry:
    mov x0, #(3 << 20)                 // FPEN 0b11 at EL1: nothing to report
    msr CPACR_EL1, x0
    mrs x2, CPACR_EL1
    cmp x2, x0
    check_eq 3
    msr CPACR_EL1, xzr                 // 0b00 again: already reported
    mov x0, #0x3c0                     // EL0t
    msr SPSR_EL1, x0
    adr x0, el0_entry
    msr ELR_EL1, x0
    eret
el0_entry:
el0_mrs_at:
    mrs x3, CPACR_EL1                  // UNDEFINED at EL0
    b .

    .balign 0x800
el1_vectors:
    .skip 0x400
el1_lower_sync:                        // VBAR_EL1 + 0x400: from EL0
    mrs x0, ESR_EL1
    ldr x1, =0x02000000                // EC 0x00, IL 1
    cmp x0, x1
    check_eq 4
    mrs x0, ELR_EL1
    adr x1, el0_mrs_at
    cmp x0, x1
    check_eq 5
    mov x9, #0
    semihost_exit x9
