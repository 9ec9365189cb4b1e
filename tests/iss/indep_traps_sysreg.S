// Independent firmware (issue 28, "Done when"): written from the Arm ARM (DDI 0487 M.a.a) and
// docs/firmware.md's contract alone, without reading iss/. System-register accesses trapped by
// HCR_EL2, CPTR_EL2, CPTR_EL3, AMUSERENR_EL0 and routed by MDCR_EL2.TDE:
// - HCR_EL2 field descriptions (D24.2.62), with EL2 enabled (Non-secure, SCR_EL3.EEL2 = 0) and
//   TGE = 0, each trapping EL1 accesses to EL2: TVM (bit 26) writes and TRVM (bit 30) reads of
//   SCTLR_EL1, TTBR0_EL1, TTBR1_EL1, TCR_EL1, ESR_EL1, FAR_EL1, AFSR0_EL1, AFSR1_EL1, MAIR_EL1,
//   AMAIR_EL1, CONTEXTIDR_EL1; TID1 (16) reads of REVIDR_EL1, AIDR_EL1; TID2 (17) reads of CTR_EL0,
//   CCSIDR_EL1, CLIDR_EL1, CSSELR_EL1 and writes of CSSELR_EL1; TID3 (18) reads of the ID group 3
//   registers, and of a reserved encoding in op0 3, op1 0, CRn 0, CRm 2-7 (the Arm ARM requires
//   that one with FEAT_FGT and leaves it IMPLEMENTATION DEFINED without; docs/firmware.md promises
//   it); TACR (21) ACTLR_EL1; TIDCP (20) the IMPLEMENTATION DEFINED encodings (CRn 11 and 15: the
//   DSU's CLUSTERPMCR_EL1). The bits do not apply to EL2, nor to Secure EL1 (EL2 not enabled), nor
//   to MIDR_EL1 / MPIDR_EL1 (CRm 0: not group 3) or VBAR_EL1 (not a TVM register); an EL0 MSR of
//   SCTLR_EL1 stays UNDEFINED at EL1 (EC 0x00). TID2 traps EL0's CTR_EL0 read too, after
//   SCTLR_EL1.UCT = 0's own trap to EL1 (D24.2.42 CTR_EL0, "Accessing CTR_EL0").
// - CPTR_EL3.TAM (bit 30, D24.2.39) traps EL0-EL2 accesses to the Activity Monitors registers to
//   EL3; CPTR_EL2.TAM (bit 30, D24.2.38, E2H = 0) EL0 and EL1 accesses to EL2 (EL2 enabled);
//   AMUSERENR_EL0.EN = 0 EL0 accesses to EL1 (D24.6.15), in the order of "Accessing
//   AMEVCNTR0<n>_EL0" (D24.6.9) and of D1.4.5.6 "Prioritization of Synchronous exceptions taken
//   to AArch64 state": a trap to EL1 (priority 21) before one to EL2 (22-29), before one to EL3.
// - The syndrome (D24.2.46 ESR_EL2, "ISS encoding for an exception from MSR, MRS, or System
//   instruction execution in AArch64 state"): EC 0x18, IL 1, ISS = Op0 [21:20], Op2 [19:17],
//   Op1 [16:14], CRn [13:10], Rt [9:5], CRm [4:1], Direction [0] (1 = MRS); ELR = the instruction;
//   a trapped MRS leaves Rt alone, a trapped MSR leaves the register alone (EL3 compares the 11
//   TVM registers with the values it set before).
// - Once the bits are clear, none of the accesses traps, and the TVM registers read back. One MSR
//   and one MRS of MAIR_EL1, each at a single address, run with TVM/TRVM clear, set, clear again:
//   they trap exactly while the bits are set (an ISS that keeps translated code must not keep
//   the old decision); the same for CLUSTERPMCR_EL1 with TIDCP and AMEVCNTR00_EL0 with
//   CPTR_EL2.TAM.
// - MDCR_EL2.TDE (D24.3.17): debug exceptions from EL0 and EL1 go to EL2 where EL2 is enabled: a
//   BRK (D2.7.2, EC 0x3C, ISS = imm16, ELR = the BRK) at Non-secure EL1 and EL0; not at Secure EL1.
// - HCR_EL2.TGE (D1.4.5.1 "Taking synchronous exceptions from EL0"): EL0's traps that go to EL1
//   go to EL2 instead (SCTLR_EL1.UCT, AMUSERENR_EL0.EN), and TID2 traps EL0's CTR_EL0 read.
// - Unmodelled bits (HCR_EL2.TTLB, bit 25; SCR_EL3.FIQ, bit 2) each written twice at the end:
//   docs/firmware.md "Trap controls" promises one log line each, which the ctests count.
// The instructions are built from the same fields as the expected ISS (`sys_trap`); the comment
// names each register (D24 register descriptions, "Accessing ..." encodings).
// Exit status: 10 x stage + the failing check (tests/iss/indep_traps.inc); + 5: a trapped MRS
// wrote its register; 1000 + n: EL3 found TVM register n changed by a trapped write; 1050 + n:
// with the bits clear EL1 read register n back wrong.
#include "common.inc"
#include "indep_exceptions.inc"
#include "indep_traps.inc"
#define ACTLR_EL3 S3_6_C1_C0_1
#define ACTLR_EL2 S3_4_C1_C0_1
#define CPTR_EL3  S3_6_C1_C1_2
#define CPTR_EL2  S3_4_C1_C1_2
#define AMUSERENR_EL0 S3_3_C13_C2_3
// CPTR_EL2 with E2H = 0: RES1 bits 13, 12, 9, 8, 7:0; TAM 30 (as CPTR_EL3's).
#define CPTR2_RES1 0x33ff
#define CPTR_TAM   (1 << 30)
// DSU ACTLR_EL3/ACTLR_EL2.CLUSTERPMUEN (bit 12; TF-A drivers/arm/dsu, docs/firmware.md boot_el3):
// EL1 and EL2 may write the cluster PMU registers, so that only TIDCP decides.
#define CLUSTERPMUEN (1 << 12)
#define HCR_ALL   (HCR_RW | HCR_TVM | HCR_TRVM | HCR_TID1 | HCR_TID2 | HCR_TID3 | HCR_TACR | \
                   HCR_TIDCP)
