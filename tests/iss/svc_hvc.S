// EL3 -> EL2 -> EL1 -> EL0 by ERET, then exception generation and routing (Arm ARM D1.10, D17.2.37
// ESR_ELx; SCR_EL3 RW/HCE/NS, HCR_EL2.RW): HVC #1 at EL2 is taken to EL2 from the current EL
// (VBAR_EL2 + 0x200, EC 0x16, ISS = imm16, ELR = the next instruction); SVC #7 at EL0 is taken to
// EL1 from a lower EL (VBAR_EL1 + 0x400, EC 0x15, SPSR_EL1.M = EL0t); HVC #9 at EL1 is taken to
// EL2 from a lower EL (VBAR_EL2 + 0x400, SPSR_EL2.M = EL1h).
#include "common.inc"
.globl _start
_start:
    mov x0, #((1 << 10) | (1 << 8) | 0x30 | 1)   // SCR_EL3: RW, HCE, RES1 [5:4], NS
    msr S3_6_C1_C1_0, x0
    mov x0, #0x3c9                 // SPSR_EL3: EL2h, DAIF masked
    msr S3_6_C4_C0_0, x0
    adr x0, el2_entry
    msr S3_6_C4_C0_1, x0           // ELR_EL3
    mov x20, #0
    eret

el2_entry:
    mrs x0, CurrentEL
    cmp x0, #(2 << 2)
    check_eq 1
    adr x0, el2_vectors
    msr S3_4_C12_C0_0, x0          // VBAR_EL2
    mov x0, #(1 << 31)             // HCR_EL2.RW: EL1 is AArch64
    msr S3_4_C1_C1_0, x0
    hvc #1
after_hvc:
    cmp x20, #1                    // the EL2 handler ran
    check_eq 2
    mov x0, #0x3c5                 // SPSR_EL2: EL1h, DAIF masked
    msr S3_4_C4_C0_0, x0
    adr x0, el1_entry
    msr S3_4_C4_C0_1, x0           // ELR_EL2
    eret

el1_entry:
    mrs x0, CurrentEL
    cmp x0, #(1 << 2)
    check_eq 3
    adr x0, el1_vectors
    msr vbar_el1, x0
    mov x0, #0x3c0                 // SPSR_EL1: EL0t, DAIF masked
    msr spsr_el1, x0
    adr x0, el0_entry
    msr elr_el1, x0
    eret

el0_entry:
    svc #7
after_svc:
    b .

    .balign 0x800
el1_vectors:
    .skip 0x400
el1_lower_sync:                    // VBAR_EL1 + 0x400
    mrs x10, esr_el1
    ldr x14, =((0x15 << 26) | (1 << 25) | 7)
    cmp x10, x14
    check_eq 4
    mrs x11, elr_el1
    adr x14, after_svc
    cmp x11, x14
    check_eq 5
    mrs x12, spsr_el1
    and x12, x12, #0xf
    cmp x12, #0                    // from EL0t
    check_eq 6
    mov x20, #2
    hvc #9

    .balign 0x800
el2_vectors:
    .skip 0x200
el2_current_sync:                  // VBAR_EL2 + 0x200: HVC #1 at EL2
    mrs x10, S3_4_C5_C2_0          // ESR_EL2
    ldr x14, =((0x16 << 26) | (1 << 25) | 1)
    cmp x10, x14
    check_eq 7
    mrs x11, S3_4_C4_C0_1          // ELR_EL2
    adr x14, after_hvc
    cmp x11, x14
    check_eq 8
    mov x20, #1
    eret
    .balign 0x200
el2_lower_sync:                    // VBAR_EL2 + 0x400: HVC #9 at EL1
    cmp x20, #2
    check_eq 9
    mrs x10, S3_4_C5_C2_0
    ldr x14, =((0x16 << 26) | (1 << 25) | 9)
    cmp x10, x14
    check_eq 10
    mrs x12, S3_4_C4_C0_0          // SPSR_EL2
    and x12, x12, #0xf
    cmp x12, #5                    // from EL1h
    check_eq 11
    mrs x0, CurrentEL
    cmp x0, #(2 << 2)
    check_eq 12
    mov x9, #0
    semihost_exit x9
