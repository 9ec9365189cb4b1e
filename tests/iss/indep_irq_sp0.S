// Independent firmware (issue 28, "Done when"): written from the Arm ARM (DDI 0487) and
// docs/firmware.md's contract alone, without reading iss/. An IRQ taken at EL3 while SPSel = 0
// (EL3t, SP_EL0 selected) goes to VBAR_EL3 + 0x080, "current EL with SP_EL0, IRQ" (D1.10.2 /
// docs/firmware.md vector offsets), with SPSR_EL3.M = 0b1100 (EL3t) and I clear, SPSel = 1 and
// SP = SP_EL3 in the handler; its ERET brings SPSel = 0 and SP_EL0 back. The line: dsu0's counter
// 0 overflowing (as tests/iss/indep_irq.S; DSU-110 TRM CLUSTERPM* encodings). The exit status
// names the failing check.
#include "common.inc"
#define SCR_EL3   S3_6_C1_C1_0
#define SPSR_EL3  S3_6_C4_C0_0
#define ELR_EL3   S3_6_C4_C0_1
#define VBAR_EL3  S3_6_C12_C0_0
#define CLUSTERPMCR_EL1        S3_0_C15_C5_0
#define CLUSTERPMCNTENSET_EL1  S3_0_C15_C5_1
#define CLUSTERPMOVSCLR_EL1    S3_0_C15_C5_4
#define CLUSTERPMSELR_EL1      S3_0_C15_C5_5
#define CLUSTERPMINTENSET_EL1  S3_0_C15_C5_6
#define CLUSTERPMXEVTYPER_EL1  S3_0_C15_C6_1
#define CLUSTERPMXEVCNTR_EL1   S3_0_C15_C6_2
#define CLUSTERPMMDCR_EL3      S3_6_C15_C6_3
#define STACK_EL0 0x80f00000
.globl _start
_start:
    adr x0, vectors
    msr VBAR_EL3, x0
    mov x0, #((1 << 10) | 0x30 | (1 << 1))
    msr SCR_EL3, x0                // RW, RES1, IRQ to EL3
    mov x20, #0
    ldr x0, =STACK_EL0
    msr SP_EL0, x0
    msr SPSel, #0
    mov x0, #1
    msr CLUSTERPMMDCR_EL3, x0
    msr CLUSTERPMSELR_EL1, xzr
    mov x0, #0x11
    msr CLUSTERPMXEVTYPER_EL1, x0
    mov x0, #-200
    msr CLUSTERPMXEVCNTR_EL1, x0
    mov x0, #1
    msr CLUSTERPMINTENSET_EL1, x0
    msr CLUSTERPMCNTENSET_EL1, x0
    msr CLUSTERPMCR_EL1, x0
    msr DAIFClr, #2
1:  cbz x20, 1b                    // the handler sets x20
    msr DAIFSet, #2
    cmp x20, #1
    check_eq 1
    mov x0, #0x3cf
    and x0, x12, x0
    cmp x0, #0x34c                 // D A F set, I clear, EL3t
    check_eq 2
    adr x0, 1b
    cmp x11, x0                    // ELR: the poll loop's instruction that was next
    check_eq 3
    mov x0, sp
    ldr x1, =STACK_EL0
    cmp x0, x1                     // SPSel 0 again: SP_EL0
    check_eq 4
    ldr x1, =0x81000000
    cmp x13, x1                    // the handler's SP: SP_EL3 (the top of DRAM, never moved)
    check_eq 5
    cmp x14, #1                    // the handler's SPSel
    check_eq 6
    mov x9, #0
    semihost_exit x9

    .balign 0x800
vectors:
    .skip 0x80
irq_current_sp0:                   // VBAR_EL3 + 0x080
    mrs x11, ELR_EL3
    mrs x12, SPSR_EL3
    mov x13, sp
    mrs x14, SPSel
    mrs x0, CLUSTERPMOVSCLR_EL1    // clear the overflow: the line falls
    msr CLUSTERPMOVSCLR_EL1, x0
    add x20, x20, #1
    eret
    .balign 0x80
    mov x9, #90                    // + 0x100: FIQ, never
    semihost_exit x9
    .balign 0x200
    mov x9, #91                    // + 0x200: synchronous with SP_EL3, never here
    semihost_exit x9
    .balign 0x80
    mov x9, #92                    // + 0x280: IRQ with SP_EL3: the wrong vector
    semihost_exit x9