#define HCR_EL0   (HCR_ALL & ~HCR_TRVM)
#define SCR_NSEC  (SCR_BASE | SCR_NS)
#define SENTINEL  0x5a5a5a5a12345678
#define SERVICE_CPTR 0xf01
#define SERVICE_TDE  0xf02
// EC 0x18 for MSR MAIR_EL1, X5 / MRS X6, MAIR_EL1: op0 3, op1 0, CRn 10, CRm 2, op2 0.
#define ESR_MSR_MAIR_X5 (0x62000000 | (3 << 20) | (10 << 10) | (5 << 5) | (2 << 1))
#define ESR_MRS_X6_MAIR (0x62000000 | (3 << 20) | (10 << 10) | (6 << 5) | (2 << 1) | 1)
// MRS X6, CLUSTERPMCR_EL1 (S3_0_C15_C5_0) / AMEVCNTR00_EL0 (S3_3_C13_C4_0).
#define ESR_MRS_X6_DSU  (0x62000000 | (3 << 20) | (15 << 10) | (6 << 5) | (5 << 1) | 1)
#define ESR_MRS_X6_AMU  (0x62000000 | (3 << 20) | (3 << 14) | (13 << 10) | (6 << 5) | (4 << 1) | 1)
#define MDCR_EL2  S3_4_C1_C1_1

// An MRS (dir 1) or MSR (dir 0) of S<op0>_<op1>_C<crn>_C<crm>_<op2> with register x<rt> (31: XZR).
.macro sys_access dir, rt, op0, op1, crn, crm, op2
    .if \dir
      .if \rt == 31
        mrs xzr, S\op0\()_\op1\()_C\crn\()_C\crm\()_\op2
      .else
        mrs x\rt, S\op0\()_\op1\()_C\crn\()_C\crm\()_\op2
      .endif
    .else
      .if \rt == 31
        msr S\op0\()_\op1\()_C\crn\()_C\crm\()_\op2, xzr
      .else
        msr S\op0\()_\op1\()_C\crn\()_C\crm\()_\op2, x\rt
      .endif
    .endif
