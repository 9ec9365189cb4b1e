// MDCR_EL2.TDE routes debug exceptions from EL0 and EL1 to EL2 (Arm ARM DDI 0487 D2.3 "Routing
// debug exceptions": with EL2 enabled, MDCR_EL2.TDE = 1 or HCR_EL2.TGE = 1 routes them to EL2;
// MDCR_EL2.TDE [8]: tests/facts/cpu.tsv, TF-A arch.h MDCR_EL2_TDE_BIT). A BRK is a debug
// exception (D2.7 "Breakpoint instruction exceptions"): EC 0x3C, IL 1, ISS = the immediate, preferred
// return = the BRK itself.
//   EL1 BRK #0x11 with TDE = 1 -> EL2, ESR_EL2 0xf2000011, ELR_EL2 = the BRK
//   EL2 clears TDE; EL1 BRK #0x22 -> EL1, ESR_EL1 0xf2000022, ELR_EL1 = the BRK
// Before the ERET, EL3 writes CPTR_EL3.TFP [10] = 1 and back to 0, twice: the log names the bit
// once (TFP is not modelled: check_log_once.sh).
#include "common.inc"
#define SCR_EL3   S3_6_C1_C1_0
#define SPSR_EL3  S3_6_C4_C0_0
#define ELR_EL3   S3_6_C4_C0_1
#define CPTR_EL3  S3_6_C1_C1_2
#define HCR_EL2   S3_4_C1_C1_0
#define MDCR_EL2  S3_4_C1_C1_1
#define SPSR_EL2  S3_4_C4_C0_0
#define ELR_EL2   S3_4_C4_C0_1
#define ESR_EL2   S3_4_C5_C2_0
#define VBAR_EL2  S3_4_C12_C0_0
.globl _start
_start:
    mov x0, #(1 << 10)             // CPTR_EL3.TFP: set, cleared, set, cleared (reported once)
    msr CPTR_EL3, x0
    msr CPTR_EL3, xzr
    msr CPTR_EL3, x0
    msr CPTR_EL3, xzr
    mov x0, #((1 << 10) | (1 << 8) | 0x30 | 1)   // SCR_EL3: RW, HCE, RES1 [5:4], NS
    msr SCR_EL3, x0
    mov x0, #0x3c9                 // EL2h, DAIF masked
    msr SPSR_EL3, x0
    adr x0, el2_entry
    msr ELR_EL3, x0
    eret
el2_entry:
    adr x0, el2_vectors
    msr VBAR_EL2, x0
    mov x0, #(1 << 31)             // HCR_EL2.RW: EL1 is AArch64
    msr HCR_EL2, x0
    mov x0, #(1 << 8)              // MDCR_EL2.TDE
    msr MDCR_EL2, x0
    mrs x1, MDCR_EL2
    cmp x1, x0                     // TDE reads back as written
    check_eq 1
    mov x0, #0x3c5                 // EL1h, DAIF masked
    msr SPSR_EL2, x0
    adr x0, el1_entry
    msr ELR_EL2, x0
    eret
el1_entry:
    adr x0, el1_vectors
    msr VBAR_EL1, x0
brk1_at:
    brk #0x11                      // to EL2 (TDE)
brk2_at:
    brk #0x22                      // to EL1 (TDE cleared by EL2's handler)
    mrs x0, ESR_EL1                // back at EL1 from its own handler
    ldr x1, =0xf2000022
    cmp x0, x1
    check_eq 5
    adr x1, brk2_at                // ELR_EL1 as the exception left it (x20, saved by the handler)
    cmp x20, x1
    check_eq 6
    mov x9, #0
    semihost_exit x9

    .balign 0x800
el1_vectors:
    .skip 0x200
el1_current_sync:                  // VBAR_EL1 + 0x200: EL1 with SP_EL1
    mrs x20, ELR_EL1
    add x1, x20, #4
    msr ELR_EL1, x1
    eret

    .balign 0x800
el2_vectors:
    .skip 0x400
el2_lower_sync:                    // VBAR_EL2 + 0x400: from EL1
    mrs x0, ESR_EL2
    ldr x1, =0xf2000011            // EC 0x3C, IL, imm16 0x11
    cmp x0, x1
    check_eq 2
    mrs x0, ELR_EL2
    adr x1, brk1_at
    cmp x0, x1
    check_eq 3
    msr MDCR_EL2, xzr              // the next BRK stays at EL1
    mrs x0, MDCR_EL2
    cmp x0, #0
    check_eq 4
    mrs x1, ELR_EL2
    add x1, x1, #4
    msr ELR_EL2, x1
    eret
