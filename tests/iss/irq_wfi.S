// WFI stops the AMU and an overflow interrupt wakes it: dsu0's counter 0 counts CYCLES from
// 2^64 - 1000 (the DSU-110's event counters are 64 bits), nCLUSTERPMUIRQ (dsu0_pmu_irq, routed to
// cpu0's IRQ in arm-default) rises at the wrap, 1000 DSU cycles (2000 CPU cycles) later, while
// cpu0 sleeps in WFI at EL3 with PSTATE.I clear. The IRQ is taken to VBAR_EL3 + 0x280 (current
// EL with SP_ELx, IRQ: Arm ARM D1.10.2) with ELR_EL3 = the instruction after the WFI and
// SPSR_EL3 = EL3h with D, A, F set and I clear; the handler clears the overflow flag the way
// Linux's arm_dsu_pmu does (read CLUSTERPMOVSCLR, write it back), the level falls and the IRQ
// is taken once. In WFI the CPU neither retires instructions nor counts cycles
// (docs/firmware.md "Time"): from the read of CPU_CYCLES before the WFI to the handler's first
// read, three instructions retire (two reads and the WFI), one cycle each.
// DSU encodings: Arm DSU-110 TRM, CLUSTERPM* registers; TF-A CLUSTERPMMDCR_EL3 (dsu_def.h).
#include "common.inc"
#define CLUSTERPMCR_EL1        S3_0_C15_C5_0
#define CLUSTERPMCNTENSET_EL1  S3_0_C15_C5_1
#define CLUSTERPMOVSCLR_EL1    S3_0_C15_C5_4
#define CLUSTERPMSELR_EL1      S3_0_C15_C5_5
#define CLUSTERPMINTENSET_EL1  S3_0_C15_C5_6
#define CLUSTERPMCCNTR_EL1     S3_0_C15_C6_0
#define CLUSTERPMXEVTYPER_EL1  S3_0_C15_C6_1
#define CLUSTERPMXEVCNTR_EL1   S3_0_C15_C6_2
#define CLUSTERPMMDCR_EL3      S3_6_C15_C6_3
#define AMCNTENSET0_EL0        S3_3_C13_C2_5
#define AMEVCNTR00_EL0         S3_3_C13_C4_0
#define AMEVCNTR02_EL0         S3_3_C13_C4_2
.globl _start
_start:
    adr x0, vectors
    msr S3_6_C12_C0_0, x0          // VBAR_EL3
    mov x0, #((1 << 10) | 0x30 | (1 << 1))
    msr S3_6_C1_C1_0, x0           // SCR_EL3: RW, RES1 [5:4], IRQ (taken to EL3; else EL1 gets it, never at EL3)
    mov x0, #0xf
    msr AMCNTENSET0_EL0, x0        // the four architected AMU counters
    mov x0, #1
    msr CLUSTERPMMDCR_EL3, x0      // SPME: count in Secure state too
    msr CLUSTERPMSELR_EL1, xzr     // counter 0
    mov x0, #0x11                  // CYCLES
    msr CLUSTERPMXEVTYPER_EL1, x0
    mov x0, #-1000
    msr CLUSTERPMXEVCNTR_EL1, x0
    mov x0, #1
    msr CLUSTERPMINTENSET_EL1, x0  // counter 0's overflow interrupt
    ldr x0, =((1 << 31) | 1)
    msr CLUSTERPMCNTENSET_EL1, x0  // the cycle counter and counter 0
    mov x0, #1
    msr CLUSTERPMCR_EL1, x0        // E: counting starts
    mov x20, #0                    // interrupts taken
    mrs x8, CLUSTERPMCCNTR_EL1
    msr daifclr, #2                // PSTATE.I = 0
    mrs x5, AMEVCNTR00_EL0
    mrs x6, AMEVCNTR02_EL0
    wfi
after_wfi:
    msr daifset, #2
    cmp x20, #1                    // one interrupt: the level fell when the flag was cleared
    check_eq 1
    sub x0, x7, x5
    cmp x0, #3
    check_eq 2
    sub x0, x9, x6
    cmp x0, #3
    check_eq 3
    sub x0, x10, x8
    cmp x0, #1000                  // the DSU counted the time asleep
    cset x0, hs
    cmp x0, #1
    check_eq 4
    adr x0, after_wfi
    cmp x11, x0
    check_eq 5
    mov x0, #0x3cf                 // D A I F and M[3:0]
    and x0, x12, x0
    cmp x0, #0x34d                 // EL3h, D A F set, I clear
    check_eq 6
    and x0, x13, #1
    cmp x0, #1
    check_eq 7
    mrs x0, CLUSTERPMOVSCLR_EL1
    cmp x0, #0
    check_eq 8
    mov x9, #0
    semihost_exit x9

    .balign 0x800
vectors:
    .skip 0x280
irq_current_spx:                   // VBAR_EL3 + 0x280
    mrs x7, AMEVCNTR00_EL0
    mrs x9, AMEVCNTR02_EL0
    mrs x10, CLUSTERPMCCNTR_EL1
    mrs x11, S3_6_C4_C0_1          // ELR_EL3
    mrs x12, S3_6_C4_C0_0          // SPSR_EL3
    mrs x13, CLUSTERPMOVSCLR_EL1
    msr CLUSTERPMOVSCLR_EL1, x13
    add x20, x20, #1
    eret
