// Independent firmware (issue 28, "Done when"): written from the Arm ARM (DDI 0487) and
// docs/firmware.md's contract alone, without reading iss/. Exception entry and return in detail:
// - the initial state the contract promises (EL3, DAIF all set, SPSel 1, NZCV 0, SP_EL3 at the top
//   of DRAM, 0x81000000);
// - SPSel (Arm ARM C5.2 "SPSel", D1.2.2 "The stack pointer registers"): with SPSel = 0 the SP is
//   SP_EL0; an SVC at EL3 with SP_EL0 selected is taken at VBAR_EL3 + 0x000 (D1.10.2), with
//   SPSel = 1 and the SP of SP_EL3 on entry, SPSR_EL3.M = EL3t (0b1100); ERET restores SPSel = 0,
//   NZCV and DAIF from SPSR_EL3 (D1.11 "Exception return");
// - nested exceptions EL0 -> EL1 (SVC) -> EL2 (HVC) -> EL3 (SMC) and back by ERET: at each level
//   ESR_ELx (D17.2.37: EC 0x15/0x16/0x17, IL = 1, ISS = imm16), ELR_ELx = the instruction after
//   the call, SPSR_ELx = NZCV + DAIF + M[3:0] of the level below, CurrentEL, DAIF all set and
//   SPSel = 1 on entry, the level's own SP_ELx; on the way back each ERET restores NZCV and the
//   registers of the lower levels are still those of their own exception (an exception to EL3
//   leaves ELR_EL2/SPSR_EL2/ESR_EL2 alone).
// Each check exits with its own status (semihost_exit), so a failure names the check.
#include "common.inc"
#define SCR_EL3   S3_6_C1_C1_0
#define SPSR_EL3  S3_6_C4_C0_0
#define ELR_EL3   S3_6_C4_C0_1
#define ESR_EL3   S3_6_C5_C2_0
#define VBAR_EL3  S3_6_C12_C0_0
#define HCR_EL2   S3_4_C1_C1_0
#define SPSR_EL2  S3_4_C4_C0_0
#define ELR_EL2   S3_4_C4_C0_1
#define ESR_EL2   S3_4_C5_C2_0
#define VBAR_EL2  S3_4_C12_C0_0
#define SP_EL2    S3_6_C4_C1_0
#define SP_EL1    S3_4_C4_C1_0
#define STACK_EL0 0x80f00000
#define STACK_EL1 0x80e00000
#define STACK_EL2 0x80d00000
#define STACK_EL3_ALT 0x80c00000

// Compare a register with an immediate loaded by the assembler (ldr =), exit `id` when unequal.
.macro expect reg, value, id
    ldr x15, =\value
    cmp \reg, x15
    check_eq \id
.endm

.globl _start
_start:
    // 1-5: the initial state (docs/firmware.md "Initial state"); NZCV first, before any compare.
    mrs x3, NZCV
    mrs x0, CurrentEL
    expect x0, 0xc, 1
    mrs x0, DAIF
    expect x0, 0x3c0, 2
    mrs x0, SPSel
    expect x0, 1, 3
    expect x3, 0, 4
    mov x0, sp
    expect x0, 0x81000000, 5

    adr x0, el3_vectors
    msr VBAR_EL3, x0
    mov x21, #0                    // which stage the EL3 vectors serve

    // 6-16: SPSel at EL3 and an SVC taken with SP_EL0 selected.
    ldr x0, =STACK_EL3_ALT
    msr SP_EL0, x0
    msr SPSel, #0
    mrs x0, SPSel
    expect x0, 0, 6
    mov x0, sp
    expect x0, STACK_EL3_ALT, 7
    mov x0, #0xa0000000            // N and C
    msr NZCV, x0
    msr DAIFClr, #6                // A and I clear: DAIF = D, F (SCR_EL3.IRQ = 0: no IRQ at EL3)
    mov x21, #1
    svc #0x11
