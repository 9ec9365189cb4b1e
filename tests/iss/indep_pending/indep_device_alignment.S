// Pending reproducer (not in ctest; tests/iss/indep_pending/README.md). Independent firmware,
// from the Arm ARM alone: at EL3 with SCTLR_EL3.M = 0, data accesses are Device-nGnRnE (Arm ARM
// D8.2.11 "The effects of disabling an address translation stage"), and an unaligned access to
// Device memory generates an Alignment fault (B2.5.2 "Alignment of data accesses"): a data abort
// from the current EL, EC 0x25, IL 1, DFSC 0b100001 (0x21), ELR = the load, FAR = the address.
// pmusim performs the load (status 19: the handler never ran).
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
    ldr x1, =0x80100001            // plain memory, not 8-byte aligned
    provoke 1, V_EL3_CUR, 0x96000021, 13, 0, 0, ldr x5, [x1]
    mrs x0, FAR_EL3
    cmp x0, x1
    check_eq 17
    mov x9, #0
    semihost_exit x9

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
