// An engine run that stops inside a straight-line block at EL0 (the reference mode stops at every
// instruction; fast mode wherever a budget ends) with SCTLR_EL1.nTWI = 0, as Linux runs user space
// (linux-6.1 arch/arm64/include/asm/sysreg.h INIT_SCTLR_EL1_MMU_ON: nTWE set, nTWI clear). Unicorn
// ends such a run with an imitated WFI that honoured that trap and reported the instruction before
// it as UNDEFINED (Debian's busybox got SIGILL on `add x20, x20, #1`). EL0 runs 8 x 1000 ADDs and an
// SVC: EL1 checks that the only exception taken was the SVC (EC 0x15, Arm ARM D24.2.47) and that
// x20 = 8000. Exit 1: another exception (its ESR in x10); 2: a wrong sum.
#include "common.inc"
#define SCR_EL3   S3_6_C1_C1_0
#define SPSR_EL3  S3_6_C4_C0_0
#define ELR_EL3   S3_6_C4_C0_1
.globl _start
_start:
    mov x0, #((1 << 10) | 0x30 | 1) // SCR_EL3: RW, RES1 [5:4], NS
    msr SCR_EL3, x0
    mov x0, #0x3c5                 // EL1h, DAIF masked
    msr SPSR_EL3, x0
    adr x0, el1_entry
    msr ELR_EL3, x0
    eret
el1_entry:
    ldr x0, =0x30d40800            // SCTLR_EL1: RES1 bits, nTWE [18]; nTWI [16] = 0; MMU off
    msr sctlr_el1, x0
    isb
    adr x0, el1_vectors
    msr vbar_el1, x0
    mov x0, #0x3c0                 // EL0t, DAIF masked
    msr spsr_el1, x0
    adr x0, el0_entry
    msr elr_el1, x0
    eret

el0_entry:
    mov x20, #0
    mov x21, #1000
1:  add x20, x20, #1
    add x20, x20, #1
    add x20, x20, #1
    add x20, x20, #1
    add x20, x20, #1
    add x20, x20, #1
    add x20, x20, #1
    add x20, x20, #1
    subs x21, x21, #1
    b.ne 1b
    svc #0
    b .

    .balign 0x800
el1_vectors:
    .skip 0x400
el1_lower_sync:                    // VBAR_EL1 + 0x400: from EL0
    mrs x10, esr_el1
    lsr x11, x10, #26
    cmp x11, #0x15                 // SVC64
    check_eq 1
    mov x12, #8000
    cmp x20, x12
    check_eq 2
    mov x9, #0
    semihost_exit x9
