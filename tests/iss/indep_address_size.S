// Independent firmware, from the Arm ARM alone: with stage 1 translation disabled (EL3, SCTLR_EL3.M = 0) an address with
// a bit set at or above the PA size (ID_AA64MMFR0_EL1.PARange: 4 = 44 bits on pmusim) takes an
// Address size fault at level 0 (Arm ARM D8.2.11 "The effects of disabling an address translation
// stage"): EC 0x25, IL 1, DFSC 0b000000, FAR = the address. (Until 2026-12-06 pmusim answered a
// synchronous external abort, DFSC 0x10: status 12.)
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
    mrs x2, ID_AA64MMFR0_EL1
    and x2, x2, #0xf               // PARange: 0 32, 1 36, 2 40, 3 42, 4 44, 5 48, 6 52 bits
    adr x3, pa_bits
    ldrb w3, [x3, x2]
    mov x1, #1
    lsl x1, x1, x3                 // the first address above the PA range
    provoke 1, V_EL3_CUR, 0x96000000, 13, 0, 0, ldr x5, [x1]
    mrs x0, FAR_EL3
    cmp x0, x1
    check_eq 17
    mov x9, #0
    semihost_exit x9
pa_bits: .byte 32, 36, 40, 42, 44, 48, 52, 52
    .balign 4

common_el1:
    mov x9, #198
    semihost_exit x9
common_el2:
    mov x9, #199
    semihost_exit x9
common_el3:
    handler ESR_EL3, ELR_EL3, SPSR_EL3
    eret

    vector_table 1, el1_vectors
    vector_table 2, el2_vectors
    vector_table 3, el3_vectors
