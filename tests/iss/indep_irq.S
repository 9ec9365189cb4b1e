// Independent firmware (issue 28, "Done when"): written from the Arm ARM (DDI 0487) and
// docs/firmware.md's contract alone, without reading iss/. One level-sensitive IRQ (dsu0's
// overflow, routed to cpu0 in arm-default) stays high while the CPU moves between levels; where
// and when it is taken:
// 1. WFI with PSTATE.I = 1 at EL3, SCR_EL3.IRQ = 1: the rising line is a WFI wake-up event whatever
//    PSTATE.I (Arm ARM D1.6.2 "Wait for Interrupt"): WFI completes, the IRQ is not taken, the
//    overflow flag is set; a second WFI with the line already high completes at once.
// 2. `MSR DAIFClr, #2` at EL3: taken before the next instruction (D1.3.6), VBAR_EL3 + 0x280,
//    ELR_EL3 = that instruction, SPSR_EL3 = EL3h with I clear.
// 3. SCR_EL3.IRQ = 0, Non-secure, HCR_EL2.IMO = 0: routed to EL1; at EL3 with I = 0 it is not
//    taken (routed to a lower EL: "Asynchronous exception routing").
// 4. ERET to EL1 with SPSR.I = 0: taken at the first EL1 instruction, VBAR_EL1 + 0x280 (current
//    EL), ELR_EL1 = that instruction, SPSR_EL1 = the SPSR of the ERET.
// 5. EL0 with PSTATE.I = 1: masked (target EL1, D1.3.6 masking table): not taken.
// 6. ERET from EL1 to EL0 with SPSR.I = 0: taken from EL0 at VBAR_EL1 + 0x480, ELR_EL1 = the EL0
//    instruction, SPSR_EL1.M = EL0t.
// 7. HCR_EL2.IMO = 1 and an ERET to EL1 with I = 1: the target EL2 is above EL1, so PSTATE.I does
//    not mask it: VBAR_EL2 + 0x480, ELR_EL2 = the first EL1 instruction, SPSR_EL2 = EL1h, I set.
// 8. SCR_EL3.IRQ = 1 and an ERET to EL2 with I = 1: taken at EL3 (VBAR_EL3 + 0x480), ELR_EL3 = the
//    first EL2 instruction; the handler clears the overflow flag, the line falls, nothing more.
// DSU encodings: Arm DSU-110 TRM, CLUSTERPM* registers; TF-A dsu_def.h (CLUSTERPMMDCR_EL3).
// The exit status names the failing check.
#include "common.inc"
#define SCR_EL3   S3_6_C1_C1_0
#define SPSR_EL3  S3_6_C4_C0_0
#define ELR_EL3   S3_6_C4_C0_1
#define VBAR_EL3  S3_6_C12_C0_0
#define HCR_EL2   S3_4_C1_C1_0
#define SPSR_EL2  S3_4_C4_C0_0
#define ELR_EL2   S3_4_C4_C0_1
#define ESR_EL2   S3_4_C5_C2_0
#define VBAR_EL2  S3_4_C12_C0_0
#define SP_EL2    S3_6_C4_C1_0
#define SP_EL1    S3_4_C4_C1_0
#define CLUSTERPMCR_EL1        S3_0_C15_C5_0
#define CLUSTERPMCNTENSET_EL1  S3_0_C15_C5_1
#define CLUSTERPMOVSCLR_EL1    S3_0_C15_C5_4
#define CLUSTERPMSELR_EL1      S3_0_C15_C5_5
#define CLUSTERPMINTENSET_EL1  S3_0_C15_C5_6
#define CLUSTERPMXEVTYPER_EL1  S3_0_C15_C6_1
#define CLUSTERPMXEVCNTR_EL1   S3_0_C15_C6_2
#define CLUSTERPMMDCR_EL3      S3_6_C15_C6_3
#define V_EL1_IRQ_CUR 21
#define V_EL1_IRQ_LOW 25
#define V_EL2_IRQ_LOW 41
#define V_EL3_IRQ_CUR 53
#define V_EL3_IRQ_LOW 57

