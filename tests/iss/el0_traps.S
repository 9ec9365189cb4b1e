// EL0 cannot reach EL1 state (issue 28): each EL1-only register and instruction executed at EL0
// is UNDEFINED (EC 0x00, IL = 1: ESR 0x02000000) and taken to EL1 with ELR = the instruction, and
// does not execute (the VBAR_EL1 EL0 writes stays unwritten: the SVC at the end enters EL1's own
// table). The EL0-accessible class that an EL1 control disables traps with EC 0x18 instead:
// MSR DAIFClr with SCTLR_EL1.UMA = 0, MRS CTR_EL0 with SCTLR_EL1.UCT = 0, DC ZVA with DZE = 0.
// Arm ARM: the registers' "Accessibility" pseudocode (UNDEFINED at EL0 for SCTLR_EL1, VBAR_EL1,
// TTBR0_EL1, ESR_EL1, ELR_EL1, SPSR_EL1, CPACR_EL1, TLBI, IC IALLU); SCTLR_EL1.UMA/UCT/DZE;
// D24.2.47 ESR_ELx ISS for EC 0x18: Op0 [21:20] Op2 [19:17] Op1 [16:14] CRn [13:10] Rt [9:5]
// CRm [4:1] Direction [0] (1 = read).
#include "common.inc"
#define SCR_EL3   S3_6_C1_C1_0
#define SPSR_EL3  S3_6_C4_C0_0
#define ELR_EL3   S3_6_C4_C0_1
#define UNDEF     0x02000000
#define SYSTRAP(op0, op2, op1, crn, rt, crm, rd) ((0x18 << 26) | (1 << 25) | ((op0) << 20) | ((op2) << 17) | ((op1) << 14) | ((crn) << 10) | ((rt) << 5) | ((crm) << 1) | (rd))
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
    ldr x0, =0x30d50800            // SCTLR_EL1: RES1 bits, nTWI, nTWE; UMA, UCT, DZE, UCI = 0; MMU off
    msr sctlr_el1, x0
    isb
    adr x0, el1_vectors
    msr vbar_el1, x0
    adr x19, records
    mov x0, #0x3c0                 // EL0t, DAIF masked
    msr spsr_el1, x0
    adr x0, el0_entry
    msr elr_el1, x0
    eret

el0_entry:
    adr x0, el0_vectors
i0: mrs x1, sctlr_el1
i1: msr vbar_el1, x0
i2: mrs x1, ttbr0_el1
i3: mrs x1, esr_el1
i4: mrs x1, elr_el1
i5: mrs x1, spsr_el1
i6: mrs x1, cpacr_el1
i7: tlbi vmalle1
i8: ic iallu
i9: msr daifclr, #2
i10: mrs x1, ctr_el0
i11: dc zva, x19
    svc #0                         // to EL1's own table: the checks
    b .

el1_checks:
    adr x19, records
    adr x20, expected
    mov x21, #0
1:  ldp x0, x1, [x19], #16         // ESR, ELR recorded
    ldp x2, x3, [x20], #16         // expected ESR, ELR
    add x21, x21, #1
    cmp x0, x2
    b.ne fail
    cmp x1, x3
    b.ne fail
    cmp x21, #12
    b.ne 1b
    mrs x0, vbar_el1               // EL0's write did not happen
    adr x1, el1_vectors
    cmp x0, x1
    check_eq 99
    mrs x0, daif                   // EL0's DAIFClr did not happen: I still set
    and x0, x0, #0x80
    cmp x0, #0x80
    check_eq 98
    mov x9, #0
    semihost_exit x9
fail:
    mov x9, x21                    // which instruction (1-12) did not trap as expected
    semihost_exit x9

    .balign 8
expected:
    .quad UNDEF, i0
    .quad UNDEF, i1
    .quad UNDEF, i2
    .quad UNDEF, i3
    .quad UNDEF, i4
    .quad UNDEF, i5
    .quad UNDEF, i6
    .quad UNDEF, i7
    .quad UNDEF, i8
    .quad SYSTRAP(0, 7, 3, 4, 31, 2, 0), i9    // MSR DAIFClr, #2: op0 0, op1 3, CRn 4, CRm = imm 2, op2 7, write
    .quad SYSTRAP(3, 1, 3, 0, 1, 0, 1), i10    // MRS x1, CTR_EL0 (3,3,0,0,1): read
    .quad SYSTRAP(1, 1, 3, 7, 19, 4, 0), i11   // DC ZVA, x19 (1,3,7,4,1): write
records: .fill 24, 8, 0

    .balign 0x800
el1_vectors:
    .skip 0x400
el1_lower_sync:                    // VBAR_EL1 + 0x400: from EL0
    mrs x10, esr_el1
    lsr x11, x10, #26
    cmp x11, #0x15                 // the SVC: the checks, at EL1
    b.eq el1_checks
    mrs x11, elr_el1
    stp x10, x11, [x19], #16
    add x11, x11, #4
    msr elr_el1, x11
    eret

    .balign 0x800
el0_vectors:                       // what EL0 tried to install: never entered
    .skip 0x400
    mov x9, #97
    semihost_exit x9
