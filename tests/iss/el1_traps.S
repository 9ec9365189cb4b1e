// HCR_EL2 traps of EL1 registers (issue 28 item 6). Arm ARM DDI 0487, HCR_EL2 field descriptions:
// TVM traps EL1 writes, TRVM EL1 reads of SCTLR_EL1, TTBR0/1_EL1, TCR_EL1, ESR_EL1, FAR_EL1,
// AFSR0/1_EL1, MAIR_EL1, AMAIR_EL1, CONTEXTIDR_EL1; TID1 reads of REVIDR_EL1, AIDR_EL1; TID2 reads of
// CTR_EL0, CCSIDR_EL1, CLIDR_EL1 and accesses of CSSELR_EL1; TID3 reads of the ID group 3 registers
// (op0 3, op1 0, CRn 0, CRm 1-7); TACR accesses of ACTLR_EL1; to EL2 where EL2 is enabled. Bit
// positions: tests/facts/cpu.tsv (Linux kvm_arm.h: TID1 16, TID2 17, TID3 18, TACR 21, TVM 26,
// TRVM 30, RW 31). Syndrome: ESR_ELx EC 0x18 "Trapped MSR, MRS or System instruction", IL [25] = 1,
// ISS (Arm ARM D24.2.47, "ISS encoding for an exception from MSR, MRS, or System instruction
// execution in AArch64 state"): Op0 [21:20], Op2 [19:17], Op1 [16:14], CRn [13:10], Rt [9:5],
// CRm [4:1], Direction [0] (1: read); ELR = the trapped instruction (preferred return address).
// The expected ESRs below are encoded here from those fields (esr_sys), not taken from the model.
// EL1 runs `accesses` twice: with the traps set (each access traps; EL2 records ESR and ELR and
// returns past it), then after EL2 cleared them (HVC #1): no trap, the engine's registers answer.
#include "common.inc"
#define SCR_EL3   S3_6_C1_C1_0
#define SPSR_EL3  S3_6_C4_C0_0
#define ELR_EL3   S3_6_C4_C0_1
#define HCR_EL2   S3_4_C1_C1_0
#define SPSR_EL2  S3_4_C4_C0_0
#define ELR_EL2   S3_4_C4_C0_1
#define ESR_EL2   S3_4_C5_C2_0
#define VBAR_EL2  S3_4_C12_C0_0

.macro esr_sys op0, op1, crn, crm, op2, rt, dir
    .quad (0x18 << 26) | (1 << 25) | (\op0 << 20) | (\op2 << 17) | (\op1 << 14) | (\crn << 10) | (\rt << 5) | (\crm << 1) | \dir
.endm

// Go on when the flags say "eq", else exit with the status in register `reg` (which check failed).
.macro check_eq_id reg
    b.eq 9996f
    mov x9, \reg
    semihost_exit x9
9996:
.endm

.globl _start
_start:
    ldr x0, =((1 << 10) | (1 << 8) | 0x30 | 1)   // SCR_EL3: RW, HCE, RES1 [5:4], NS
    msr SCR_EL3, x0
    mov x0, #0x3c9                 // EL2h, DAIF masked
    msr SPSR_EL3, x0
    adr x0, el2_entry
    msr ELR_EL3, x0
    eret

el2_entry:
    adr x0, el2_vectors
    msr VBAR_EL2, x0
    adr x19, records
    mrs x3, SCTLR_EL1              // written back unchanged by EL1's MSR SCTLR_EL1
    mrs x6, MAIR_EL1
    mov x10, #0                    // CSSELR_EL1: level 1 data cache
    mrs x15, ACTLR_EL1
    ldr x0, =((1 << 31) | (1 << 30) | (1 << 26) | (1 << 21) | (1 << 18) | (1 << 17) | (1 << 16))
    msr HCR_EL2, x0                // RW, TRVM, TVM, TACR, TID3, TID2, TID1
    mov x0, #0x3c5                 // EL1h, DAIF masked
    msr SPSR_EL2, x0
    adr x0, el1_entry
    msr ELR_EL2, x0
    eret

