// Exactness: INST_RETIRED (AMEVCNTR02_EL0) and CPU_CYCLES (AMEVCNTR00_EL0) read around a block of
// a known number of instructions, at EL3 from reset (Arm ARM D2 "Activity Monitors").
#include "common.inc"
.globl _start
_start:
    mov x0, #0xf
    msr S3_3_C13_C2_5, x0      // AMCNTENSET0_EL0: enable the four architected counters
    mrs x1, S3_3_C13_C4_2      // AMEVCNTR02_EL0 INST_RETIRED (read 1)
    mrs x5, S3_3_C13_C4_0      // AMEVCNTR00_EL0 CPU_CYCLES (read 1)
    .rept 100
    nop
    .endr
    mrs x2, S3_3_C13_C4_2      // read 2
    mrs x6, S3_3_C13_C4_0
    // Between the two INST_RETIRED reads: read 1 itself, the CPU_CYCLES read and 100 NOPs retire.
    sub x3, x2, x1
    cmp x3, #102
    check_eq 1
    // One cycle per instruction (cycles_per_instruction 1): CPU_CYCLES advances by as many.
    sub x7, x6, x5
    cmp x7, #102
    check_eq 2
    pass_with message
message: .asciz "amu_count: ok\n"
