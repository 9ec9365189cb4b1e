// Independent firmware (issue 28, "Done when"): written from the Arm ARM (DDI 0487) and
// docs/firmware.md's contract alone, without reading iss/. Data aborts on addresses outside plain
// memory and the unit windows (docs/firmware.md "Memory map": "the bus answers an address error:
// a synchronous external abort"), at EL3, EL1 and EL0, routed by HCR_EL2.TGE and SCR_EL3.EA:
// - ESR_ELx (Arm ARM D17.2.37, ISS encoding for an exception from a Data Abort): EC 0x25 from the
//   current EL, 0x24 from a lower one; IL 1; DFSC 0b010000 (synchronous External abort, not on a
//   translation table walk); WnR 1 for a store; CM 0, S1PTW 0. EA (bit 9) is IMPLEMENTATION
//   DEFINED and not checked. ISV (bit 24) may be 0 (then bits [23:14] are RES0) or 1, and then SAS
//   (access size), SSE (sign extension), SRT (the register), SF (64-bit register) and AR must
//   describe the instruction; a load/store pair or one with writeback has ISV = 0 ("ISV is 0 for
//   ... instructions with writeback, LDP/STP").
// - FAR_ELx = the faulting virtual address (= physical: no MMU here); ELR_ELx = the load or store;
//   the aborted load leaves its destination and the pre-index base unchanged (the instruction did
//   not execute).
// - Routing (docs/firmware.md table; Arm ARM D1.10.4): the current EL; EL1 from EL0; EL2 from EL0
//   with HCR_EL2.TGE; EL3 from any EL with SCR_EL3.EA.
// The exit status is 10 x case + the failing check.
#include "common.inc"
#define SCR_EL3   S3_6_C1_C1_0
#define SPSR_EL3  S3_6_C4_C0_0
#define ELR_EL3   S3_6_C4_C0_1
#define ESR_EL3   S3_6_C5_C2_0
#define FAR_EL3   S3_6_C6_C0_0
#define VBAR_EL3  S3_6_C12_C0_0
#define HCR_EL2   S3_4_C1_C1_0
#define SPSR_EL2  S3_4_C4_C0_0
#define ELR_EL2   S3_4_C4_C0_1
#define ESR_EL2   S3_4_C5_C2_0
#define FAR_EL2   S3_4_C6_C0_0
#define VBAR_EL2  S3_4_C12_C0_0
#define SP_EL1    S3_4_C4_C1_0
#define V_EL1_CUR 20
#define V_EL1_LOW 24
#define V_EL2_LOW 40
#define V_EL3_CUR 52
#define V_EL3_LOW 56
#define UNMAPPED  0x10000000   // nothing mapped (docs/firmware.md memory map)
#define GAP       0x2a020000   // right after dsu1's frame
#define PAST_CMN  0x54000000   // right after cmn0's configuration space
// Data abort ESR, ISV = 0: EC, IL, WnR, DFSC 0x10.
#define DABT(ec, wnr) (((ec) << 26) | (1 << 25) | ((wnr) << 6) | 0x10)
// ISV = 1 syndrome: ISV, SAS, SSE, SRT, SF.
#define ISV(sas, sse, srt, sf) ((1 << 24) | ((sas) << 22) | ((sse) << 21) | ((srt) << 16) | ((sf) << 15))

// Provoke a data abort: `esr` its ISV = 0 form, `isv` the ISV = 1 fields (0: ISV must be 0),
// `far` the address; the handler checks and resumes at the next instruction.
.macro abort case, vec, esr, isv, far, m, insn:vararg
    mov x21, #\case
    mov x26, #\vec
    ldr x23, =\esr
    ldr x29, =\isv
    ldr x25, =\far
    mov x27, #\m
    mov x18, #1
    mov x22, #0
    adr x24, 1f
    adr x28, 2f
    mov x20, #0
1:  \insn
2:  cmp x20, #1
    check_eq (\case * 10 + 9)
.endm
// A call (SVC/HVC/SMC) whose handler performs `action` and returns to x28 or x19.
.macro call case, vec, esr, m, action, insn:vararg
    mov x21, #\case
    mov x26, #\vec
    ldr x23, =\esr
    mov x29, #0
    mov x27, #\m
    mov x18, #0
    mov x22, #\action
    adr x24, 2f
    adr x28, 2f
    mov x20, #0