.endm
// The access traps to vector `vec` with EC 0x18 and the ISS of its fields; an MRS leaves x<rt>
// alone; an MSR writes `val` (x<rt> is set to it first).
.macro sys_trap stage, vec, m, dir, rt, op0, op1, crn, crm, op2, val=0
    .if \rt != 31
      .if \dir
        ldr x\rt, =SENTINEL
      .else
        ldr x\rt, =\val
      .endif
    .endif
    expect_trap \stage, \vec, \
        (0x62000000 | (\op0 << 20) | (\op2 << 17) | (\op1 << 14) | (\crn << 10) | (\rt << 5) | \
         (\crm << 1) | \dir), \
        \m, 0, sys_access \dir, \rt, \op0, \op1, \crn, \crm, \op2
    .if \dir && \rt != 31
      ldr x16, =SENTINEL
      cmp x\rt, x16
      check_eq (\stage * 10 + 5)
    .endif
.endm
// `BL label` to an instruction that traps to `vec` with ESR `esr`; the handler resumes after it.
.macro expect_call_trap stage, vec, m, label, esr
    mov x21, #\stage
    mov x26, #\vec
    ldr x23, =\esr
    mov x27, #\m
    adr x24, \label
    mov x25, x24
    add x28, x24, #4
    mov x20, #0
    bl \label
    cmp x20, #1
    check_eq (\stage * 10 + 9)
.endm
.macro sys_ok stage, dir, rt, op0, op1, crn, crm, op2
    no_exception \stage, sys_access \dir, \rt, \op0, \op1, \crn, \crm, \op2
.endm
// MDCR_EL2.TDE (bit 8) = `on`, the rest of MDCR_EL2 kept (EL3's service SERVICE_TDE).
.macro set_tde on
    mov x3, #\on
    smc #SERVICE_TDE
.endm
// CPTR_EL2 = x3, CPTR_EL3 = x4, AMUSERENR_EL0 = x5 (EL3's service SERVICE_CPTR), from EL1-EL3.
.macro set_cptr cptr2, cptr3, amuserenr
    ldr x3, =\cptr2
    ldr x4, =\cptr3
    mov x5, #\amuserenr
    smc #SERVICE_CPTR
.endm

// The 11 registers HCR_EL2.TVM/TRVM cover: n, name, op0, op1, CRn, CRm, op2, EL3's value, EL1's
// write, the Rt of EL1's MSR and of its MRS.
.macro for_each_tvm_reg what
    \what 1, SCTLR_EL1, 3, 0, 1, 0, 0, SCTLR_RES1, (SCTLR_RES1 | SCTLR_UCT), 3, 17
    \what 2, TTBR0_EL1, 3, 0, 2, 0, 0, 0x80100000, 0x80200000, 4, 18
    \what 3, TTBR1_EL1, 3, 0, 2, 0, 1, 0x80300000, 0x80400000, 5, 19
    \what 4, TCR_EL1, 3, 0, 2, 0, 2, 0x19, 0x1a, 6, 29
    \what 5, AFSR0_EL1, 3, 0, 5, 1, 0, 0, 1, 7, 30
    \what 6, AFSR1_EL1, 3, 0, 5, 1, 1, 0, 1, 8, 3
    \what 7, ESR_EL1, 3, 0, 5, 2, 0, 0x1234, 0x5678, 10, 4
    \what 8, FAR_EL1, 3, 0, 6, 0, 0, 0x1111, 0x2222, 11, 5
    \what 9, MAIR_EL1, 3, 0, 10, 2, 0, 0x44ff, 0xff44, 12, 6
    \what 10, AMAIR_EL1, 3, 0, 10, 3, 0, 0, 1, 13, 7
    \what 11, CONTEXTIDR_EL1, 3, 0, 13, 0, 1, 0x42, 0x43, 14, 8
