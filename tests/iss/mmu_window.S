// Unit windows reached by loads and stores with the MMU on, from code copied at run time (no ELF
// access points: issue 28 item 4, the reason Debian's kernel stopped at earlycon's first PL011
// access). EL1 Non-secure (`--el 1`) turns on stage 1 (VMSAv8-64, 4 KB granule, Arm ARM D8.2):
// 1 GB blocks, identity for 0-3 GB (Device-nGnRnE below 2 GB, Normal DRAM above), and an alias of
// the first GB at VA 0x10_0000_0000, through which the snippet reaches the dsu0 frame: the access
// goes to the physical address the tables give. The snippet mixes plain-memory and window accesses
// in one block, with an immediate offset, post-index, register offset, a signed load and an LDP;
// each must run once (the access log count is checked by iss.cmake) with the registers it leaves.
#include "common.inc"
#define MAIR_EL1  S3_0_C10_C2_0
#define TCR_EL1   S3_0_C2_C0_2
#define TTBR0_EL1 S3_0_C2_C0_0
#define SCTLR_EL1 S3_0_C1_C0_0
.globl _start
_start:
    // Tables: L1 (T0SZ 25: a 39-bit VA starts at level 1). Block descriptor: [1:0] 01, AttrIndx
    // [4:2], AP [7:6] 00 (EL1 read/write), SH [9:8], AF [10].
    adr x0, l1_table
    ldr x1, =(0x00000000 | (0 << 2) | (1 << 10) | 1)          // 0-1 GB Device (dsu0)
    str x1, [x0, #0]
    ldr x1, =(0x40000000 | (0 << 2) | (1 << 10) | 1)          // 1-2 GB Device (cmn0)
    str x1, [x0, #8]
    ldr x1, =(0x80000000 | (1 << 2) | (3 << 8) | (1 << 10) | 1) // 2-3 GB Normal (DRAM)
    str x1, [x0, #16]
    ldr x1, =(0x00000000 | (0 << 2) | (1 << 10) | 1)          // VA 64 GB + x -> PA x (Device)
    str x1, [x0, #(64 * 8)]
    ldr x1, =0xff00                 // MAIR: Attr0 Device-nGnRnE (0x00), Attr1 Normal WB (0xff)
    msr MAIR_EL1, x1
    // TCR_EL1: T0SZ 25, IRGN0/ORGN0 01, SH0 11, TG0 4 KB, EPD1 [23] (no TTBR1 walks), IPS 40-bit.
    ldr x1, =(25 | (1 << 8) | (1 << 10) | (3 << 12) | (1 << 23) | (2 << 32))
    msr TCR_EL1, x1
    msr TTBR0_EL1, x0
    isb
    mrs x1, SCTLR_EL1
    orr x1, x1, #1                  // M
    orr x1, x1, #(1 << 2)           // C
    orr x1, x1, #(1 << 12)          // I
    msr SCTLR_EL1, x1
    isb
    // Copy the snippet to DRAM + 1 MiB, outside the ELF.
    ldr x10, =0x80100000
    adr x11, snippet
    mov x12, #(snippet_end - snippet)
1:  ldr w13, [x11], #4
    str w13, [x10], #4
    subs x12, x12, #4
    b.ne 1b
    ic iallu
    isb
    adr x20, buffer
    ldr x3, =0x102A000000            // dsu0 frame through the alias
    ldr x21, =0x50000008             // cmn0 root node periph_id_0/1
    mov w4, #3
    ldr x10, =0x80100000
    blr x10
    cmp w7, #3                       // PMCNTENSET read back through the alias
    check_eq 1
    cmp w9, #3                       // post-index read
    check_eq 2
    add x15, x3, #0xC04
    cmp x8, x15                      // the post-index writeback happened once
    check_eq 3
    cmp w11, #3                      // register offset read
    check_eq 4
    cmp x12, #3                      // LDRSW
    check_eq 5
    and x15, x13, #0xffff            // node_info node_type: CFG (0x0002)
    cmp x15, #2
    check_eq 6
    and x15, x14, #0xff              // periph_id_0: part_0 0x34 (CMN-600)
    cmp x15, #0x34
    check_eq 7
    ldr x15, [x20, #16]              // the plain store after the window accesses ran
    ldr x16, =0x1122334455667788
    cmp x15, x16
    check_eq 8
    cmp x6, #0x5a                    // the plain load between them
    check_eq 9
    mov x9, #0
    semihost_exit x9

    .balign 8
snippet:
    ldr x5, [x20]                    // plain memory
    str w4, [x3, #0xC00]             // PMCNTENSET = counters 0 and 1 (window)
    ldr x6, [x20, #8]                // plain memory
    ldr w7, [x3, #0xC00]             // window
    add x8, x3, #0xC00
    ldr w9, [x8], #4                 // window, post-index
    mov x10, #0xC00
    ldr w11, [x3, x10]               // window, register offset
    ldrsw x12, [x3, x10]             // window, signed
    ldp x13, x14, [x21, #-8]         // cmn0 node_info and periph_id_0/1: two 8-byte accesses
    str x5, [x20, #16]               // plain memory
    ret
snippet_end:

    .balign 8
buffer:
    .quad 0x1122334455667788, 0x5a, 0

    .balign 4096
l1_table:
    .skip 4096
