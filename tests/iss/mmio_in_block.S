// Loads and stores to unit windows in the middle of a translation block, with no branch before
// them (plain pointers, as compiled C does): the instructions before each access run exactly
// once, post-index writeback happens once, and a 64-bit LDR is one 8-byte bus access.
// check_mmio_log.py checks the access log of this program (the accesses, their PCs and cycles).
// Straight-line code from _start to the exit: instruction i (from 0) starts at CPU cycle i.
#include "common.inc"
.globl _start
_start:
    mov x1, #0
    ldr x3, =0x2A000000        // dsu0 CLUSTERPMU frame (docs/firmware.md memory map)
    ldr x8, =0x50000008        // cmn0 root node (CFG) periph_id_0/1 (PERIPHBASE 0x50000000)
    mov w4, #3
    add x1, x1, #1
    add x1, x1, #1
    str w4, [x3, #0xC00]       // PMCNTENSET = counters 0 and 1 (Arm PMU external block 0xC00)
    add x1, x1, #1
    ldr w5, [x3, #0xC00]       // reads back the enabled counters: 3
    add x6, x3, #0xC00
    add x1, x1, #1
    ldr w7, [x6], #0x20        // PMCNTENSET again, then x6 += 0x20 once
    add x1, x1, #1
    ldr x9, [x8]               // 64-bit periph_id_0/1: part_0 [7:0] 0x34, part_1 [35:32] 0x4 (CMN-600 part 0x434)
    add x1, x1, #1
    ldr x10, [x8, #-8]         // 64-bit node_info: node_type [15:0] 0x0002 (CFG)
    add x1, x1, #1
    // XP (0,0) por_dtm_pmevcnt: the XP's registers at node +0x8000, pmevcnt at +0x2220, four
    // 16-bit RW counters in one 64-bit register (cmn-tools data/regdefs/cmn600.regdefs:3799-3804
    // por_dtm_pmevcnt, RW; Linux 6.1 drivers/perf/arm-cmn.c CMN_DTM_PMEVCNT 0x220).
    ldr x13, =0x5000A220
    ldr x14, =0x0004000300020001
    str x14, [x13]             // one 8-byte write
    add x1, x1, #1
    ldr x15, [x13]             // reads the four counters back
    ldp x16, x17, [x8, #-8]    // node_info and periph_id_0/1: two 8-byte accesses
    // Checks (plain registers only from here: no more window accesses).
    cmp x1, #8                 // eight ADDs, each once
    check_eq 1
    cmp w5, #3
    check_eq 2
    cmp w7, #3
    check_eq 3
    add x11, x3, #0xC20
    cmp x6, x11                // the post-index writeback happened once
    check_eq 4
    and x12, x9, #0xff
    cmp x12, #0x34
    check_eq 5
    ubfx x12, x9, #32, #4
    cmp x12, #4
    check_eq 6
    and x12, x10, #0xffff
    cmp x12, #2
    check_eq 7
    cmp x15, x14
    check_eq 8
    cmp x16, x10
    check_eq 9
    cmp x17, x9
    check_eq 10
    mov x9, #0
    semihost_exit x9
    .ltorg
