// Independent firmware (issue 28, "Done when"): written from the Arm ARM (DDI 0487) and
// docs/firmware.md's contract alone, without reading iss/. Edge cases of exception generation:
// - at EL3: HVC with SCR_EL3.HCE = 1 and SMC are taken to EL3 itself (Arm ARM C6.2 HVC/SMC,
//   AArch64.CallHypervisor: "if PSTATE.EL == EL3 then TakeException(EL3)"); SMC with SCR_EL3.SMD = 1
//   is UNDEFINED; BRK #3 is a Breakpoint instruction exception, EC 0x3C, ISS = imm16, ELR = the BRK
//   (D2.x "Breakpoint instruction exceptions", ESR_ELx EC 0b111100); HLT #4 with halting not
//   allowed (no external debugger: EDSCR.HDE = 0) is UNDEFINED (C6.2 HLT);
// - at Secure EL1 (SCR_EL3.NS = 0, no Secure EL2): EL2 is not enabled, so HVC is UNDEFINED even with
//   HCE = 1 (C6.2 HVC: "PSTATE.EL == EL1 && !EL2Enabled()"), and HCR_EL2's TSC and TGE have no
//   effect (EL2Enabled() is false): SMC goes to EL3, an EL0 SVC to EL1;
// - SPSel = 0 at EL1: an SVC is taken at VBAR_EL1 + 0x000 with SPSR_EL1.M = EL1t;
// - EL0: MRS CurrentEL is UNDEFINED (C5.2 CurrentEL: "if PSTATE.EL == EL0 then UNDEFINED");
// - an illegal exception return (D1.11.4 "Illegal return events": ERET from EL1 to EL2h, a higher
//   EL): PSTATE.EL stays EL1, PSTATE.IL = 1, PC = ELR_EL1, and the next instruction takes an
//   Illegal Execution state exception: EC 0x0E, IL 1, ELR = that instruction, SPSR_EL1.IL = 1,
//   SPSR_EL1.M = EL1h;
// - a branch to a misaligned address: PC Alignment fault (D1.4.10.1), EC 0x22, IL 1, ELR and FAR =
//   the misaligned PC, taken to the current EL.
// The exit status is 10 x stage + the failing check.
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
#define SP_EL1    S3_4_C4_C1_0
#define UNDEF     0x02000000
#define ESR_SVC(i) (0x56000000 | (i))
#define ESR_HVC(i) (0x5a000000 | (i))
#define ESR_SMC(i) (0x5e000000 | (i))
#define ESR_BRK(i) (0xf2000000 | (i))
#define ESR_ILLEGAL 0x3a000000
#define ESR_PC_ALIGN 0x8a000000
#define FAR_EL3   S3_6_C6_C0_0
#define V_EL1_SP0 16
#define V_EL1_CUR 20
#define V_EL1_LOW 24
#define V_EL3_CUR 52
#define V_EL3_LOW 56

#include "indep_exceptions.inc"

.globl _start
_start:
    adr x0, el3_vectors
    msr VBAR_EL3, x0
    adr x0, el2_vectors
    msr VBAR_EL2, x0
    adr x0, el1_vectors
    msr VBAR_EL1, x0
    mov x0, #((1 << 10) | (1 << 8) | 0x30)  // SCR_EL3: RW, HCE, RES1; Secure; SMD = 0
    msr SCR_EL3, x0
    provoke 1, V_EL3_CUR, ESR_HVC(1), 13, 1, 0, hvc #1
    provoke 2, V_EL3_CUR, ESR_SMC(2), 13, 1, 0, smc #2
    provoke 3, V_EL3_CUR, ESR_BRK(3), 13, 0, 0, brk #3
    provoke 4, V_EL3_CUR, UNDEF, 13, 0, 0, hlt #4
    // 21: BR to a misaligned address: PC Alignment fault (D1.4.10.1), EC 0x22, IL 1, ELR and
    // FAR_EL3 = the misaligned PC; the handler resumes at pc_back.
    adr x1, pc_target
    add x1, x1, #2
    mov x21, #21
    mov x26, #V_EL3_CUR
    ldr x23, =ESR_PC_ALIGN
    mov x27, #13
    mov x22, #0
    mov x24, x1
    adr x28, pc_back
    mov x20, #0
    br x1