after_svc_el3:
    // Back from ERET (checks 8-13 ran in the handler): SPSel, SP, NZCV, DAIF restored.
    mrs x0, NZCV
    expect x0, 0xa0000000, 14
    mrs x0, DAIF
    expect x0, 0x240, 15
    mrs x0, SPSel
    expect x0, 0, 16
    mov x0, sp
    expect x0, STACK_EL3_ALT, 17
    msr DAIFSet, #0xf
    msr SPSel, #1
    mov x0, sp
    expect x0, 0x81000000, 18

    // Down to EL2: SCR_EL3 = RW | HCE | RES1 [5:4] | NS.
    mov x0, #((1 << 10) | (1 << 8) | 0x30 | 1)
    msr SCR_EL3, x0
    ldr x0, =STACK_EL2
    msr SP_EL2, x0
    ldr x0, =(0x40000000 | 0x3c9)  // Z, DAIF masked, EL2h
    msr SPSR_EL3, x0
    adr x0, el2_entry
    msr ELR_EL3, x0
    mov x21, #2
    eret

el2_entry:
    mrs x0, NZCV
    expect x0, 0x40000000, 21
    mrs x0, CurrentEL
    expect x0, 0x8, 20
    mrs x0, DAIF
    expect x0, 0x3c0, 22
    mrs x0, SPSel
    expect x0, 1, 23
    mov x0, sp
    expect x0, STACK_EL2, 24
    adr x0, el2_vectors
    msr VBAR_EL2, x0
    mov x0, #(1 << 31)             // HCR_EL2.RW
    msr HCR_EL2, x0
    ldr x0, =STACK_EL1
    msr SP_EL1, x0
    mov x0, #0x3c5                 // EL1h, DAIF masked
    msr SPSR_EL2, x0
    adr x0, el1_entry
    msr ELR_EL2, x0
    eret

el1_entry:
    mrs x0, CurrentEL
    expect x0, 0x4, 25
    mov x0, sp
    expect x0, STACK_EL1, 26
    adr x0, el1_vectors
    msr VBAR_EL1, x0
    ldr x0, =STACK_EL0
    msr SP_EL0, x0
    mov x0, #0x0c0                 // EL0t, I and F masked
    msr SPSR_EL1, x0
    adr x0, el0_entry
    msr ELR_EL1, x0
    eret

el0_entry:
    mrs x0, NZCV
    expect x0, 0, 28
    mov x0, sp
    expect x0, STACK_EL0, 27
    mov x0, #0x90000000            // N and V
    msr NZCV, x0
    mov x22, #0x5a                 // must survive three exceptions and three ERETs
    svc #0x21
after_svc_el0:
    mrs x0, NZCV
    expect x0, 0x90000000, 29
    mov x0, sp
    expect x0, STACK_EL0, 30
    cmp x22, #0x5a
    check_eq 31
    svc #0x30                      // done: EL1 exits
el0_done:
    b .

// ---------------------------------------------------------------------------------------------
    .balign 0x800
el1_vectors:
    .skip 0x400
el1_lower_sync:                    // VBAR_EL1 + 0x400
    mrs x0, ESR_EL1
    and x1, x0, #0xffff
    cmp x1, #0x30
    b.eq el1_finish
    expect x0, 0x56000021, 40      // EC 0x15, IL, imm16 0x21
    mrs x0, ELR_EL1
    adr x1, after_svc_el0
    cmp x0, x1
    check_eq 41
    mrs x0, SPSR_EL1
    expect x0, 0x900000c0, 42      // N V, I F, EL0t
    mrs x0, CurrentEL
    expect x0, 0x4, 43
    mrs x0, DAIF
    expect x0, 0x3c0, 44
    mrs x0, SPSel
    expect x0, 1, 45
    mov x0, sp
    expect x0, STACK_EL1, 46
    mov x0, #0x20000000            // C
    msr NZCV, x0
    hvc #0x22
