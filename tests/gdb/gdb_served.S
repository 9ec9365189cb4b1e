// The firmware of the served-instruction GDB test (check_gdb_served.py, docs/debugging.md): steps
// and breakpoints around instructions the ISS executes itself, not the engine (MRS/MSR of the AMU's
// registers, which the gate owns; WFE; ERET; the SVC's exception entry). Each labelled breakpoint
// target is the first instruction of an engine run that starts for a reason other than resuming
// from a breakpoint there. At EL3 from reset, as tests/iss/amu_count.S.
#include "../iss/common.inc"
.globl _start
_start:
    mov x0, #0xf
.globl served_msr
served_msr:
    msr S3_3_C13_C2_5, x0      // AMCNTENSET0_EL0 (ISS): the step from _start stops here
.globl after_msr
after_msr:
    nop
    mrs x1, S3_3_C13_C4_2      // AMEVCNTR02_EL0 (ISS)
.globl second_mrs
second_mrs:
    mrs x5, S3_3_C13_C4_0      // AMEVCNTR00_EL0 (ISS) right after an ISS instruction
    nop
    mrs x6, S3_3_C13_C4_0      // AMEVCNTR00_EL0 (ISS)
.globl after_mrs
after_mrs:
    add x21, x21, #1           // x21 = 1: the engine instruction after an MRS ran once
    wfe                        // the ISS's: completes at once (no event register is modelled)
.globl after_wfe
after_wfe:
    nop
    adr x0, vectors
    msr S3_6_C12_C0_0, x0      // VBAR_EL3
    svc #3                     // taken to EL3, current EL with SP_ELx: VBAR_EL3 + 0x200
.globl after_svc
after_svc:
    add x21, x21, #1           // x21 = 2 (the handler's ERET returns here)
    cmp x22, #1                // the handler ran once
    check_eq 1
    pass_with message
message: .asciz "gdb_served: pass\n"

    .balign 0x800
vectors:
    .skip 0x200
.globl svc_vector
svc_vector:
    add x22, x22, #1
    eret                       // ELR_EL3 = after_svc (the SVC's preferred return, Arm ARM D1.10.1)
