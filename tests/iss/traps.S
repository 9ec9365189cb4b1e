// Traps seen from the inside: EL3 boot drops to EL1 with CPTR_EL3.TAM set; the EL1 read of
// AMEVCNTR00_EL0 traps to EL3 with EC 0x18 and the access's ISS; ERET returns to EL1 past it;
// an SMC from EL1 is taken to EL3 with EC 0x17. Values from the Arm ARM (D17.2.37 ESR_ELx,
// D1.10.2 vector offsets, C5.2.19 SPSR_EL3).
#include "common.inc"
.globl _start
_start:
    adr x0, el3_vectors
    msr S3_6_C12_C0_0, x0          // VBAR_EL3
    mov x0, #(1 << 30)             // CPTR_EL3.TAM: AMU accesses below EL3 trap to EL3
    msr S3_6_C1_C1_2, x0
    mov x0, #((1 << 10) | (1 << 0) | 0x30)  // SCR_EL3: RW (AArch64 below), NS, RES1 [5:4]
    msr S3_6_C1_C1_0, x0
    mov x0, #0x3c5                 // SPSR_EL3: EL1h, DAIF masked
    msr S3_6_C4_C0_0, x0
    adr x0, el1_entry
    msr S3_6_C4_C0_1, x0           // ELR_EL3
    mov x20, #0                    // phase, read by the EL3 handler
    eret

el1_entry:
    mrs x0, CurrentEL
    cmp x0, #(1 << 2)
    check_eq 1
    mov x20, #1
trapping:
    mrs x7, S3_3_C13_C4_0          // AMEVCNTR00_EL0: traps to EL3 (TAM)
    mov x20, #2
    mrs x0, CurrentEL              // back at EL1 after the ERET
    cmp x0, #(1 << 2)
    check_eq 2
calling:
    smc #0x5                       // to EL3, EC 0x17, ISS = imm16
    b .

    .balign 0x800
el3_vectors:
    .skip 0x400                    // current EL vectors: not expected
lower_sync:                        // VBAR_EL3 + 0x400: synchronous from a lower EL, AArch64
    mrs x10, S3_6_C5_C2_0          // ESR_EL3
    mrs x11, S3_6_C4_C0_1          // ELR_EL3
    mrs x12, S3_6_C4_C0_0          // SPSR_EL3
    mrs x13, CurrentEL
    cmp x13, #(3 << 2)
    check_eq 3
    and x12, x12, #0x3ff           // (NZCV [31:28] hold the flags of the last compare)
    cmp x12, #0x3c5                // taken from EL1h with DAIF masked
    check_eq 4
    cmp x20, #1
    b.ne smc_check
    // EC 0x18, IL, ISS: Op0 3, Op2 0, Op1 3, CRn 13, Rt 7, CRm 4, Direction 1 (read)
    ldr x14, =((0x18 << 26) | (1 << 25) | (3 << 20) | (0 << 17) | (3 << 14) | (13 << 10) | (7 << 5) | (4 << 1) | 1)
    cmp x10, x14
    check_eq 5
    adr x14, trapping              // ELR: the trapping instruction
    cmp x11, x14
    check_eq 6
    add x11, x11, #4               // return past it
    msr S3_6_C4_C0_1, x11
    eret
smc_check:
    ldr x14, =((0x17 << 26) | (1 << 25) | 5)
    cmp x10, x14
    check_eq 7
    adr x14, calling + 4           // ELR: the instruction after the SMC
    cmp x11, x14
    check_eq 8
    mov x9, #0
    semihost_exit x9
