// EL2 and EL3 run untranslated while EL1's MMU is on (issue 28; docs/firmware.md "What the ISS
// leaves out"). Arm ARM DDI 0487 D8.1 "Translation regimes": EL3's and EL2's stage 1 regimes are
// their own (SCTLR_EL3/TTBR0_EL3, SCTLR_EL2/TTBR0_EL2), separate from EL1&0's (SCTLR_EL1,
// TTBR0/1_EL1); with SCTLR_ELx.M = 0 (their reset here: never set) a regime is flat, VA = PA. So
// EL1's tables must not reach EL3's or EL2's fetches, loads and stores.
//
// EL3 boots, builds EL1's tables and leaves for EL1 Non-secure. EL1 turns its MMU on with tables
// (VMSAv8-64, 4 KB granule, Arm ARM D8.2/D8.3) that map the 2 MB block of DRAM holding this program
// 1:1 page by page, except: the pages of EL3's and EL2's code map to a page of zeros (UDF: code
// fetched through EL1's tables faults at once), the page of their data maps to a decoy page with
// other values, and the block's last page is an alias of their data, through which EL1 checks what
// they stored. Then from EL1:
//   SMC #0x33  -> EL3 (SCR_EL3.NS, SMD = 0): loads the magic word and stores records at physical
//                 addresses, reads SCTLR_EL1 (EL1's value: M = 1) and CurrentEL, reads a unit
//                 window (cmn0) that EL1's tables leave unmapped, by LDR and by LDAR, ERET;
//   HVC #0x22  -> EL2 (SCR_EL3.HCE): the same, writes SCTLR_EL1 back unchanged (as a hypervisor's
//                 context switch does) and loads the magic word again (still untranslated), ERET;
//   an IRQ     -> EL3 (SCR_EL3.IRQ: an interrupt routed to a higher EL is not masked by EL1's
//                 PSTATE.I, Arm ARM D1.3.6): the DSU's CYCLES counter armed by EL3 overflows while
//                 EL1 polls; EL3 records ELR_EL3 and the magic word, quiets the counter, ERET.
// Afterwards EL1's translation still works: its VA of the data page reads the decoy, the alias
// reads the records. Expected values: the syndromes from Arm ARM D24.2.47 ESR_ELx (EC 0x17 SMC64,
// 0x16 HVC64, IL [25] = 1, ISS = imm16); SMC's and HVC's preferred return is the next instruction;
// vector offsets D1.3.1 (lower EL, AArch64: synchronous 0x400, IRQ 0x480).
#include "common.inc"
#define SCR_EL3   S3_6_C1_C1_0
#define VBAR_EL3  S3_6_C12_C0_0
#define SPSR_EL3  S3_6_C4_C0_0
#define ELR_EL3   S3_6_C4_C0_1
#define ESR_EL3   S3_6_C5_C2_0
#define HCR_EL2   S3_4_C1_C1_0
#define VBAR_EL2  S3_4_C12_C0_0
#define ESR_EL2   S3_4_C5_C2_0
#define MAIR_EL1  S3_0_C10_C2_0
#define TCR_EL1   S3_0_C2_C0_2
#define TTBR0_EL1 S3_0_C2_C0_0
#define SCTLR_EL1 S3_0_C1_C0_0
// DSU-110 TRM CLUSTERPM* registers (as tests/iss/irq_unmask.S).
#define CLUSTERPMCR_EL1        S3_0_C15_C5_0
#define CLUSTERPMCNTENSET_EL1  S3_0_C15_C5_1
#define CLUSTERPMOVSCLR_EL1    S3_0_C15_C5_4
#define CLUSTERPMSELR_EL1      S3_0_C15_C5_5
#define CLUSTERPMINTENSET_EL1  S3_0_C15_C5_6
#define CLUSTERPMXEVTYPER_EL1  S3_0_C15_C6_1
#define CLUSTERPMXEVCNTR_EL1   S3_0_C15_C6_2
#define CLUSTERPMMDCR_EL3      S3_6_C15_C6_3

