// The firmware of the GDB memory-through-the-MMU test (check_gdb_mmu.py, docs/debugging.md
// "Memory"): GDB's m/M/X packets name virtual addresses, translated by the CPU's stage 1 regime.
// EL1 (`--el 1`) turns on stage 1 (VMSAv8-64, 4 KB granule, Arm ARM D8.2 "Translation tables",
// D8.3 "descriptor formats": a 39-bit VA from level 1, 2 MB block descriptors at level 2) with a
// mapping where VA != PA, over the default platform's 16 MiB of DRAM at 0x80000000:
//   VA 0x80000000 (2 MB) -> PA 0x80000000   identity: this code and its tables
//   VA 0x80200000 (2 MB) -> PA 0x80400000   the alias: read-only at EL1 (AP 0b10), executable
//   VA 0x80400000 (2 MB) -> PA 0x80400000   identity, read/write, PXN (not executable at EL1)
//   VA 0x80600000 and above: no mapping (translation fault)
// TTBR1_EL1 holds the same tables: VA 0xffffff80_80200000 (bit 55 set) -> PA 0x80400000 too.
// PA 0x80200000 holds ident_value (what a read of the physical address 0x80200000 gives), PA
// 0x80400000 mapped_value (what the VA 0x80200000 reads). GDB stops at mmu_off_stop (MMU off: VA =
// PA) and mmu_on_stop, where it writes three things that the code after it checks, each through a
// VA whose PA differs from the VA's number or through TTBR1:
//   VA 0x80200008 := gdb_value_0 (through the read-only alias: PA 0x80400008)
//   VA 0xffffff8080200010 := gdb_value_1 (through TTBR1: PA 0x80400010)
//   VA 0x80400100 := MOV X0, #2 (the code of the function at PA 0x80400100, which this firmware
//     runs from VA 0x80200100 before and after: through a non-executable alias, so that only
//     dropping the engine's translation of that physical page makes the new instruction run)
// Then it turns the MMU off and checks that PA 0x80200008 still holds 0.
#include "../iss/common.inc"
#define MAIR_EL1  S3_0_C10_C2_0
#define TCR_EL1   S3_0_C2_C0_2
#define TTBR0_EL1 S3_0_C2_C0_0
#define TTBR1_EL1 S3_0_C2_C0_1
#define SCTLR_EL1 S3_0_C1_C0_0
.equ ident_value,  0x1de7171e5a11a5e0   // at PA 0x80200000
.equ mapped_value, 0x0a11a5ed0b0e0f11   // at PA 0x80400000
.equ straddle_value, 0x5742add1e0000008 // at PA 0x801ffff8, the last 8 bytes of the identity block
.equ gdb_value_0,  0x600d0000c0ffee00   // written by GDB at VA 0x80200008
.equ gdb_value_1,  0x600d0001deadbeef   // written by GDB at VA 0xffffff8080200010
.equ mov_x0_1, 0xd2800020               // MOVZ X0, #1 (Arm ARM C6.2 MOVZ: sf 1, opc 10, hw 00, imm16, Rd)
.equ mov_x0_2, 0xd2800040               // MOVZ X0, #2
.equ ret_x30,  0xd65f03c0               // RET
.globl _start
_start:
    // Physical contents, the MMU off.
    ldr x0, =0x80200000
    ldr x1, =ident_value
    stp x1, xzr, [x0]
    ldr x0, =0x80400000
    ldr x1, =mapped_value
    stp x1, xzr, [x0]
    str xzr, [x0, #16]
    ldr x0, =0x801ffff8
    ldr x1, =straddle_value
    str x1, [x0]
    ldr x0, =0x80400100               // the function: MOV X0, #1; RET
    ldr w1, =mov_x0_1
    str w1, [x0]
    ldr w1, =ret_x30
    str w1, [x0, #4]
    dsb sy
    ic iallu
    isb
.globl mmu_off_stop
mmu_off_stop:
    nop
    // Tables. Table descriptor: [1:0] 11. Block descriptor: [1:0] 01, AttrIndx [4:2] (1: Normal),
    // AP [7:6] (00 EL1 read/write, 10 EL1 read-only), SH [9:8] 11, AF [10], PXN [53].
    adr x0, l1_table
    adr x2, l2_table
    orr x1, x2, #3
    str x1, [x0, #(2 * 8)]            // VA 2-3 GB -> the level 2 table
    ldr x1, =(0x80000000 | (1 << 2) | (3 << 8) | (1 << 10) | 1)
    str x1, [x2, #0]
    ldr x1, =(0x80400000 | (1 << 2) | (2 << 6) | (3 << 8) | (1 << 10) | 1)
    str x1, [x2, #8]
    ldr x1, =(0x80400000 | (1 << 2) | (3 << 8) | (1 << 10) | (1 << 53) | 1)
    str x1, [x2, #16]
    ldr x1, =0xff00                   // MAIR: Attr0 Device-nGnRnE (0x00), Attr1 Normal WB (0xff)
    msr MAIR_EL1, x1
    // TCR_EL1 (Arm ARM D17.2.131): T0SZ 25, IRGN0/ORGN0 01, SH0 11, TG0 00 (4 KB); T1SZ 25 [21:16],
    // IRGN1/ORGN1 01, SH1 11, TG1 10 (4 KB) [31:30]; IPS 010 (40 bits) [34:32].
    ldr x1, =(25 | (1 << 8) | (1 << 10) | (3 << 12) | (25 << 16) | (1 << 24) | (1 << 26) | (3 << 28) | (2 << 30) | (2 << 32))
    msr TCR_EL1, x1
    msr TTBR0_EL1, x0
    msr TTBR1_EL1, x0
    isb
    mrs x1, SCTLR_EL1
    orr x1, x1, #1                    // M
    orr x1, x1, #(1 << 2)             // C
    orr x1, x1, #(1 << 12)            // I
    msr SCTLR_EL1, x1
    isb
    ldr x10, =0x80200100              // the function through the alias: translated once here
    blr x10
    cmp x0, #1
    check_eq 1
    ldr x2, =0x80200000               // the alias reads PA 0x80400000
    ldr x3, [x2]
    ldr x4, =mapped_value
    cmp x3, x4
    check_eq 2
.globl mmu_on_stop
mmu_on_stop:
    nop
    ldr x2, =0x80400000               // identity: PA 0x80400000
    ldr x3, [x2, #8]
    ldr x4, =gdb_value_0
    cmp x3, x4
    check_eq 3
    ldr x3, [x2, #16]
    ldr x4, =gdb_value_1
    cmp x3, x4
    check_eq 4
    blr x10                           // GDB's MOV X0, #2 runs
    cmp x0, #2
    check_eq 5
    mrs x1, SCTLR_EL1                 // the MMU off: PA 0x80200008 was not written
    bic x1, x1, #1
    msr SCTLR_EL1, x1
    isb
    ldr x2, =0x80200000
    ldr x3, [x2, #8]
    cmp x3, #0
    check_eq 6
    ldr x3, [x2]
    ldr x4, =ident_value
    cmp x3, x4
    check_eq 7
    pass_with message
message: .asciz "gdb_mmu: pass\n"

    .balign 4096
l1_table:
    .skip 4096
l2_table:
    .skip 4096