.macro expect reg, value, id
    ldr x15, =\value
    cmp \reg, x15
    check_eq \id
.endm
// One IRQ more than before, at vector `vec`, with ELR = `label` and SPSR = `spsr` (but NZCV).
.macro expect_irq count, vec, label, spsr, id
    cmp x20, #\count
    check_eq \id
    cmp x13, #\vec
    check_eq (\id + 1)
    adr x15, \label
    cmp x11, x15
    check_eq (\id + 2)
    and x12, x12, #0x0fffffff      // NZCV are whatever the last compare left
    expect x12, \spsr, (\id + 3)
.endm

.macro vector_table el, name
    .balign 0x800
\name:
    .irp i, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
    .balign 0x80
    mov x0, #(16 * \el + \i)
    b common_el\el
    .endr
.endm

.globl _start
_start:
    adr x0, el3_vectors
    msr VBAR_EL3, x0
    adr x0, el2_vectors
    msr VBAR_EL2, x0
    adr x0, el1_vectors
    msr VBAR_EL1, x0
    mov x0, #((1 << 10) | 0x30 | (1 << 1))
    msr SCR_EL3, x0                // RW, RES1, IRQ to EL3; Secure
    mov x20, #0                    // IRQs taken
    mov x0, #1
    msr CLUSTERPMMDCR_EL3, x0      // SPME: count in Secure state too
    msr CLUSTERPMSELR_EL1, xzr     // counter 0
    mov x0, #0x11                  // CYCLES
    msr CLUSTERPMXEVTYPER_EL1, x0
    mov x0, #-1000
    msr CLUSTERPMXEVCNTR_EL1, x0
    mov x0, #1
    msr CLUSTERPMINTENSET_EL1, x0
    msr CLUSTERPMCNTENSET_EL1, x0
    msr CLUSTERPMCR_EL1, x0        // E: the line rises 1000 DSU cycles from now

    // 1: WFI with I = 1 (DAIF all set since reset).
    wfi
    cmp x20, #0
    check_eq 1
    mrs x0, CLUSTERPMOVSCLR_EL1
    and x0, x0, #1
    cmp x0, #1                     // woken by the overflow
    check_eq 2
    wfi                            // the line is high: completes at once
    cmp x20, #0
    check_eq 3

    // 2: unmask at EL3.
    msr DAIFClr, #2
after_clr:
    nop
    expect_irq 1, V_EL3_IRQ_CUR, after_clr, 0x34d, 4   // checks 4-7

    // 3: routed to EL1: not taken at EL3 even with I = 0.
    mov x0, #((1 << 10) | (1 << 8) | 0x30 | 1)
    msr SCR_EL3, x0                // RW, HCE, RES1, NS; IRQ = 0
    mov x0, #(1 << 31)
    msr HCR_EL2, x0                // RW; IMO = 0, TGE = 0
    msr DAIFClr, #2
    nop
    nop
    msr DAIFSet, #2
    cmp x20, #1
    check_eq 8

    // 4: ERET to EL1 with I = 0.
    ldr x0, =0x80d00000
    msr SP_EL2, x0
    ldr x0, =0x80e00000
    msr SP_EL1, x0
    mov x0, #0x345                 // D A F, EL1h
    msr SPSR_EL3, x0
    adr x0, el1_first
    msr ELR_EL3, x0
    eret
el1_first:
    nop
    expect_irq 2, V_EL1_IRQ_CUR, el1_first, 0x345, 10  // 10-13

    // 5: EL0 with I = 1.
    ldr x0, =0x80f00000
    msr SP_EL0, x0
    mov x0, #0x080                 // EL0t, I
    msr SPSR_EL1, x0
    adr x0, el0_masked
    msr ELR_EL1, x0
    adr x19, el1_unmasked_eret     // the EL1 SVC handler resumes there
    mov x18, #0x3c5
    eret
el0_masked:
    nop
    nop
    nop
    cmp x20, #2
    check_eq 14
    svc #1

    // 6: ERET to EL0 with I = 0.
