// Window accesses inside an access group (docs/firmware.md "Inside the ISS"): loads and stores
// after the first of a straight-line run that use the first one's base register plus an
// immediate, the base not written in between, have no code hook; the ISS finds the faulting one
// by its address. Runs on arm-default with plain memory added just below the dsu0 frame and
// cmn0 (check_mmio_log.py writes that platform): the group's first accesses read plain memory,
// a later one with the same base reaches the window. check_mmio_log.py checks the access log
// (PCs and CPU cycles: one cycle per instruction, the numbers below).
#include "common.inc"
.globl _start
_start:
    ldr x5, =0x29FFFFF0         // 0  plain memory, 16 bytes below the dsu0 CLUSTERPMU frame
    mov w4, #3                  // 1
    mov x3, #0                  // 2
    b 1f                        // 3
1:  ldr x1, [x5]                // 4  the group's first access: plain memory
    add x3, x3, #1              // 5
    ldur x2, [x5, #8]           // 6  second: plain memory
    nop                         // 7
    str w4, [x5, #0xC10]        // 8  third: PMCNTENSET (0x2A000C00) = counters 0 and 1
    add x3, x3, #1              // 9
    ldr w6, [x5, #0xC10]        // 10 fourth: reads back 3
    ldr x5, =0x29FFF000         // 11 writes the base (LDR literal from plain memory: no access)
    ldr w7, [x5, #0xC00]        // 12 an access point (base written): plain memory 0x29FFFC00
    add x5, x5, #0x1000         // 13 writes the base: 0x2A000000
    add x3, x3, #1              // 14
    ldr w8, [x5, #0xC00]        // 15 an access point: PMCNTENSET; the load at 12 would reach it now
    ldr x5, =0x4FFFFFF8         // 16 plain memory, 8 bytes below cmn0
    b 2f                        // 17
2:  ldr x10, [x5]               // 18 the group's first access: plain memory
    add x3, x3, #1              // 19
    ldp x16, x17, [x5, #8]      // 20 second: node_info (0x50000000) and periph_id_0/1 (0x50000008)
    add x3, x3, #1              // 21
    cmp x3, #5                  // five ADDs, each once
    check_eq 1
    cmp w6, #3
    check_eq 2
    cmp w8, #3
    check_eq 3
    ldr x9, =0xB400000034
    cmp x17, x9
    check_eq 4
    and x16, x16, #0xFFFF
    cmp x16, #2
    check_eq 5
    mov x9, #0
    semihost_exit x9
    .ltorg
