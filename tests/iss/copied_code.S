// Code copied at run time (outside the ELF's executable segments) runs with the ISS's state
// (issue 28): at EL3, a copied `MRS x0, CurrentEL` reads EL3 (0xC; Arm ARM D24.2.37 CurrentEL.EL
// [3:2]), not the engine's EL1, and a copied `MRS` of VBAR_EL3 reads what was written; a copied
// ERET returns through ELR_EL3/SPSR_EL3 to EL2 (not through ELR_EL1). The copies are at the
// start of DRAM + 1 MiB, which the ELF does not cover; IC IALLU and ISB after the copy, as
// software must do (Arm ARM D7.5.x "Instruction cache maintenance"; Linux flush_icache_range).
#include "common.inc"
#define VBAR_EL3  S3_6_C12_C0_0
#define SCR_EL3   S3_6_C1_C1_0
#define SPSR_EL3  S3_6_C4_C0_0
#define ELR_EL3   S3_6_C4_C0_1
.globl _start
_start:
    adr x0, vectors
    msr VBAR_EL3, x0
    ldr x10, =0x80100000           // where the code is copied
    adr x11, snippet
    mov x12, #(snippet_end - snippet)
1:  ldr w13, [x11], #4
    str w13, [x10], #4
    subs x12, x12, #4
    b.ne 1b
    ic iallu
    isb
    ldr x10, =0x80100000
    blr x10                        // x0 = CurrentEL, x1 = VBAR_EL3 (read by the copy)
    cmp x0, #(3 << 2)
    check_eq 1
    adr x2, vectors
    cmp x1, x2
    check_eq 2
    // the copied ERET (snippet_end - 4) to EL2
    mov x0, #((1 << 10) | (1 << 8) | 0x30 | 1)   // SCR_EL3: RW, HCE, RES1 [5:4], NS
    msr SCR_EL3, x0
    mov x0, #0x3c9                 // EL2h, DAIF masked
    msr SPSR_EL3, x0
    adr x0, at_el2
    msr ELR_EL3, x0
    ldr x10, =0x80100000
    add x10, x10, #(eret_in_snippet - snippet)
    br x10
at_el2:
    mrs x0, CurrentEL
    cmp x0, #(2 << 2)
    check_eq 3
    mov x9, #0
    semihost_exit x9

    .balign 8
snippet:
    mrs x0, CurrentEL
    mrs x1, VBAR_EL3
    ret
eret_in_snippet:
    eret
snippet_end:

    .balign 0x800
vectors:
    .skip 0x800
