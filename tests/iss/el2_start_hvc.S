// Started at EL2 (`pmusim firmware --el 2`), the ISS stands for the EL3 firmware that would have
// run: it leaves SCR_EL3.HCE = 1, as TF-A does when the next EL is EL2
// (lib/el3_runtime/aarch64/context_mgmt.c), so HVC is enabled. Arm ARM DDI 0487, C6.2 HVC: with
// SCR_EL3.HCE = 0 HVC is UNDEFINED (EC 0x00); enabled, an HVC at EL2 is taken to EL2 at the
// "current EL with SPx" synchronous vector (VBAR_EL2 + 0x200) with ESR_EL2 EC 0x16, IL = 1,
// ISS = imm16, and ELR_EL2 = the instruction after the HVC.
#include "common.inc"
.globl _start
_start:
    mrs x0, CurrentEL
    cmp x0, #(2 << 2)              // started at EL2
    check_eq 1
    adr x0, el2_vectors
    msr VBAR_EL2, x0
    isb
    mov x20, #0
    hvc #0x1234
after_hvc:
    cmp x20, #1                    // the current-EL SPx synchronous handler ran
    check_eq 2
    mov x9, #0
    semihost_exit x9

    .balign 0x800
el2_vectors:
    .balign 0x80
    mov x9, #10                    // 0x000: current EL with SP0
    semihost_exit x9
    .balign 0x80
    mov x9, #11
    semihost_exit x9
    .balign 0x80
    mov x9, #12
    semihost_exit x9
    .balign 0x80
    mov x9, #13
    semihost_exit x9
    .balign 0x80                   // 0x200: current EL with SPx, synchronous
    mrs x0, ESR_EL2
    ldr x1, =0x5a001234            // EC 0x16 << 26 | IL << 25 | imm16 (an UNDEFINED HVC: 0x02000000)
    cmp x0, x1
    check_eq 3
    mrs x0, ELR_EL2
    adr x1, after_hvc
    cmp x0, x1
    check_eq 4
    mov x20, #1
    eret