.endm
// EL3: set each register and keep what it reads back.
.macro tvm_set n, name, op0, op1, crn, crm, op2, init, write, rtw, rtr
    ldr x0, =\init
    msr \name, x0
    mrs x0, \name
    str x0, [x1, #(8 * (\n - 1))]
.endm
// EL3: the register still holds what tvm_set kept (1000 + n if not).
.macro tvm_unchanged n, name, op0, op1, crn, crm, op2, init, write, rtw, rtr
    mrs x0, \name
    ldr x2, [x1, #(8 * (\n - 1))]
    cmp x0, x2
    check_eq (1000 + \n)
.endm
// EL1 with TVM and TRVM: stage 2n - 1 writes, 2n reads.
.macro tvm_trap n, name, op0, op1, crn, crm, op2, init, write, rtw, rtr
    sys_trap (2 * \n - 1), V_EL2_LOW, 5, 0, \rtw, \op0, \op1, \crn, \crm, \op2, \write
    sys_trap (2 * \n), V_EL2_LOW, 5, 1, \rtr, \op0, \op1, \crn, \crm, \op2
.endm
// EL1 with the bits clear: a write (of what EL3 set) and a read, no exception; the read gives what
// EL3 read back after its own write (1050 + n if not).
.macro tvm_free n, name, op0, op1, crn, crm, op2, init, write, rtw, rtr
    ldr x5, =\init
    sys_ok 60, 0, 5, \op0, \op1, \crn, \crm, \op2
    sys_ok 61, 1, 6, \op0, \op1, \crn, \crm, \op2
    adr x16, tvm_values
    ldr x16, [x16, #(8 * (\n - 1))]
    cmp x6, x16
    check_eq (1050 + \n)
.endm

.globl _start
_start:
    install_vectors
    mrs x0, ACTLR_EL3
    orr x0, x0, #CLUSTERPMUEN
    msr ACTLR_EL3, x0
    mrs x0, ACTLR_EL2
    orr x0, x0, #CLUSTERPMUEN
    msr ACTLR_EL2, x0
    msr CPTR_EL3, xzr
    mov x0, #CPTR2_RES1
    msr CPTR_EL2, x0
    adr x1, tvm_values
    for_each_tvm_reg tvm_set

    // 1-22: TVM writes and TRVM reads at EL1.
    go el1_all, SPSR_EL1H, SCTLR_RES1, HCR_ALL, SCR_NSEC
el1_all:
    for_each_tvm_reg tvm_trap
    // 23-24: TID1.
    sys_trap 23, V_EL2_LOW, 5, 1, 7, 3, 0, 0, 0, 6            // REVIDR_EL1
    sys_trap 24, V_EL2_LOW, 5, 1, 8, 3, 1, 0, 0, 7            // AIDR_EL1
    // 25-29: TID2.
    sys_trap 25, V_EL2_LOW, 5, 1, 10, 3, 3, 0, 0, 1           // CTR_EL0
    sys_trap 26, V_EL2_LOW, 5, 1, 11, 3, 1, 0, 0, 0           // CCSIDR_EL1
    sys_trap 27, V_EL2_LOW, 5, 1, 12, 3, 1, 0, 0, 1           // CLIDR_EL1
    sys_trap 28, V_EL2_LOW, 5, 1, 13, 3, 2, 0, 0, 0           // CSSELR_EL1
    sys_trap 29, V_EL2_LOW, 5, 0, 31, 3, 2, 0, 0, 0           // MSR CSSELR_EL1, XZR
    // 30-36: TID3.
    sys_trap 30, V_EL2_LOW, 5, 1, 14, 3, 0, 0, 1, 0           // ID_PFR0_EL1
    sys_trap 31, V_EL2_LOW, 5, 1, 17, 3, 0, 0, 3, 0           // MVFR0_EL1
    sys_trap 32, V_EL2_LOW, 5, 1, 18, 3, 0, 0, 4, 0           // ID_AA64PFR0_EL1
    sys_trap 33, V_EL2_LOW, 5, 1, 19, 3, 0, 0, 5, 0           // ID_AA64DFR0_EL1
    sys_trap 34, V_EL2_LOW, 5, 1, 29, 3, 0, 0, 6, 0           // ID_AA64ISAR0_EL1
    sys_trap 35, V_EL2_LOW, 5, 1, 30, 3, 0, 0, 7, 0           // ID_AA64MMFR0_EL1
    sys_trap 36, V_EL2_LOW, 5, 1, 15, 3, 0, 0, 3, 3           // reserved (MVFR2 is op2 2)
    // 37-38: TACR.
    sys_trap 37, V_EL2_LOW, 5, 1, 3, 3, 0, 1, 0, 1            // ACTLR_EL1
    sys_trap 38, V_EL2_LOW, 5, 0, 4, 3, 0, 1, 0, 1, 0         // MSR ACTLR_EL1
    // 39-40: TIDCP, the DSU's CLUSTERPMCR_EL1 (S3_0_C15_C5_0).
    sys_trap 39, V_EL2_LOW, 5, 1, 5, 3, 0, 15, 5, 0
    sys_trap 40, V_EL2_LOW, 5, 0, 6, 3, 0, 15, 5, 0, 0
    // 41-43: not trapped: MIDR_EL1, MPIDR_EL1, VBAR_EL1.
    sys_ok 41, 1, 5, 3, 0, 0, 0, 0
    sys_ok 42, 1, 5, 3, 0, 0, 0, 5
    sys_ok 43, 1, 5, 3, 0, 12, 0, 0
    go el3_tvm_check, SPSR_EL3H, SCTLR_RES1, HCR_ALL, SCR_NSEC

el3_tvm_check:                     // 1000 + n: a trapped write changed register n
    adr x1, tvm_values
    for_each_tvm_reg tvm_unchanged
    // 44-50: EL2 with every bit set: nothing traps.
    go el2_all, SPSR_EL2H, SCTLR_RES1, HCR_ALL, SCR_NSEC
el2_all:
    ldr x5, =SCTLR_RES1
    sys_ok 44, 0, 5, 3, 0, 1, 0, 0                            // MSR SCTLR_EL1
    sys_ok 45, 1, 5, 3, 0, 10, 2, 0                           // MAIR_EL1
    sys_ok 46, 1, 5, 3, 0, 1, 0, 1                            // ACTLR_EL1
    sys_ok 47, 1, 5, 3, 0, 0, 0, 6                            // REVIDR_EL1
    sys_ok 48, 1, 5, 3, 3, 0, 0, 1                            // CTR_EL0
    sys_ok 49, 1, 5, 3, 0, 0, 4, 0                            // ID_AA64PFR0_EL1
    sys_ok 50, 1, 5, 3, 0, 15, 5, 0                           // CLUSTERPMCR_EL1
    // 51-53: EL0 with every bit but TRVM set (EL1's handler reads ESR_EL1) and SCTLR_EL1.UCT = 1.
    go el0_uct, SPSR_EL0T, (SCTLR_RES1 | SCTLR_UCT), HCR_EL0, SCR_NSEC
el0_uct:
    ldr x5, =SCTLR_RES1
    expect_trap 51, V_EL1_LOW, 0x02000000, 0, 0, msr SCTLR_EL1, x5 // UNDEFINED at EL1, not TVM
    expect_trap 52, V_EL1_LOW, 0x02000000, 0, 0, mrs x5, REVIDR_EL1
    sys_trap 53, V_EL2_LOW, 0, 1, 7, 3, 3, 0, 0, 1            // CTR_EL0: UCT = 1, TID2: EL2
    // 54: EL0 with UCT = 0: SCTLR_EL1's trap first, to EL1.
    go el0_nouct, SPSR_EL0T, SCTLR_RES1, HCR_EL0, SCR_NSEC, svc
el0_nouct:
    sys_trap 54, V_EL1_LOW, 0, 1, 8, 3, 3, 0, 0, 1            // CTR_EL0
    // 55-59: Secure EL1 with every bit set: EL2 is not enabled, nothing traps.
    go sel1_all, SPSR_EL1H, SCTLR_RES1, HCR_ALL, SCR_BASE, svc
sel1_all:
    ldr x5, =0x44ff
    sys_ok 55, 0, 5, 3, 0, 10, 2, 0                           // MSR MAIR_EL1
    sys_ok 56, 1, 5, 3, 0, 1, 0, 0                            // SCTLR_EL1
    sys_ok 57, 1, 5, 3, 0, 1, 0, 1                            // ACTLR_EL1
    sys_ok 58, 1, 5, 3, 0, 0, 0, 6                            // REVIDR_EL1
    sys_ok 59, 1, 5, 3, 0, 0, 4, 0                            // ID_AA64PFR0_EL1
    // 60-62: Non-secure EL1 with the bits clear: nothing traps; MAIR_EL1 holds what EL1 wrote.
    go el1_none, SPSR_EL1H, SCTLR_RES1, HCR_RW, SCR_NSEC
el1_none:
    for_each_tvm_reg tvm_free
    sys_ok 62, 1, 5, 3, 0, 0, 0, 6                            // REVIDR_EL1
    sys_ok 62, 1, 5, 3, 1, 0, 0, 7                            // AIDR_EL1
    sys_ok 62, 1, 5, 3, 3, 0, 0, 1                            // CTR_EL0
    sys_ok 62, 1, 5, 3, 1, 0, 0, 1                            // CLIDR_EL1
    sys_ok 62, 1, 5, 3, 0, 0, 4, 0                            // ID_AA64PFR0_EL1
    sys_ok 62, 1, 5, 3, 0, 1, 0, 1                            // ACTLR_EL1
    sys_ok 62, 1, 5, 3, 0, 15, 5, 0                           // CLUSTERPMCR_EL1
    ldr x5, =0x0444ff
    msr MAIR_EL1, x5
    mrs x6, MAIR_EL1
    cmp x5, x6
    check_eq 629

    // 70-80: the Activity Monitors. AMEVCNTR00_EL0 is S3_3_C13_C4_0, AMUSERENR_EL0 S3_3_C13_C2_3,
    // the one written here: the counters and their enables are writable at the highest EL only
    // (D24.6.6 "Accessing AMCNTENSET0_EL0": UNDEFINED below it, whatever TAM).
    set_cptr (CPTR2_RES1 | CPTR_TAM), CPTR_TAM, 0
    sys_trap 70, V_EL2_LOW, 5, 1, 5, 3, 3, 13, 4, 0           // both TAM: EL2 first
    sys_trap 71, V_EL2_LOW, 5, 0, 6, 3, 3, 13, 2, 3, 0        // MSR AMUSERENR_EL0
    set_cptr CPTR2_RES1, CPTR_TAM, 0
    sys_trap 72, V_EL3_LOW, 5, 1, 7, 3, 3, 13, 4, 0           // CPTR_EL3.TAM only: EL3
    sys_trap 73, V_EL3_LOW, 5, 0, 31, 3, 3, 13, 2, 3          // MSR AMUSERENR_EL0, XZR
    set_cptr CPTR2_RES1, 0, 0
    sys_ok 74, 1, 5, 3, 3, 13, 4, 0
    set_cptr (CPTR2_RES1 | CPTR_TAM), 0, 0
    go el2_tam, SPSR_EL2H, SCTLR_RES1, HCR_RW, SCR_NSEC
el2_tam:
    sys_ok 75, 1, 5, 3, 3, 13, 4, 0                           // CPTR_EL2.TAM: not EL2's own
    set_cptr (CPTR2_RES1 | CPTR_TAM), CPTR_TAM, 0
    sys_trap 76, V_EL3_LOW, 9, 1, 8, 3, 3, 13, 4, 0
    go el0_tam_en0, SPSR_EL0T, SCTLR_RES1, HCR_RW, SCR_NSEC
el0_tam_en0:                       // AMUSERENR_EL0.EN = 0: EL1 first
    sys_trap 77, V_EL1_LOW, 0, 1, 10, 3, 3, 13, 4, 0
    go el1_en1, SPSR_EL1H, SCTLR_RES1, HCR_RW, SCR_NSEC, svc
el1_en1:
    set_cptr (CPTR2_RES1 | CPTR_TAM), CPTR_TAM, 1
    go el0_tam_el2, SPSR_EL0T, SCTLR_RES1, HCR_RW, SCR_NSEC
el0_tam_el2:                       // EN = 1: CPTR_EL2.TAM next
    sys_trap 78, V_EL2_LOW, 0, 1, 11, 3, 3, 13, 4, 0
    go el1_el3only, SPSR_EL1H, SCTLR_RES1, HCR_RW, SCR_NSEC, svc
el1_el3only:
    set_cptr CPTR2_RES1, CPTR_TAM, 1
    go el0_tam_el3, SPSR_EL0T, SCTLR_RES1, HCR_RW, SCR_NSEC
el0_tam_el3:                       // then CPTR_EL3.TAM
    sys_trap 79, V_EL3_LOW, 0, 1, 12, 3, 3, 13, 4, 0
    go sel1_tam, SPSR_EL1H, SCTLR_RES1, HCR_RW, SCR_BASE, svc
sel1_tam:                          // Secure EL1: CPTR_EL2.TAM does not apply
    set_cptr (CPTR2_RES1 | CPTR_TAM), 0, 0
    sys_ok 80, 1, 5, 3, 3, 13, 4, 0
    // 81-84: MDCR_EL2.TDE routes debug exceptions from EL0 and EL1 to EL2 where EL2 is enabled
    // (D24.3.17 MDCR_EL2.TDE; D2.7.2 "Breakpoint instructions"): BRK, EC 0x3C, ISS = imm16
    // (0xF2000000 | imm16), ELR = the BRK.
    set_tde 0
    expect_trap 81, V_EL1_CUR, 0xf2000051, 5, 0, brk #0x51  // Secure EL1, TDE = 0: EL1
    set_tde 1
    expect_trap 82, V_EL1_CUR, 0xf2000052, 5, 0, brk #0x52  // Secure EL1: EL2 not enabled
    go el1_tde, SPSR_EL1H, SCTLR_RES1, HCR_RW, SCR_NSEC
el1_tde:
    expect_trap 83, V_EL2_LOW, 0xf2000053, 5, 0, brk #0x53  // Non-secure EL1: EL2
    go el0_tde, SPSR_EL0T, SCTLR_RES1, HCR_RW, SCR_NSEC
el0_tde:
    expect_trap 84, V_EL2_LOW, 0xf2000054, 0, 0, brk #0x54  // EL0: EL2
    go el1_pre_tge, SPSR_EL1H, SCTLR_RES1, HCR_RW, SCR_NSEC, svc
    // 85-87: EL0 with HCR_EL2.TGE = 1: the EL0 traps that would go to EL1 go to EL2.
el1_pre_tge:
    set_cptr CPTR2_RES1, 0, 0      // AMUSERENR_EL0.EN = 0, no TAM
    go el0_tge, SPSR_EL0T, (SCTLR_RES1 | SCTLR_UCT), (HCR_RW | HCR_TGE | HCR_TID2), SCR_NSEC
el0_tge:
    sys_trap 85, V_EL2_LOW, 0, 1, 5, 3, 3, 0, 0, 1            // CTR_EL0, UCT = 1: TID2
    sys_trap 86, V_EL2_LOW, 0, 1, 6, 3, 3, 13, 4, 0           // AMEVCNTR00_EL0, EN = 0
    go el0_tge_uct, SPSR_EL0T, SCTLR_RES1, (HCR_RW | HCR_TGE), SCR_NSEC, svc
el0_tge_uct:
    sys_trap 87, V_EL2_LOW, 0, 1, 7, 3, 3, 0, 0, 1            // CTR_EL0, UCT = 0, no TID2
    go el1_same, SPSR_EL1H, SCTLR_RES1, HCR_RW, SCR_NSEC, svc

    // 88-92: one MSR and one MRS of MAIR_EL1 at one address each (an ISS may translate code once
    // and keep it), run with TVM and TRVM clear, set, clear again: they trap exactly while set,
    // and the trapped write leaves MAIR_EL1 alone.
el1_same:
    ldr x5, =0x1111
    no_exception 88, bl mair_write
    no_exception 88, bl mair_read
    cmp x6, x5
    check_eq 887
    go el1_same_on, SPSR_EL1H, SCTLR_RES1, (HCR_RW | HCR_TVM | HCR_TRVM), SCR_NSEC
el1_same_on:
    ldr x5, =0x2222
    expect_call_trap 89, V_EL2_LOW, 5, mair_write, ESR_MSR_MAIR_X5
    ldr x6, =SENTINEL
    expect_call_trap 90, V_EL2_LOW, 5, mair_read, ESR_MRS_X6_MAIR
    ldr x16, =SENTINEL
    cmp x6, x16
    check_eq 905
    go el1_same_off, SPSR_EL1H, SCTLR_RES1, HCR_RW, SCR_NSEC
el1_same_off:
    no_exception 91, bl mair_read
    ldr x16, =0x1111
    cmp x6, x16
    check_eq 917
    ldr x5, =0x3333
    no_exception 92, bl mair_write
    mrs x6, MAIR_EL1
    cmp x6, x5
    check_eq 927
    // 93-96: the same with registers the gate holds: CLUSTERPMCR_EL1 (TIDCP) and AMEVCNTR00_EL0
    // (CPTR_EL2.TAM), one MRS each at one address.
    no_exception 93, bl dsu_read
    no_exception 93, bl amu_read
    set_cptr (CPTR2_RES1 | CPTR_TAM), 0, 0
    go el1_gate_on, SPSR_EL1H, SCTLR_RES1, (HCR_RW | HCR_TIDCP), SCR_NSEC
el1_gate_on:
    expect_call_trap 94, V_EL2_LOW, 5, dsu_read, ESR_MRS_X6_DSU
    expect_call_trap 95, V_EL2_LOW, 5, amu_read, ESR_MRS_X6_AMU
    set_cptr CPTR2_RES1, 0, 0
    go el1_gate_off, SPSR_EL1H, SCTLR_RES1, HCR_RW, SCR_NSEC
el1_gate_off:
    no_exception 96, bl dsu_read
    no_exception 96, bl amu_read
    go el3_end, SPSR_EL3H, SCTLR_RES1, HCR_RW, SCR_NSEC

    // Unmodelled control bits (docs/firmware.md "Trap controls": reported once per CPU in the
    // log; the ctests count the lines): HCR_EL2.TTLB (bit 25) and SCR_EL3.FIQ (bit 2), each
    // written twice.
el3_end:
    ldr x0, =(HCR_RW | (1 << 25))
    msr HCR_EL2, x0
    msr HCR_EL2, x0
    ldr x0, =(SCR_NSEC | (1 << 2))
    msr SCR_EL3, x0
    msr SCR_EL3, x0
    mov x9, #0
    semihost_exit x9

// MSR MAIR_EL1, X5 and MRS X6, MAIR_EL1 (S3_0_C10_C2_0), each at one address.
mair_write:
    msr MAIR_EL1, x5
    ret
mair_read:
    mrs x6, MAIR_EL1
    ret
dsu_read:
    mrs x6, S3_0_C15_C5_0          // CLUSTERPMCR_EL1
    ret
amu_read:
    mrs x6, S3_3_C13_C4_0          // AMEVCNTR00_EL0
    ret

// EL3's own services: CPTR_EL2, CPTR_EL3, AMUSERENR_EL0; MDCR_EL2.TDE; anything else is a
// provoked trap.
el3_other:
    ldr x2, =(0x5e000000 | SERVICE_CPTR)
    cmp x1, x2
    b.ne 1f
    msr CPTR_EL2, x3
    msr CPTR_EL3, x4
    msr AMUSERENR_EL0, x5
    eret
1:  ldr x2, =(0x5e000000 | SERVICE_TDE)
    cmp x1, x2
    b.ne common_el3_check
    mrs x2, MDCR_EL2
    bfi x2, x3, #8, #1
    msr MDCR_EL2, x2
    eret

    trap_handlers el3_other

    .balign 8
tvm_values:
    .fill 11, 8, 0
