// An EL0 read of CTR_EL0 under SCTLR_EL1.UCT, HCR_EL2.TID2 and HCR_EL2.TGE (issue 28 item 6).
// Arm ARM DDI 0487, D24.2.42 CTR_EL0, "Accessing CTR_EL0", MRS at EL0 (E2H = 0, so EL0 is not in a
// host): SCTLR_EL1.UCT == 0 traps to EL1, or to EL2 when EL2 is enabled and HCR_EL2.TGE == 1;
// elsif EL2 is enabled and HCR_EL2.TID2 == 1, traps to EL2 (TGE plays no part there); else the read
// returns CTR_EL0. All with EC 0x18 and the MRS's ISS (Arm ARM D24.2.47, "ISS encoding for an
// exception from MSR, MRS, or System instruction execution in AArch64 state": Op0 [21:20], Op2
// [19:17], Op1 [16:14], CRn [13:10], Rt [9:5], CRm [4:1], Direction [0] = 1 read; IL [25] = 1); the
// preferred return is the MRS itself. Bit positions: UCT 15 (SCTLR_EL1), TID2 17, TGE 27, RW 31
// (HCR_EL2; Linux arch/arm64/include/asm/kvm_arm.h, as tests/facts/cpu.tsv).
//
// EL2 (Non-secure, SCR_EL3.NS and HCE: EL2 enabled) runs six cases, each an ERET to the same EL0
// code (`mov x0, #0; mrs x0, CTR_EL0; svc #0`); a trap handler records ESR, ELR and its EL and
// returns past the MRS; the SVC comes home to EL2 (directly with TGE, else through EL1's HVC) with
// EL0's x0. The first case runs the code with no trap, so the later ones run code translated
// before TID2 was set. Expected, in order:
//   1. TID2 0, TGE 0, UCT 1: no trap, x0 = CTR_EL0 (as EL2 reads it: EL2 reads it untrapped)
//   2. TID2 1, TGE 0, UCT 1: EL2
//   3. TID2 1, TGE 0, UCT 0: EL1 (UCT's trap comes first)
//   4. TID2 0, TGE 1, UCT 1: no trap
//   5. TID2 1, TGE 1, UCT 1: EL2
//   6. TID2 0, TGE 1, UCT 0: EL2 (TGE routes UCT's trap)
#include "common.inc"
#define SCR_EL3   S3_6_C1_C1_0
#define SPSR_EL3  S3_6_C4_C0_0
#define ELR_EL3   S3_6_C4_C0_1
#define HCR_EL2   S3_4_C1_C1_0
#define SPSR_EL2  S3_4_C4_C0_0
#define ELR_EL2   S3_4_C4_C0_1
#define ESR_EL2   S3_4_C5_C2_0
#define VBAR_EL2  S3_4_C12_C0_0
#define RW        (1 << 31)
#define TGE       (1 << 27)
#define TID2      (1 << 17)
// ESR of the trapped MRS x0, CTR_EL0 (op0 3, op1 3, CRn 0, CRm 0, op2 1, Rt 0, read).
#define ESR_CTR   ((0x18 << 26) | (1 << 25) | (3 << 20) | (1 << 17) | (3 << 14) | (0 << 10) | (0 << 5) | (0 << 1) | 1)

// One case: HCR_EL2 := hcr, SCTLR_EL1.UCT := uct, ERET to EL0; back here after its SVC.
.macro run_case hcr, uct
    ldr x0, =\hcr
    msr HCR_EL2, x0
    mrs x0, SCTLR_EL1
    bic x0, x0, #(1 << 15)
    .if \uct
    orr x0, x0, #(1 << 15)
    .endif
    msr SCTLR_EL1, x0
    isb
    adr x28, 7f
    mov x0, #0x3c0                 // EL0t, DAIF masked
    msr SPSR_EL2, x0
    adr x0, el0_code
    msr ELR_EL2, x0
    eret
7:  add x27, x27, #32              // the next case's record
.endm

// The record at x26: ESR, ELR, EL of a trap (0, 0, 0: none), then EL0's x0; a mismatch exits
// with status 10 * case + field. x26 moves on.
.macro expect id, esr, el, x0value
    ldr x0, [x26]
    ldr x1, =\esr
    cmp x0, x1
    check_eq (\id * 10 + 1)
    ldr x0, [x26, #8]
    .if \el
    adr x1, el0_mrs
    .else
    mov x1, #0
    .endif
    cmp x0, x1
    check_eq (\id * 10 + 2)
    ldr x0, [x26, #16]
    cmp x0, #\el
    check_eq (\id * 10 + 3)
    ldr x0, [x26, #24]
    cmp x0, \x0value
    check_eq (\id * 10 + 4)
    add x26, x26, #32
.endm

.globl _start
_start:
    ldr x0, =((1 << 10) | (1 << 8) | 0x30 | 1)   // SCR_EL3: RW, HCE, RES1 [5:4], NS
    msr SCR_EL3, x0
    mov x0, #0x3c9                 // EL2h, DAIF masked
    msr SPSR_EL3, x0
    adr x0, el2_main
    msr ELR_EL3, x0
    eret

el2_main:
    adr x0, el2_vectors
    msr VBAR_EL2, x0
    adr x0, el1_vectors
    msr VBAR_EL1, x0
    adr x27, records
    run_case RW, 1
    run_case (RW | TID2), 1
    run_case (RW | TID2), 0
    run_case (RW | TGE), 1
    run_case (RW | TGE | TID2), 1
    run_case (RW | TGE), 0
    mov x0, #RW
    msr HCR_EL2, x0
    mrs x25, CTR_EL0               // EL2's read: never trapped
    cbnz x25, 1f
    mov x9, #99                    // CTR_EL0 reads 0: the "no trap" cases could not be told apart
    semihost_exit x9
1:  adr x26, records
    expect 1, 0, 0, x25
    expect 2, ESR_CTR, 2, xzr
    expect 3, ESR_CTR, 1, xzr
    expect 4, 0, 0, x25
    expect 5, ESR_CTR, 2, xzr
    expect 6, ESR_CTR, 2, xzr
    mov x9, #0
    semihost_exit x9
    .ltorg

el0_code:
    mov x0, #0
el0_mrs:
    mrs x0, CTR_EL0
    svc #0

    .balign 8
records: .fill 6 * 4, 8, 0

    .balign 0x800
el1_vectors:
    .skip 0x400
el1_lower_sync:                    // VBAR_EL1 + 0x400: synchronous from EL0
    mrs x20, ESR_EL1
    lsr x21, x20, #26
    cmp x21, #0x15                 // SVC: home to EL2
    b.eq 1f
    mrs x21, ELR_EL1
    mov x22, #1
    stp x20, x21, [x27]
    str x22, [x27, #16]
    add x21, x21, #4
    msr ELR_EL1, x21
    eret
1:  hvc #0

    .balign 0x800
el2_vectors:
    .skip 0x400
el2_lower_sync:                    // VBAR_EL2 + 0x400: synchronous from EL0 or EL1
    mrs x20, ESR_EL2
    lsr x21, x20, #26
    cmp x21, #0x18
    b.ne 1f                        // SVC from EL0 (TGE) or HVC from EL1: home
    mrs x21, ELR_EL2
    mov x22, #2
    stp x20, x21, [x27]
    str x22, [x27, #16]
    add x21, x21, #4
    msr ELR_EL2, x21
    eret
1:  str x0, [x27, #24]
    br x28
