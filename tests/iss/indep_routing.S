// Independent firmware (issue 28, "Done when"): written from the Arm ARM (DDI 0487) and
// docs/firmware.md's contract alone, without reading iss/. Where SVC, HVC, SMC and UNDEFINED
// instructions go under combinations of SCR_EL3.HCE/SMD and HCR_EL2.TSC/TGE:
// - HVC is UNDEFINED when SCR_EL3.HCE = 0 (Arm ARM C6.2 HVC: "UNDEFINED ... if EL3 is implemented
//   and SCR_EL3.HCE is 0"), at EL2 and at EL1, and always at EL0;
// - SMC is UNDEFINED at EL0 and when SCR_EL3.SMD = 1 (C6.2 SMC, AArch64.CheckForSMCUndefOrTrap),
//   except that at EL1 with HCR_EL2.TSC = 1 it traps to EL2 first (EC 0x17, ISS = imm16, ELR = the
//   SMC itself: D13.2 / HCR_EL2.TSC "this trap has priority over the SMD disable");
// - HCR_EL2.TGE routes EL0's SVC (EC 0x15) and EL0's UNDEFINED instructions (UDF, HVC, SMC, an
//   EL1 register) to EL2 (D1.10.4 / HCR_EL2.TGE), at VBAR_EL2 + 0x400 with SPSR_EL2.M = EL0t;
//   without TGE they go to EL1 at VBAR_EL1 + 0x400;
// - an UNDEFINED instruction: ESR_ELx = EC 0x00, IL 1, ISS 0 (0x02000000), ELR = the instruction;
//   SVC/HVC/SMC taken: ESR = EC 0x15/0x16/0x17, IL 1, imm16, ELR = the next instruction.
// Each provoked exception checks the vector it arrived at, ESR, ELR and SPSR.M; the exit status
// is 10 x stage + the failing check.
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
#define UNDEF     0x02000000
#define ESR_SVC(i) (0x56000000 | (i))
#define ESR_HVC(i) (0x5a000000 | (i))
#define ESR_SMC(i) (0x5e000000 | (i))
// Vector ids: 16 x EL + offset / 0x80.
#define V_EL1_CUR 20
#define V_EL1_LOW 24
#define V_EL2_CUR 36
#define V_EL2_LOW 40
#define V_EL3_LOW 56

#include "indep_exceptions.inc"

.globl _start
_start:
    adr x0, el3_vectors
    msr VBAR_EL3, x0
    mov x0, #((1 << 10) | 0x30 | 1) // SCR_EL3: RW, RES1, NS; HCE = 0, SMD = 0
    msr SCR_EL3, x0
    ldr x0, =0x80d00000
    msr SP_EL2, x0
    mov x0, #0x3c9
    msr SPSR_EL3, x0
    adr x0, el2_code
    msr ELR_EL3, x0
    eret

el2_code:
    adr x0, el2_vectors
    msr VBAR_EL2, x0
    provoke 1, V_EL2_CUR, UNDEF, 9, 0, 0, hvc #1               // HCE = 0: UNDEFINED at EL2
    provoke 2, V_EL3_LOW, ESR_SMC(2), 9, 1, 1, smc #2          // to EL3; it sets SMD and HCE
    provoke 3, V_EL2_CUR, UNDEF, 9, 0, 0, smc #3               // SMD = 1: UNDEFINED at EL2
    provoke 4, V_EL2_CUR, ESR_HVC(4), 9, 1, 0, hvc #4          // HCE = 1: HVC taken at EL2
    mov x0, #(1 << 31)             // HCR_EL2.RW
    msr HCR_EL2, x0
    ldr x0, =0x80e00000
    msr SP_EL1, x0
    mov x0, #0x3c5
    msr SPSR_EL2, x0
    adr x0, el1_code
    msr ELR_EL2, x0
    eret

