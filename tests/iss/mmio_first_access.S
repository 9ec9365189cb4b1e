// Window accesses that are the first load or store of their straight-line run (after a branch),
// which the ISS finds without a code hook (docs/firmware.md "Inside the ISS"): the instructions
// before each run exactly once, and in a loop whose earlier iteration passed a later load (an
// access point), the access is still the loop's first load. check_mmio_log.py checks the access
// log (PCs and CPU cycles: one cycle per instruction, the numbers below).
#include "common.inc"
.globl _start
_start:
    mov x1, #0                  // 0
    ldr x3, =0x2A000000         // 1  dsu0 CLUSTERPMU frame (docs/firmware.md memory map)
    mov w4, #3                  // 2
    b 1f                        // 3
1:  add x1, x1, #1              // 4
    add x1, x1, #1              // 5
    str w4, [x3, #0xC00]        // 6  PMCNTENSET = counters 0 and 1: the run's first access
    add x1, x1, #1              // 7
    ldr w5, [x3, #0xC00]        // 8  reads back 3: an access point
    adr x10, plain              // 9
    add x11, x3, #0xC00         // 10
    mov x6, x10                 // 11
    mov x2, #3                  // 12
    b loop                      // 13
loop:                           // 14 + 7 * iteration
    ldr w7, [x6]                // 14 the run's first access: plain memory, PMCNTENSET in the third iteration
    ldr w8, [x10]               // 15 an access point (plain memory)
    add x1, x1, #1              // 16
    sub x2, x2, #1              // 17
    cmp x2, #1                  // 18
    csel x6, x11, x6, eq        // 19 the window from the third iteration on
    cbnz x2, loop               // 20
    cmp x1, #6                  // six ADDs, each once
    check_eq 1
    cmp w5, #3
    check_eq 2
    cmp w7, #3
    check_eq 3
    cmp w8, #0x55
    check_eq 4
    mov x9, #0
    semihost_exit x9
    .ltorg
    .balign 4
plain: .word 0x55
