// Trap controls of WFI, WFE and SMC (issue 28 item 6). Bit positions: tests/facts/cpu.tsv
// (HCR_EL2 TWI 13, TWE 14, TSC 19, RW 31; SCR_EL3 NS 0, HCE 8, RW 10, TWI 12); syndromes: Arm ARM
// D24.2.47 ESR_ELx: EC 0x01 "Trapped WFI or WFE" with IL [25] = 1, CV [24] = 1, COND [23:20] = 0b1110
// and TI [1:0] = 0 WFI / 1 WFE; EC 0x17 SMC with ISS = imm16. The preferred return address of a
// trapped instruction is the instruction itself (ELR = the WFI/WFE/SMC).
//   EL1 WFI with HCR_EL2.TWI = 1 -> EL2 (HCR_EL2.TWI before SCR_EL3.TWI, both set)
//   EL1 WFE with HCR_EL2.TWE = 1 -> EL2 (the second WFE after an ERET: the first consumes the
//   Event Register the exception return set, Arm ARM "Wait for Event mechanism and Send event")
//   EL1 SMC #0x12 with HCR_EL2.TSC = 1 -> EL2 (not EL3)
//   EL2 WFI with SCR_EL3.TWI = 1 -> EL3
// HCR_EL2 bit 28 (TDZ, not modelled) is set too: the log reports it once (check_log_once.sh).
// Each handler records ESR and ELR at [x19], x19 += 16, and returns past the instruction.
#include "common.inc"
#define SCR_EL3   S3_6_C1_C1_0
#define SPSR_EL3  S3_6_C4_C0_0
#define ELR_EL3   S3_6_C4_C0_1
#define ESR_EL3   S3_6_C5_C2_0
#define VBAR_EL3  S3_6_C12_C0_0
#define HCR_EL2   S3_4_C1_C1_0
#define SPSR_EL2  S3_4_C4_C0_0
#define ELR_EL2   S3_4_C4_C0_1
#define ESR_EL2   S3_4_C5_C2_0
#define VBAR_EL2  S3_4_C12_C0_0
.globl _start
_start:
    adr x19, records
    adr x0, el3_vectors
    msr VBAR_EL3, x0
    mov x0, #((1 << 12) | (1 << 10) | (1 << 8) | 0x30 | 1)   // SCR_EL3: TWI, RW, HCE, RES1 [5:4], NS
    msr SCR_EL3, x0
    mov x0, #0x3c9                 // EL2h, DAIF masked
    msr SPSR_EL3, x0
    adr x0, el2_entry
    msr ELR_EL3, x0
    eret
el2_entry:
    adr x0, el2_vectors
    msr VBAR_EL2, x0
    ldr x0, =((1 << 31) | (1 << 28) | (1 << 19) | (1 << 14) | (1 << 13))  // RW, TDZ, TSC, TWE, TWI
    msr HCR_EL2, x0
    msr HCR_EL2, x0                // a second write: TDZ is reported once
    mov x0, #0x3c5                 // EL1h, DAIF masked
    msr SPSR_EL2, x0
    adr x0, el1_entry
    msr ELR_EL2, x0
    eret
el1_entry:
wfi_at:
    wfi
    wfe                            // consumes the Event Register the handler's ERET set: no trap
wfe_at:
    wfe
smc_at:
    smc #0x12
    hvc #0                         // to EL2: its WFI traps to EL3, then it checks and exits
    b .

check_records:                     // at EL2
    adr x19, records
    ldr x0, [x19]
    ldr x1, =0x07e00000            // EC 0x01, IL, CV, COND 0b1110, TI 0 (WFI)
    cmp x0, x1
    check_eq 1
    ldr x0, [x19, #8]
    adr x1, wfi_at
    cmp x0, x1
    check_eq 2
    ldr x0, [x19, #16]
    ldr x1, =0x07e00001            // TI 1 (WFE)
    cmp x0, x1
    check_eq 3
    ldr x0, [x19, #24]
    adr x1, wfe_at
    cmp x0, x1
    check_eq 4
    ldr x0, [x19, #32]
    ldr x1, =0x5e000012            // EC 0x17, IL, imm16 0x12
    cmp x0, x1
    check_eq 5
    ldr x0, [x19, #40]
    adr x1, smc_at
    cmp x0, x1
    check_eq 6
    ldr x0, [x19, #48]             // EL2's WFI, taken to EL3
    ldr x1, =0x07e00000
    cmp x0, x1
    check_eq 7
    ldr x0, [x19, #56]
    adr x1, el2_wfi_at
    cmp x0, x1
    check_eq 8
    ldr x0, [x19, #64]             // EL3 saw exactly one
    cmp x0, #1
    check_eq 9
    mov x9, #0
    semihost_exit x9

    .balign 8
records: .fill 10, 8, 0

    .balign 0x800
el2_vectors:
    .skip 0x400
el2_lower_sync:                    // VBAR_EL2 + 0x400: from EL1
    mrs x0, ESR_EL2
    lsr x1, x0, #26
    cmp x1, #0x16                  // the HVC: EL2's own WFI, then the checks
    b.eq el2_wfi_at
    mrs x1, ELR_EL2
    stp x0, x1, [x19], #16
    add x1, x1, #4
    msr ELR_EL2, x1
    eret
el2_wfi_at:
    wfi
    b check_records

    .balign 0x800
el3_vectors:
    .skip 0x400
el3_lower_sync:                    // VBAR_EL3 + 0x400: from EL2
    mrs x0, ESR_EL3
    mrs x1, ELR_EL3
    adr x2, records
    stp x0, x1, [x2, #48]
    mov x3, #1
    str x3, [x2, #64]
    add x1, x1, #4
    msr ELR_EL3, x1
    eret