el1_entry:
    mov x9, #0
    bl accesses                    // 13 traps
    hvc #1                         // EL2 clears the traps
    mov x9, #0
    mov x6, #0x44ff                // MAIR_EL1 written by a4 (now the engine's register again)
    bl accesses                    // none trap now
    cmp x9, #0                     // CTR_EL0 answered: not 0
    cset x0, ne
    cmp x0, #1
    check_eq 40
    mrs x0, MAIR_EL1               // a4's write reached the engine's MAIR_EL1
    mov x1, #0x44ff
    cmp x0, x1
    check_eq 41
    hvc #2                         // EL2 checks the records

accesses:
a1: msr SCTLR_EL1, x3             // TVM write
a2: mrs x4, TTBR1_EL1             // TRVM read
a3: mrs x5, CONTEXTIDR_EL1        // TRVM read
a4: msr MAIR_EL1, x6              // TVM write
a5: mrs x7, REVIDR_EL1            // TID1
a6: mrs x8, AIDR_EL1              // TID1
a7: mrs x9, CTR_EL0               // TID2
a8: msr CSSELR_EL1, x10           // TID2 write
a9: mrs x11, CLIDR_EL1            // TID2
a10: mrs x12, ID_AA64PFR0_EL1     // TID3
a11: mrs x13, ID_AA64MMFR0_EL1    // TID3
a12: mrs x14, ACTLR_EL1           // TACR read
a13: msr ACTLR_EL1, x15           // TACR write
    ret

    .balign 8
expected:
    esr_sys 3, 0, 1, 0, 0, 3, 0    // SCTLR_EL1 write
    .quad a1
    esr_sys 3, 0, 2, 0, 1, 4, 1    // TTBR1_EL1 read
    .quad a2
    esr_sys 3, 0, 13, 0, 1, 5, 1   // CONTEXTIDR_EL1 read
    .quad a3
    esr_sys 3, 0, 10, 2, 0, 6, 0   // MAIR_EL1 write
    .quad a4
    esr_sys 3, 0, 0, 0, 6, 7, 1    // REVIDR_EL1 read
    .quad a5
    esr_sys 3, 1, 0, 0, 7, 8, 1    // AIDR_EL1 read
    .quad a6
    esr_sys 3, 3, 0, 0, 1, 9, 1    // CTR_EL0 read
    .quad a7
    esr_sys 3, 2, 0, 0, 0, 10, 0   // CSSELR_EL1 write
    .quad a8
    esr_sys 3, 1, 0, 0, 1, 11, 1   // CLIDR_EL1 read
    .quad a9
    esr_sys 3, 0, 0, 4, 0, 12, 1   // ID_AA64PFR0_EL1 read
    .quad a10
    esr_sys 3, 0, 0, 7, 0, 13, 1   // ID_AA64MMFR0_EL1 read
    .quad a11
    esr_sys 3, 0, 1, 0, 1, 14, 1   // ACTLR_EL1 read
    .quad a12
    esr_sys 3, 0, 1, 0, 1, 15, 0   // ACTLR_EL1 write
    .quad a13
expected_end:
records: .fill 32, 8, 0

    .balign 0x800
el2_vectors:
    .skip 0x400
el2_lower_sync:                    // VBAR_EL2 + 0x400: synchronous from EL1
    mrs x0, ESR_EL2
    lsr x1, x0, #26
    cmp x1, #0x16                  // HVC
    b.eq el2_hvc
    mrs x1, ELR_EL2
    stp x0, x1, [x19], #16
    add x1, x1, #4
    msr ELR_EL2, x1
    eret
el2_hvc:
    and x1, x0, #0xffff
    cmp x1, #1
    b.ne check_records
    mov x0, #(1 << 31)             // RW only: the traps cleared
    msr HCR_EL2, x0
    eret
check_records:
    adr x20, records
    sub x21, x19, x20              // 16 bytes per trap: 13 traps, none in the second pass
    cmp x21, #(13 * 16)
    check_eq 1
    adr x22, expected
    adr x23, expected_end
    mov x24, #2
compare:
    ldp x0, x1, [x20], #16
    ldp x2, x3, [x22], #16
    cmp x0, x2
    check_eq_id x24
    add x24, x24, #1
    cmp x1, x3
    check_eq_id x24
    add x24, x24, #1
    cmp x22, x23
    b.ne compare
    mov x9, #0
    semihost_exit x9