1:  \insn
2:  cmp x20, #1
    check_eq (\case * 10 + 9)
.endm

.macro fail_with k
    mov x9, #10
    mul x9, x21, x9
    add x9, x9, #\k
    semihost_exit x9
.endm
.macro handler esr_reg, elr_reg, spsr_reg, far_reg
    cmp x0, x26
    b.eq 3f
    fail_with 1                    // wrong vector
3:  mrs x0, \esr_reg
    bic x0, x0, #(1 << 9)          // EA: IMPLEMENTATION DEFINED
    tbz x0, #24, 4f
    cbz x29, 7f                    // ISV = 1 where it must be 0
    orr x17, x23, x29              // ISV = 1: the instruction's syndrome
    cmp x0, x17
    b.eq 5f
7:  fail_with 2
4:  cmp x0, x23                    // ISV = 0: bits [23:14] RES0
    b.eq 5f
    fail_with 3
5:  mrs x0, \elr_reg
    cmp x0, x24
    b.eq 6f
    fail_with 4                    // wrong ELR
6:  mrs x0, \spsr_reg
    and x0, x0, #0xf
    cmp x0, x27
    b.eq 8f
    fail_with 5                    // wrong SPSR.M
8:  cbz x18, 9f
    mrs x0, \far_reg
    cmp x0, x25
    b.eq 9f
    fail_with 6                    // wrong FAR