pc_target:
    nop
    nop
pc_back:
    cmp x20, #1
    check_eq 219
    mrs x0, FAR_EL3
    cmp x0, x24
    check_eq 218
    mrs x0, SCR_EL3
    orr x0, x0, #(1 << 7)          // SMD
    msr SCR_EL3, x0
    provoke 5, V_EL3_CUR, UNDEF, 13, 0, 0, smc #5
    mrs x0, SCR_EL3
    bic x0, x0, #(1 << 7)
    msr SCR_EL3, x0
    ldr x0, =((1 << 31) | (1 << 27) | (1 << 19) | (1 << 4)) // HCR_EL2: RW, TGE, TSC, IMO
    msr HCR_EL2, x0
    ldr x0, =0x80e00000
    msr SP_EL1, x0
    mov x0, #0x3c5                 // Secure EL1h
    msr SPSR_EL3, x0
    adr x0, sel1
    msr ELR_EL3, x0
    eret

sel1:
    provoke 6, V_EL1_CUR, UNDEF, 5, 0, 0, hvc #6
    provoke 7, V_EL3_LOW, ESR_SMC(7), 5, 1, 0, smc #7
    ldr x0, =0x80f00000
    msr SP_EL0, x0
    msr SPSel, #0
    provoke 8, V_EL1_SP0, ESR_SVC(8), 4, 1, 0, svc #8
    msr SPSel, #1
    mov x0, #0x3c0                 // EL0t
    msr SPSR_EL1, x0
    adr x0, sel0
    msr ELR_EL1, x0
    eret

sel0:
    provoke 10, V_EL1_LOW, ESR_SVC(10), 0, 1, 0, svc #10
    provoke 11, V_EL1_LOW, UNDEF, 0, 0, 0, mrs x5, CurrentEL
    adr x19, el1_illegal
    provoke 12, V_EL1_LOW, ESR_SVC(12), 0, 1, 5, svc #12    // EL1: back to EL1 at x19
    b .

el1_illegal:
    mov x21, #13
    mov x26, #V_EL1_CUR
    ldr x23, =ESR_ILLEGAL
    mov x27, #5
    mov x22, #7                    // the handler checks and clears SPSR_EL1.IL
    adr x24, ill_target
    adr x28, ill_resume
    mov x20, #0
    mov x0, #0x3c9                 // EL2h: a return to a higher EL is illegal
    msr SPSR_EL1, x0
    adr x0, ill_target
    msr ELR_EL1, x0
    eret
ill_target:
    mov x9, #138                   // must not execute: the exception comes first
    semihost_exit x9
ill_resume:
    cmp x20, #1
    check_eq 139
    mrs x0, CurrentEL
    cmp x0, #4
    check_eq 140
    mov x9, #0
    semihost_exit x9

common_el1:
    handler ESR_EL1, ELR_EL1, SPSR_EL1
    cmp x22, #5
    b.ne 1f
    mov x0, #0x3c5                 // EL1h
    msr SPSR_EL1, x0
    msr ELR_EL1, x19
    eret
1:  cmp x22, #7
    b.ne 2f
    mrs x0, SPSR_EL1
    tbnz x0, #20, 3f               // IL
    mov x9, #137
    semihost_exit x9
3:  bic x0, x0, #(1 << 20)
    msr SPSR_EL1, x0
2:  eret

common_el2:
    mov x9, #199                   // EL2 is never entered here
    semihost_exit x9

common_el3:
    handler ESR_EL3, ELR_EL3, SPSR_EL3
    eret

    vector_table 1, el1_vectors
    vector_table 2, el2_vectors
    vector_table 3, el3_vectors