#define BASE        0x80000000     // where iss.cmake links the program (arm-default's DRAM)
#define MAGIC       0x3e13e13e
#define DECOY       0xdec0dec0
// Page descriptor (level 3): [1:0] 0b11, AttrIndx [4:2] = 1 (Normal), SH [9:8] = 0b11, AF [10].
#define PAGE_ATTRS  ((1 << 2) | (3 << 8) | (1 << 10) | 3)
// Records in the data page (byte offsets).
#define R_SMC_ESR    8
#define R_SMC_MAGIC  16
#define R_SMC_SCTLR  24
#define R_SMC_EL     32
#define R_HVC_ESR    40
#define R_HVC_MAGIC  48
#define R_HVC_SCTLR  56
#define R_HVC_EL     64
#define R_IRQ_COUNT  72
#define R_IRQ_ELR    80
#define R_IRQ_MAGIC  88
#define R_IRQ_SPSR   96
#define R_HVC_MAGIC2 104
#define R_SMC_WIN    112
#define R_SMC_WIN2   120
#define CMN_PERIPH   0x50000008    // cmn0's root node periph_id_0/1 (tests/iss/mmu_window.S)

// L3 entry of the page at `va_label` := the page at `pa_label` (x10: the L3 table).
.macro remap va_label, pa_label
    adr x0, \va_label
    ldr x1, =BASE
    sub x0, x0, x1
    lsr x0, x0, #12
    adr x1, \pa_label
    ldr x2, =PAGE_ATTRS
    orr x1, x1, x2
    str x1, [x10, x0, lsl #3]
.endm

.globl _start
_start:
    adr x0, el3_vectors
    msr VBAR_EL3, x0
    adr x0, el2_vectors
    msr VBAR_EL2, x0
    ldr x0, =((1 << 10) | (1 << 8) | 0x30 | (1 << 1) | 1) // SCR_EL3: RW, HCE, RES1 [5:4], IRQ, NS
    msr SCR_EL3, x0
    mov x0, #(1 << 31)             // HCR_EL2: RW (EL1 is AArch64); no stage 2, no traps
    msr HCR_EL2, x0
    // EL1's tables: L1[2] (VA 2-3 GB) -> L2; L2[0] (VA 2 GB + 0-2 MB) -> L3; L3: 512 pages.
    adr x10, l3_table
    ldr x1, =(BASE | PAGE_ATTRS)
    mov x2, #512
1:  str x1, [x10], #8
    add x1, x1, #4096
    subs x2, x2, #1
    b.ne 1b
    adr x10, l3_table
    remap el3_vectors, zero_page
    remap el3_code_2, zero_page
    remap el2_vectors, zero_page
    remap el2_code_2, zero_page
    remap data_page, decoy_page
    adr x0, data_page              // the last page of the block: an alias of the data page
    ldr x2, =PAGE_ATTRS
    orr x0, x0, x2
    str x0, [x10, #(511 * 8)]
    adr x0, l2_table
    orr x1, x10, #3                // table descriptor
    str x1, [x0]
    adr x1, l1_table
    orr x0, x0, #3
    str x0, [x1, #16]
    ldr x0, =0xff00                // MAIR_EL1: Attr0 Device-nGnRnE, Attr1 Normal write-back
    msr MAIR_EL1, x0
    // TCR_EL1: T0SZ 25 (39-bit VA, the walk starts at level 1), IRGN0/ORGN0 01, SH0 11, TG0 4 KB,
    // EPD1 (no TTBR1 walks), IPS 40-bit.
    ldr x0, =(25 | (1 << 8) | (1 << 10) | (3 << 12) | (1 << 23) | (2 << 32))
    msr TCR_EL1, x0
    adr x0, l1_table
    msr TTBR0_EL1, x0
    // The DSU's counter 0 counts CYCLES and interrupts on overflow, 3000 cycles from now: EL1 is
    // polling by then (its code before the poll is some 60 instructions).
    mov x0, #1
    msr CLUSTERPMMDCR_EL3, x0      // SPME: count in Secure state too
    msr CLUSTERPMSELR_EL1, xzr
    mov x0, #0x11                  // CYCLES
    msr CLUSTERPMXEVTYPER_EL1, x0
    mov x0, #-3000
    msr CLUSTERPMXEVCNTR_EL1, x0
    mov x0, #1
    msr CLUSTERPMINTENSET_EL1, x0
    msr CLUSTERPMCNTENSET_EL1, x0
    msr CLUSTERPMCR_EL1, x0        // E
    mov x0, #0x3c5                 // EL1h, DAIF masked (the IRQ goes to EL3: not masked by I)
    msr SPSR_EL3, x0
    adr x0, el1_entry
    msr ELR_EL3, x0
    eret

el1_entry:
    mrs x0, SCTLR_EL1
    orr x0, x0, #1                 // M
    orr x0, x0, #(1 << 2)          // C
    orr x0, x0, #(1 << 12)         // I
    msr SCTLR_EL1, x0
    isb
    adr x11, data_page             // EL1's VA of the data page: the decoy
    ldr x12, =(BASE + 511 * 4096)  // the alias: the data page itself
    ldr w0, [x11]
    ldr w1, =DECOY
    cmp w0, w1
    check_eq 1                     // EL1's translation is on
    ldr w0, [x12]
    ldr w1, =MAGIC
    cmp w0, w1
    check_eq 2
smc_at:
    smc #0x33
    hvc #0x22
poll:
    ldr x0, [x12, #R_IRQ_COUNT]
    cbz x0, poll
    // SMC: ESR_EL3 EC 0x17, IL, imm16 0x33; EL3 read the magic at its physical address, EL1's
    // SCTLR_EL1 (M = 1) and CurrentEL = EL3 (3 << 2).
    ldr x0, [x12, #R_SMC_ESR]
    ldr x1, =((0x17 << 26) | (1 << 25) | 0x33)
    cmp x0, x1
    check_eq 10
    ldr x0, [x12, #R_SMC_MAGIC]
    ldr x1, =MAGIC
    cmp x0, x1
    check_eq 11
    ldr x0, [x12, #R_SMC_SCTLR]
    mrs x1, SCTLR_EL1
    cmp x0, x1
    check_eq 12
    tst x0, #1
    cset x0, ne
    cmp x0, #1
    check_eq 13
    ldr x0, [x12, #R_SMC_EL]
    cmp x0, #(3 << 2)
    check_eq 14
    ldr x0, [x12, #R_SMC_WIN]      // CMN-600 periph_id_0 part_0: 0x34 (CMN-600 TRM)
    and x0, x0, #0xff
    cmp x0, #0x34
    check_eq 15
    ldr x0, [x12, #R_SMC_WIN2]
    and x0, x0, #0xff
    cmp x0, #0x34
    check_eq 16
    // HVC: ESR_EL2 EC 0x16, IL, imm16 0x22; CurrentEL = EL2.
    ldr x0, [x12, #R_HVC_ESR]
    ldr x1, =((0x16 << 26) | (1 << 25) | 0x22)
    cmp x0, x1
    check_eq 20
    ldr x0, [x12, #R_HVC_MAGIC]
    ldr x1, =MAGIC
    cmp x0, x1
    check_eq 21
    ldr x0, [x12, #R_HVC_MAGIC2]
    ldr x1, =MAGIC
    cmp x0, x1
    check_eq 24
    ldr x0, [x12, #R_HVC_SCTLR]
    mrs x1, SCTLR_EL1
    cmp x0, x1
    check_eq 22
    ldr x0, [x12, #R_HVC_EL]
    cmp x0, #(2 << 2)
    check_eq 23
    // IRQ: taken once, at EL3, from the poll loop, with SPSR_EL3.M = EL1h and the magic read.
    ldr x0, [x12, #R_IRQ_COUNT]
    cmp x0, #1
    check_eq 30
    ldr x0, [x12, #R_IRQ_ELR]
    adr x1, poll
    sub x0, x0, x1
    cmp x0, #4
    cset x0, ls                    // ELR_EL3 is the poll's load or its branch
    cmp x0, #1
    check_eq 31
    ldr x0, [x12, #R_IRQ_MAGIC]
    ldr x1, =MAGIC
    cmp x0, x1
    check_eq 32
    ldr x0, [x12, #R_IRQ_SPSR]
    and x0, x0, #0xf
    cmp x0, #5                     // EL1h
    check_eq 33
    // EL1's translation after the returns: the decoy through its VA, the data through the alias.
    ldr w0, [x11]
    ldr w1, =DECOY
    cmp w0, w1
    check_eq 40
    ldr w0, [x12]
    ldr w1, =MAGIC
    cmp w0, w1
    check_eq 41
    mov x9, #0
    semihost_exit x9

    .ltorg

// EL3's code: its vector table and handlers (physical addresses; EL1 maps these pages to zeros).
// Handlers use x21-x25 only, which EL1 leaves alone.
    .balign 4096
el3_vectors:
    .skip 0x400
    b el3_smc                      // VBAR_EL3 + 0x400: synchronous from a lower EL (AArch64)
    .skip 0x7c
    b el3_irq                      // VBAR_EL3 + 0x480: IRQ from a lower EL (AArch64)
    .balign 4096
el3_code_2:
el3_smc:
    adr x21, data_page
    mrs x22, ESR_EL3
    str x22, [x21, #R_SMC_ESR]
    ldr w22, [x21]
    str x22, [x21, #R_SMC_MAGIC]
    mrs x22, SCTLR_EL1
    str x22, [x21, #R_SMC_SCTLR]
    mrs x22, CurrentEL
    str x22, [x21, #R_SMC_EL]
    ldr x23, =CMN_PERIPH           // a unit window, which EL1's tables do not map
    ldr x24, [x23]                 // a load the ISS performs itself
    str x24, [x21, #R_SMC_WIN]
    ldar x24, [x23]                // one the engine runs alone, without its stage 2
    str x24, [x21, #R_SMC_WIN2]
    eret
el3_irq:
    mrs x22, CLUSTERPMOVSCLR_EL1
    msr CLUSTERPMOVSCLR_EL1, x22   // the line falls
    msr CLUSTERPMCR_EL1, xzr       // and the counter stops: one IRQ
    adr x21, data_page
    ldr x22, [x21, #R_IRQ_COUNT]
    add x22, x22, #1
    str x22, [x21, #R_IRQ_COUNT]
    mrs x22, ELR_EL3
    str x22, [x21, #R_IRQ_ELR]
    mrs x22, SPSR_EL3
    str x22, [x21, #R_IRQ_SPSR]
    ldr w22, [x21]
    str x22, [x21, #R_IRQ_MAGIC]
    eret
    .ltorg

// EL2's code.
    .balign 4096
el2_vectors:
    .skip 0x400
    b el2_hvc                      // VBAR_EL2 + 0x400: synchronous from a lower EL (AArch64)
    .balign 4096
el2_code_2:
el2_hvc:
    adr x21, data_page
    mrs x22, ESR_EL2
    str x22, [x21, #R_HVC_ESR]
    ldr w22, [x21]
    str x22, [x21, #R_HVC_MAGIC]
    mrs x22, SCTLR_EL1
    str x22, [x21, #R_HVC_SCTLR]
    msr SCTLR_EL1, x22             // unchanged: EL2 stays untranslated after it
    isb
    mrs x22, CurrentEL
    str x22, [x21, #R_HVC_EL]
    ldr w22, [x21]                 // after the write: still the physical page
    str x22, [x21, #R_HVC_MAGIC2]
    eret

    .balign 4096
data_page:
    .word MAGIC, 0
    .fill 30, 8, 0
    .balign 4096
decoy_page:
    .word DECOY, 0
    .fill 30, 8, 0
    .balign 4096
zero_page:                         // UDF #0 everywhere
    .skip 4096
l1_table:
    .skip 4096
l2_table:
    .skip 4096
l3_table:
    .skip 4096