9:  msr \elr_reg, x28
    mov x20, #1
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
    mov x0, #((1 << 10) | (1 << 8) | 0x30 | 1) // SCR_EL3: RW, HCE, RES1, NS
    msr SCR_EL3, x0
    ldr x1, =UNMAPPED
    ldr x2, =GAP
    ldr x3, =PAST_CMN
    mov x4, #0
    ldr x5, =0x5555555555555555
    mov x8, x5
    mov x10, x5
    mov x11, x5
    abort 1, V_EL3_CUR, DABT(0x25, 0), ISV(3, 0, 5, 1), UNMAPPED, 13, ldr x5, [x1]
    abort 2, V_EL3_CUR, DABT(0x25, 1), ISV(2, 0, 6, 0), UNMAPPED + 8, 13, str w6, [x1, #8]
    abort 3, V_EL3_CUR, DABT(0x25, 0), ISV(0, 0, 7, 0), GAP, 13, ldrb w7, [x2]
    abort 4, V_EL3_CUR, DABT(0x25, 0), ISV(1, 1, 8, 1), GAP + 2, 13, ldrsh x8, [x2, #2]
    abort 5, V_EL3_CUR, DABT(0x25, 0), 0, PAST_CMN, 13, ldp x10, x11, [x3]
    abort 6, V_EL3_CUR, DABT(0x25, 1), 0, PAST_CMN + 16, 13, str x5, [x3, #16]!
    abort 7, V_EL3_CUR, DABT(0x25, 1), ISV(1, 0, 5, 0), 0, 13, strh w5, [x4]
    // The forms docs/firmware.md says run in the engine (exclusive, acquire, SIMD&FP): the same
    // abort; ISV = 0 for the exclusive and the SIMD&FP forms (no general-purpose transfer register
    // syndrome), and for LDAR either ISV = 0 or the syndrome with AR (bit 14) = 1.
    mov x0, #(3 << 20)
    msr CPACR_EL1, x0              // FPEN: FP/SIMD not trapped
    abort 30, V_EL3_CUR, DABT(0x25, 0), 0, UNMAPPED, 13, ldxr x5, [x1]
    abort 31, V_EL3_CUR, DABT(0x25, 0), 0, GAP, 13, ldr q0, [x2]
    abort 32, V_EL3_CUR, DABT(0x25, 1), 0, GAP + 32, 13, str d1, [x2, #32]
    abort 33, V_EL3_CUR, DABT(0x25, 0), (ISV(3, 0, 5, 1) | (1 << 14)), UNMAPPED, 13, ldar x5, [x1]
    // Nothing changed: the loads' destinations and the pre-index base.
    ldr x0, =0x5555555555555555
    cmp x5, x0
    check_eq 80
    cmp x8, x0
    check_eq 81
    cmp x10, x0
    check_eq 82
    cmp x11, x0
    check_eq 83
    ldr x0, =PAST_CMN
    cmp x3, x0
    check_eq 84

    // EL0 with HCR_EL2.TGE = 1 (EL2 enabled: Non-secure).
    mov x0, #((1 << 31) | (1 << 27)) // HCR_EL2: RW, TGE
    msr HCR_EL2, x0
    ldr x0, =0x80e00000
    msr SP_EL1, x0
    ldr x0, =0x80f00000
    msr SP_EL0, x0
    mov x0, #0x3c0                 // EL0t
    msr SPSR_EL3, x0
    adr x0, el0_tge
    msr ELR_EL3, x0
    eret

el0_tge:
    abort 10, V_EL2_LOW, DABT(0x24, 0), ISV(3, 0, 5, 1), UNMAPPED, 0, ldr x5, [x1]
    abort 11, V_EL2_LOW, DABT(0x24, 1), ISV(2, 0, 7, 0), GAP + 4, 0, str w7, [x2, #4]
    adr x19, el1_code
    call 12, V_EL2_LOW, (0x56000000 | 12), 0, 4, svc #12       // EL2: TGE off, ERET to EL1
    b .

el1_code:
    abort 13, V_EL1_CUR, DABT(0x25, 0), ISV(3, 0, 5, 1), UNMAPPED, 5, ldr x5, [x1]
    abort 14, V_EL1_CUR, DABT(0x25, 1), ISV(3, 0, 6, 1), PAST_CMN + 8, 5, str x6, [x3, #8]
    mov x0, #0x3c0
    msr SPSR_EL1, x0
    adr x0, el0_plain
    msr ELR_EL1, x0
    eret

el0_plain:
    abort 15, V_EL1_LOW, DABT(0x24, 0), ISV(2, 0, 9, 0), GAP, 0, ldr w9, [x2]
    abort 16, V_EL1_LOW, DABT(0x24, 1), ISV(3, 0, 5, 1), UNMAPPED + 0x100, 0, str x5, [x1, #0x100]
    adr x19, el1_ea
    call 17, V_EL1_LOW, (0x56000000 | 17), 0, 6, svc #17       // EL1: back to EL1 at x19
    b .

el1_ea:
    call 18, V_EL3_LOW, (0x5e000000 | 18), 5, 1, smc #18       // EL3 sets SCR_EL3.EA
    abort 19, V_EL3_LOW, DABT(0x24, 0), ISV(3, 0, 5, 1), UNMAPPED, 5, ldr x5, [x1]
    mov x0, #0x3c0
    msr SPSR_EL1, x0
    adr x0, el0_ea
    msr ELR_EL1, x0
    eret

el0_ea:
    abort 20, V_EL3_LOW, DABT(0x24, 1), ISV(0, 0, 5, 0), GAP + 1, 0, strb w5, [x2, #1]
    call 21, V_EL1_LOW, (0x56000000 | 21), 0, 5, svc #21       // EL1 exits: pass
    b .

common_el1:
    handler ESR_EL1, ELR_EL1, SPSR_EL1, FAR_EL1
    cmp x22, #5
    b.ne 1f
    mov x9, #0
    semihost_exit x9
1:  cmp x22, #6
    b.ne 2f
    mov x0, #0x3c5                 // EL1h
    msr SPSR_EL1, x0
    msr ELR_EL1, x19
2:  eret

common_el2:
    handler ESR_EL2, ELR_EL2, SPSR_EL2, FAR_EL2
    cmp x22, #4
    b.ne 1f
    mrs x17, HCR_EL2
    bic x17, x17, #(1 << 27)
    msr HCR_EL2, x17
    mov x0, #0x3c5                 // EL1h
    msr SPSR_EL2, x0
    msr ELR_EL2, x19
1:  eret

common_el3:
    handler ESR_EL3, ELR_EL3, SPSR_EL3, FAR_EL3
    cmp x22, #1
    b.ne 1f
    mrs x17, SCR_EL3
    orr x17, x17, #(1 << 3)        // EA
    msr SCR_EL3, x17
1:  eret

    vector_table 1, el1_vectors
    vector_table 2, el2_vectors
    vector_table 3, el3_vectors
