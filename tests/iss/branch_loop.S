// Exactness across taken branches: INST_RETIRED (AMEVCNTR02_EL0) read around a counted loop
// whose back-branch chains one translation block to the next. In the reference mode the engine
// stops before every block; each branch must retire once (a stop that left the PC on the branch
// ran it again: the loop never ended).
#include "common.inc"
.globl _start
_start:
    mov x0, #0xf
    msr S3_3_C13_C2_5, x0      // AMCNTENSET0_EL0: enable the four architected counters
    mov x4, #50
    mrs x1, S3_3_C13_C4_2      // AMEVCNTR02_EL0 INST_RETIRED (read 1)
loop:
    cmp x4, #100
    b.eq 2f                    // never taken: falls through into the next one-branch block
    b.hi 2f                    // never taken
    subs x4, x4, #1
    b.ne loop                  // taken 49 times, falls through once
    b 1f                       // an unconditional branch to the next block
1:  mrs x2, S3_3_C13_C4_2      // read 2
    // Between the reads: read 1, 50 x (CMP, B.EQ, B.HI, SUBS, B.NE) and the B retire: 1 + 250 + 1.
    sub x3, x2, x1
    cmp x3, #252
    check_eq 1
    cbnz x4, 2f                // the loop left x4 at 0

    pass_with message
2:  mov x9, #2
    semihost_exit x9
message: .asciz "branch_loop: ok\n"
