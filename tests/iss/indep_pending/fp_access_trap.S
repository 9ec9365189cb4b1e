// Pending reproducer (not in ctest; tests/iss/indep_pending/README.md): exits 1 today, no trap is taken.
// CPACR_EL1.FPEN traps of FP/SIMD accesses (Arm ARM DDI 0487 D24.2.35 CPACR_EL1.FPEN [21:20]: 0b00
// and 0b10 trap EL0 and EL1, 0b01 EL0 only, 0b11 nothing; the trap is taken to EL1 with EC 0x07,
// IL 1 and, from AArch64, CV 1 and COND 0b1110: ESR 0x1fe00000; the preferred return is the
// instruction). CPACR_EL1 controls EL0 and EL1 only: EL3's FP/SIMD instructions run whatever it
// holds (D24.2.35 "Traps execution at EL1 and EL0").
//   EL1, FPEN 0b00: FMOV d0, x1 -> EL1, ESR_EL1 0x1fe00000, ELR = the FMOV; the handler sets FPEN
//     0b11 and returns to the FMOV, which now runs (d0 = x1);
//   EL0, FPEN 0b01: LDR q0, [x2] -> EL1 (EC 0x07); EL1's own FADD under 0b01 runs;
//   EL1, FPEN 0b00, then SMC to EL3: EL3's FMOV and MRS FPCR run.
#include "common.inc"
#define SCR_EL3   S3_6_C1_C1_0
#define SPSR_EL3  S3_6_C4_C0_0
#define ELR_EL3   S3_6_C4_C0_1
#define VBAR_EL3  S3_6_C12_C0_0
.globl _start
_start:
    adr x0, el3_vectors
    msr VBAR_EL3, x0
    mov x0, #((1 << 10) | 0x30 | 1)   // SCR_EL3: RW, RES1 [5:4], NS
    msr SCR_EL3, x0
    msr CPACR_EL1, xzr                 // FPEN 0b00
    adr x0, el1_vectors
    msr VBAR_EL1, x0
    mov x0, #0x3c5                     // EL1h, DAIF masked
    msr SPSR_EL3, x0
    adr x0, el1_entry
    msr ELR_EL3, x0
    eret
el1_entry:
    mov x21, #0                        // traps taken to EL1
    ldr x1, =0x1234567890abcdef
el1_fmov_at:
    fmov d0, x1                        // traps (FPEN 0b00), then runs after the handler's FPEN 0b11
    cmp x21, #1
    check_eq 1
    ldr x0, =0x1fe00000
    cmp x22, x0                        // ESR_EL1 as the handler saw it
    check_eq 2
    adr x0, el1_fmov_at
    cmp x23, x0                        // ELR_EL1
    check_eq 3
    fmov x3, d0
    cmp x3, x1
    check_eq 4
    mov x0, #(1 << 20)                 // FPEN 0b01: EL0 traps, EL1 does not
    msr CPACR_EL1, x0
    isb
    fadd d1, d0, d0                    // EL1: runs
    mov x0, #0x3c0                     // EL0t
    msr SPSR_EL1, x0
    adr x0, el0_entry
    msr ELR_EL1, x0
    adr x2, data
    eret
el0_entry:
el0_ldr_at:
    ldr q0, [x2]                       // traps to EL1; the handler returns past it
    svc #1                             // back to EL1 (el1_sync: x21 counts, then el1_after_el0)
    b .

el1_after_el0:
    cmp x21, #2                        // the FMOV trap, the EL0 LDR trap
    check_eq 5
    ldr x0, =0x1fe00000
    cmp x22, x0
    check_eq 6
    adr x0, el0_ldr_at
    cmp x23, x0
    check_eq 7
    msr CPACR_EL1, xzr                 // FPEN 0b00 for EL1 and EL0; EL3 is not affected
    isb
    smc #0
    cmp x24, x1                        // EL3's FMOV round trip
    check_eq 8
    cmp x21, #2                        // no further trap
    check_eq 9
    mov x9, #0
    semihost_exit x9

    .balign 16
data: .quad 1, 2

    .balign 0x800
el1_vectors:
    .skip 0x200
el1_current_sync:                      // VBAR_EL1 + 0x200: a trap from EL1
    add x21, x21, #1
    mrs x22, ESR_EL1
    mrs x23, ELR_EL1
    mov x0, #(3 << 20)                 // FPEN 0b11; return to the FMOV
    msr CPACR_EL1, x0
    eret
    .balign 0x80
    .skip 0x180
el1_lower_sync:                        // VBAR_EL1 + 0x400: from EL0
    mrs x0, ESR_EL1
    lsr x0, x0, #26
    cmp x0, #0x15                      // the SVC: done at EL0
    b.eq 1f
    add x21, x21, #1
    mrs x22, ESR_EL1
    mrs x23, ELR_EL1
    add x0, x23, #4                    // past the LDR
    msr ELR_EL1, x0
    eret
1:  b el1_after_el0

    .balign 0x800
el3_vectors:
    .skip 0x400
el3_lower_sync:                        // VBAR_EL3 + 0x400: the SMC from EL1
    fmov d5, x1
    mrs x0, FPCR
    fmov x24, d5
    eret                               // ELR_EL3 is past the SMC
