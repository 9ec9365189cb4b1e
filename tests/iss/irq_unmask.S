// A pending IRQ is taken at the first instruction boundary after software unmasks it (Arm ARM
// D1.3.6 and R_RBZYL in "Context synchronization event": a pending unmasked interrupt is taken
// before the instruction after the one that unmasked it executes; DAIF writes by MSR (immediate)
// take effect at once for interrupts). issue 28's reproducer: the DSU's overflow line rises while
// PSTATE.I = 1 and the CPU spins; then software unmasks it in four ways, and the IRQ must be
// taken with ELR_EL3 = the instruction right after the unmasking one:
//   1. MSR DAIFClr, #2 ; ISB ; MSR DAIFSet, #2        -> ELR = the ISB
//   2. MSR DAIF, xzr ; NOP ; MSR DAIFSet, #2          -> ELR = the NOP
//   3. ERET to EL3 with SPSR_EL3.I = 0                -> ELR = the ERET's target
//   4. MSR DAIFClr, #2 then poll a flag in memory     -> ELR = the first poll load
// The handler clears the overflow flag, re-arms counter 0 to overflow 100 CPU cycles later and
// returns with PSTATE.I = 1, so each scenario starts with the line low and it rises while masked.
// DSU encodings: Arm DSU-110 TRM, CLUSTERPM* registers; TF-A CLUSTERPMMDCR_EL3 (dsu_def.h).
#include "common.inc"
#define CLUSTERPMCR_EL1        S3_0_C15_C5_0
#define CLUSTERPMCNTENSET_EL1  S3_0_C15_C5_1
#define CLUSTERPMOVSCLR_EL1    S3_0_C15_C5_4
#define CLUSTERPMSELR_EL1      S3_0_C15_C5_5
#define CLUSTERPMINTENSET_EL1  S3_0_C15_C5_6
#define CLUSTERPMXEVTYPER_EL1  S3_0_C15_C6_1
#define CLUSTERPMXEVCNTR_EL1   S3_0_C15_C6_2
#define CLUSTERPMMDCR_EL3      S3_6_C15_C6_3
#define ELR_EL3                S3_6_C4_C0_1
#define SPSR_EL3               S3_6_C4_C0_0
// Spin 2000 instructions with the line rising meanwhile (100 CPU cycles after arming).
.macro spin
    mov x3, #1000
8:  subs x3, x3, #1
    b.ne 8b
.endm
.globl _start
_start:
    adr x0, vectors
    msr S3_6_C12_C0_0, x0          // VBAR_EL3
    mov x0, #((1 << 10) | 0x30 | (1 << 1))
    msr S3_6_C1_C1_0, x0           // SCR_EL3: RW, RES1 [5:4], IRQ (taken to EL3)
    mov x0, #1
    msr CLUSTERPMMDCR_EL3, x0      // SPME: count in Secure state too
    msr CLUSTERPMSELR_EL1, xzr     // counter 0
    mov x0, #0x11                  // CYCLES
    msr CLUSTERPMXEVTYPER_EL1, x0
    mov x0, #-50
    msr CLUSTERPMXEVCNTR_EL1, x0
    mov x0, #1
    msr CLUSTERPMINTENSET_EL1, x0
    msr CLUSTERPMCNTENSET_EL1, x0
    msr CLUSTERPMCR_EL1, x0        // E: counting starts; PSTATE.I = 1 since reset
    mov x20, #0                    // interrupts taken
    adr x19, elrs                  // the handler stores ELR_EL3 at [x19, x20 * 8]
    // 1.
    spin
    cmp x20, #0                    // masked: not taken while spinning
    check_eq 1
    msr daifclr, #2
expect1:
    isb
    msr daifset, #2
    // 2.
    spin
    msr daif, xzr
expect2:
    nop
    msr daifset, #2
    // 3.
    spin
    adr x0, expect3
    msr ELR_EL3, x0
    mov x0, #0x34d                 // EL3h, D A F set, I clear
    msr SPSR_EL3, x0
    eret
expect3:
    msr daifset, #2
    // 4.
    spin
    adr x4, flag
    msr daifclr, #2
expect4:
    ldr w1, [x4]
    cbz w1, expect4
    msr daifset, #2
    cmp x20, #4
    check_eq 2
    ldr x0, [x19]
    adr x1, expect1
    cmp x0, x1
    check_eq 11
    ldr x0, [x19, #8]
    adr x1, expect2
    cmp x0, x1
    check_eq 12
    ldr x0, [x19, #16]
    adr x1, expect3
    cmp x0, x1
    check_eq 13
    ldr x0, [x19, #24]
    adr x1, expect4
    cmp x0, x1
    check_eq 14
    mov x9, #0
    semihost_exit x9

    .balign 8
elrs: .quad 0, 0, 0, 0, 0, 0
flag: .word 0

    .balign 0x800
vectors:
    .skip 0x280
irq_current_spx:                   // VBAR_EL3 + 0x280
    mrs x0, ELR_EL3
    str x0, [x19, x20, lsl #3]
    add x20, x20, #1
    adr x1, flag
    mov w2, #1
    cmp x20, #4                    // the fourth: set the flag the loop polls
    b.ne 1f
    str w2, [x1]
1:  mrs x0, CLUSTERPMOVSCLR_EL1
    msr CLUSTERPMOVSCLR_EL1, x0    // the level falls
    msr CLUSTERPMSELR_EL1, xzr
    mov x0, #-50
    msr CLUSTERPMXEVCNTR_EL1, x0   // rises again 100 CPU cycles from now
    mrs x0, SPSR_EL3
    orr x0, x0, #0x80              // return with PSTATE.I = 1
    msr SPSR_EL3, x0
    eret