after_hvc_el1:
    mrs x0, NZCV
    expect x0, 0x20000000, 47
    mrs x0, CurrentEL
    expect x0, 0x4, 48
    // The EL1 exception registers are still the SVC's.
    mrs x0, ESR_EL1
    expect x0, 0x56000021, 49
    mrs x0, ELR_EL1
    adr x1, after_svc_el0
    cmp x0, x1
    check_eq 50
    mrs x0, SPSR_EL1
    expect x0, 0x900000c0, 51
    mov x0, sp
    expect x0, STACK_EL1, 52
    eret
el1_finish:
    mrs x0, ELR_EL1
    adr x1, el0_done
    cmp x0, x1
    check_eq 53
    mov x9, #0
    semihost_exit x9

// ---------------------------------------------------------------------------------------------
    .balign 0x800
el2_vectors:
    .skip 0x400
el2_lower_sync:                    // VBAR_EL2 + 0x400: HVC #0x22 from EL1
    mrs x0, ESR_EL2
    expect x0, 0x5a000022, 60      // EC 0x16, IL, imm16 0x22
    mrs x0, ELR_EL2
    adr x1, after_hvc_el1
    cmp x0, x1
    check_eq 61
    mrs x0, SPSR_EL2
    expect x0, 0x200003c5, 62      // C, DAIF, EL1h
    mrs x0, CurrentEL
    expect x0, 0x8, 63
    mov x0, sp
    expect x0, STACK_EL2, 64
    mov x0, #0x60000000            // Z and C
    msr NZCV, x0
    mov x21, #3
    smc #0x23
after_smc_el2:
    mrs x0, NZCV
    expect x0, 0x60000000, 65
    mrs x0, CurrentEL
    expect x0, 0x8, 66
    mrs x0, ESR_EL2
    expect x0, 0x5a000022, 67
    mrs x0, ELR_EL2
    adr x1, after_hvc_el1
    cmp x0, x1
    check_eq 68
    mrs x0, SPSR_EL2
    expect x0, 0x200003c5, 69
    mov x0, sp
    expect x0, STACK_EL2, 70
    eret

// ---------------------------------------------------------------------------------------------
    .balign 0x800
el3_vectors:
el3_current_sp0_sync:              // VBAR_EL3 + 0x000: SVC #0x11 at EL3 with SP_EL0
    cmp x21, #1
    check_eq 8
    mrs x0, ESR_EL3
    expect x0, 0x56000011, 9
    mrs x0, ELR_EL3
    adr x1, after_svc_el3
    cmp x0, x1
    check_eq 10
    mrs x0, SPSR_EL3
    expect x0, 0xa000024c, 11      // N C, D F, EL3t
    mrs x0, SPSel
    expect x0, 1, 12
    mov x0, sp
    expect x0, 0x81000000, 13
    mrs x0, DAIF
    expect x0, 0x3c0, 19
    mov x0, #0                     // flags changed here; ERET must restore them
    msr NZCV, x0
    eret
    .balign 0x200
el3_current_spx_sync:              // VBAR_EL3 + 0x200: nothing is expected here
    mov x9, #90
    semihost_exit x9
    .balign 0x200
el3_lower_sync:                    // VBAR_EL3 + 0x400: SMC #0x23 from EL2
    cmp x21, #3
    check_eq 80
    mrs x0, ESR_EL3
    expect x0, 0x5e000023, 81      // EC 0x17, IL, imm16 0x23
    mrs x0, ELR_EL3
    adr x1, after_smc_el2
    cmp x0, x1
    check_eq 82
    mrs x0, SPSR_EL3
    expect x0, 0x600003c9, 83      // Z C, DAIF, EL2h
    mrs x0, CurrentEL
    expect x0, 0xc, 84
    mov x0, sp                     // SP_EL3 as EL3 left it
    expect x0, 0x81000000, 85
    mrs x0, SPSel
    expect x0, 1, 86
    eret