el1_code:
    adr x0, el1_vectors
    msr VBAR_EL1, x0
    provoke 5, V_EL1_CUR, UNDEF, 5, 0, 0, smc #5               // SMD = 1, TSC = 0: UNDEFINED at EL1
    provoke 6, V_EL2_LOW, ESR_HVC(6), 5, 1, 2, hvc #6          // to EL2; it sets TSC
    provoke 7, V_EL2_LOW, ESR_SMC(7), 5, 0, 0, smc #7          // TSC (before SMD): trapped to EL2
    provoke 8, V_EL1_CUR, ESR_SVC(8), 5, 1, 0, svc #8          // SVC at EL1 stays at EL1
    adr x19, el0_tge
    provoke 9, V_EL2_LOW, ESR_HVC(9), 5, 1, 3, hvc #9          // EL2: TSC off, TGE on, ERET to EL0
    b .

el0_tge:                           // EL0 with HCR_EL2.TGE = 1
    provoke 10, V_EL2_LOW, ESR_SVC(10), 0, 1, 0, svc #10
    provoke 11, V_EL2_LOW, UNDEF, 0, 0, 0, udf #11
    provoke 12, V_EL2_LOW, UNDEF, 0, 0, 0, hvc #12
    provoke 13, V_EL2_LOW, UNDEF, 0, 0, 0, smc #13
    provoke 14, V_EL2_LOW, UNDEF, 0, 0, 0, mrs x5, SCTLR_EL1
    adr x19, el1_back
    provoke 15, V_EL2_LOW, ESR_SVC(15), 0, 1, 4, svc #15       // EL2: TGE off, ERET to EL1
    b .

el1_back:
    mrs x0, CurrentEL
    cmp x0, #4
    check_eq 151
    mov x0, #0x3c0
    msr SPSR_EL1, x0
    adr x0, el0_plain
    msr ELR_EL1, x0
    eret

el0_plain:                         // EL0 with TGE = 0: everything goes to EL1
    provoke 16, V_EL1_LOW, UNDEF, 0, 0, 0, hvc #16
    provoke 17, V_EL1_LOW, UNDEF, 0, 0, 0, smc #17
    provoke 18, V_EL1_LOW, UNDEF, 0, 0, 0, udf #18
    provoke 19, V_EL1_LOW, ESR_SVC(19), 0, 1, 0, svc #19
    provoke 20, V_EL1_LOW, ESR_SVC(20), 0, 1, 5, svc #20       // EL1 exits: pass
    b .

common_el1:
    handler ESR_EL1, ELR_EL1, SPSR_EL1
    cmp x22, #5
    b.ne 1f
    mov x9, #0
    semihost_exit x9
1:  eret

common_el2:
    handler ESR_EL2, ELR_EL2, SPSR_EL2
    mrs x1, HCR_EL2
    cmp x22, #2
    b.ne 1f
    orr x1, x1, #(1 << 19)         // TSC
    msr HCR_EL2, x1
    eret
1:  cmp x22, #3
    b.ne 2f
    bic x1, x1, #(1 << 19)
    orr x1, x1, #(1 << 27)         // TGE
    msr HCR_EL2, x1
    mov x0, #0x3c0                 // EL0t
    msr SPSR_EL2, x0
    msr ELR_EL2, x19
    eret
2:  cmp x22, #4
    b.ne 3f
    bic x1, x1, #(1 << 27)
    msr HCR_EL2, x1
    mov x0, #0x3c5                 // EL1h
    msr SPSR_EL2, x0
    msr ELR_EL2, x19
3:  eret

common_el3:
    handler ESR_EL3, ELR_EL3, SPSR_EL3
    cmp x22, #1
    b.ne 1f
    mrs x1, SCR_EL3
    orr x1, x1, #((1 << 7) | (1 << 8)) // SMD, HCE
    msr SCR_EL3, x1
1:  eret

    vector_table 1, el1_vectors
    vector_table 2, el2_vectors
    vector_table 3, el3_vectors
