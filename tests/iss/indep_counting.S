// Independent firmware (issue 28, "Done when"): written from docs/firmware.md's contract ("Time":
// what each kind of exception counts) and the Arm ARM (AMU event numbers, D24.6: AMEVCNTR00_EL0
// = CPU_CYCLES, AMEVCNTR02_EL0 = INST_RETIRED), without reading iss/. Two reads of a counter with
// N instructions between them differ by N + 1 (the first read retires too); CPU_CYCLES by the same
// times cycles_per_instruction (1 on arm-default). Between the reads:
//   SVC taken to EL3 + the handler's ERET:            2 retire -> 3
//   SMC taken to EL3 + ERET:                          2        -> 3
//   UDF (UNDEFINED, does not retire) + a 4-instruction handler (MRS ELR, ADD, MSR ELR, ERET) -> 5
//   semihosting HLT #0xF000 (SYS_TICKFREQ):           1        -> 2
//   WFE (a no-op: no trap control set):               1        -> 2
// Each case runs twice, once reading INST_RETIRED and once CPU_CYCLES; the exit status names it.
#include "common.inc"
#define SCR_EL3   S3_6_C1_C1_0
#define ELR_EL3   S3_6_C4_C0_1
#define VBAR_EL3  S3_6_C12_C0_0
#define AMCNTENSET0_EL0 S3_3_C13_C2_5
#define CYCLES    S3_3_C13_C4_0
#define INSTS     S3_3_C13_C4_2

// Read `counter`, run `insn`, read again; the difference must be `delta`.
.macro measure id, counter, delta, insn:vararg
    mrs x5, \counter
    \insn
    mrs x6, \counter
    sub x7, x6, x5
    cmp x7, #\delta
    check_eq \id
.endm

.globl _start
_start:
    adr x0, vectors_eret
    msr VBAR_EL3, x0
    mov x0, #((1 << 10) | 0x30)    // SCR_EL3: RW, RES1; SMD = 0
    msr SCR_EL3, x0
    mov x0, #0xf
    msr AMCNTENSET0_EL0, x0
    measure 1, INSTS, 3, svc #0
    measure 2, CYCLES, 3, svc #0
    measure 3, INSTS, 3, smc #0
    measure 4, CYCLES, 3, smc #0
    adr x0, vectors_skip
    msr VBAR_EL3, x0
    measure 5, INSTS, 5, udf #0
    measure 6, CYCLES, 5, udf #0
    mov x1, #0
    mov x0, #0x31                  // SYS_TICKFREQ
    measure 7, INSTS, 2, hlt #0xf000
    mov x0, #0x31
    measure 8, CYCLES, 2, hlt #0xf000
    measure 9, INSTS, 2, wfe
    measure 10, CYCLES, 2, wfe
    // A check that must fail when the counts are wrong is only as good as the counter: INST_RETIRED
    // moved at all (11).
    cmp x6, #0
    b.ne 1f
    mov x9, #11
    semihost_exit x9
1:  mov x9, #0
    semihost_exit x9


    .balign 0x800
vectors_eret:                      // SVC and SMC: VBAR_EL3 + 0x200 returns at once
    .skip 0x200
    eret

    .balign 0x800
vectors_skip:                      // UDF: VBAR_EL3 + 0x200 steps over the instruction
    .skip 0x200
    mrs x8, ELR_EL3
    add x8, x8, #4
    msr ELR_EL3, x8
    eret