el1_unmasked_eret:
    mov x0, #0x000                 // EL0t, nothing masked
    msr SPSR_EL1, x0
    adr x0, el0_unmasked
    msr ELR_EL1, x0
    adr x19, el1_imo
    eret
el0_unmasked:
    nop
    expect_irq 3, V_EL1_IRQ_LOW, el0_unmasked, 0x000, 20  // 20-23
    svc #2

    // 7: HCR_EL2.IMO: an HVC asks EL2 to set it; its ERET to EL1 (I = 1) meets the IRQ.
el1_imo:
    hvc #1
after_hvc:
    nop
    expect_irq 4, V_EL2_IRQ_LOW, after_hvc, 0x3c5, 30    // 30-33
    hvc #2                         // EL2 goes on at el2_code

    // 8: SCR_EL3.IRQ: an SMC asks EL3 to set it; its ERET to EL2 (I = 1) meets the IRQ.
el2_code:
    smc #1
after_smc:
    nop
    expect_irq 5, V_EL3_IRQ_LOW, after_smc, 0x3c9, 40    // 40-43
    msr DAIFClr, #2                // the line fell: nothing more
    nop
    nop
    cmp x20, #5
    check_eq 44
    mov x9, #0
    semihost_exit x9

// IRQ: record ELR, SPSR and the vector, count, and return masked (EL1), with IMO cleared (EL2),
// masked or with the line cleared (EL3).
.macro irq_record elr_reg, spsr_reg
    mrs x11, \elr_reg
    mrs x12, \spsr_reg
    mov x13, x0
    add x20, x20, #1
.endm

common_el1:
    and x1, x0, #15
    cmp x1, #5
    b.eq 1f
    cmp x1, #9
    b.eq 1f
    cmp x0, #24                    // lower EL synchronous: an SVC from EL0
    b.ne unexpected
    msr ELR_EL1, x19
    msr SPSR_EL1, x18
    eret
1:  irq_record ELR_EL1, SPSR_EL1
    mrs x1, SPSR_EL1
    orr x1, x1, #0x80
    msr SPSR_EL1, x1
    eret

common_el2:
    cmp x0, #V_EL2_IRQ_LOW
    b.ne 1f
    irq_record ELR_EL2, SPSR_EL2
    mrs x1, HCR_EL2
    bic x1, x1, #(1 << 4)          // IMO off: the line is EL1's again (and masked there)
    msr HCR_EL2, x1
    eret
1:  cmp x0, #40                    // lower EL synchronous: HVC
    b.ne unexpected
    mrs x1, ESR_EL2
    and x1, x1, #0xffff
    cmp x1, #1
    b.ne 2f
    mrs x1, HCR_EL2
    orr x1, x1, #(1 << 4)          // IMO
    msr HCR_EL2, x1
    eret
2:  adr x1, el2_code
    msr ELR_EL2, x1
    mov x1, #0x3c9                 // EL2h, DAIF all set
    msr SPSR_EL2, x1
    eret

common_el3:
    cmp x0, #V_EL3_IRQ_CUR
    b.ne 1f
    irq_record ELR_EL3, SPSR_EL3
    mrs x1, SPSR_EL3
    orr x1, x1, #0x80
    msr SPSR_EL3, x1
    eret
1:  cmp x0, #V_EL3_IRQ_LOW
    b.ne 2f
    irq_record ELR_EL3, SPSR_EL3
    mrs x1, CLUSTERPMOVSCLR_EL1    // as Linux's arm_dsu_pmu: write the flags back
    msr CLUSTERPMOVSCLR_EL1, x1
    eret
2:  cmp x0, #56                    // lower EL synchronous: SMC from EL2
    b.ne unexpected
    mrs x1, SCR_EL3
    orr x1, x1, #(1 << 1)          // IRQ
    msr SCR_EL3, x1
    eret

unexpected:                        // exit 100 + vector id
    add x9, x0, #100
    semihost_exit x9

    vector_table 1, el1_vectors
    vector_table 2, el2_vectors
    vector_table 3, el3_vectors
