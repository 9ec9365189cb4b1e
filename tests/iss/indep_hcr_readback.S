// Independent firmware (issue 28): HCR_EL2 reads back what was written, from the Arm ARM (DDI 0487
// M.a.a) alone. (Until 2026-12-06 pmusim read the unmodelled fields as 0: status 3.)
// D24.2.62 HCR_EL2, "Accessing HCR_EL2": at EL3 `MSR HCR_EL2, Xt` is `HCR_EL2 = X[t, 64]` and
// `MRS Xt, HCR_EL2` is `X[t, 64] = HCR_EL2`: a plain read/write register. The fields below exist in
// every Armv8-A PE (no "When FEAT_..." condition in their descriptions), so each reads back as
// written:
// FMO 3, AMO 5, TSW 22, TPCP 23, TPU 24, TTLB 25, TDZ 28 (with RW 31 set; everything is written and
// read at EL3, so no trap takes effect). docs/firmware.md "Trap controls" lists them as not
// modelled and promises a log line for a write that sets one; it does not say that they read as 0.
// SCR_EL3's unmodelled bits (FIQ, bit 2) read back as written (tests/iss/indep_traps_sysreg.S
// writes it). Exit status: the number of the first bit that reads back wrong; 0 = as the Arm ARM
// says.
#include "common.inc"
#define HCR_EL2   S3_4_C1_C1_0

.macro readback bit
    ldr x0, =((1 << 31) | (1 << \bit))
    msr HCR_EL2, x0
    mrs x1, HCR_EL2
    cmp x0, x1
    check_eq \bit
.endm

.globl _start
_start:
    readback 3
    readback 5
    readback 22
    readback 23
    readback 24
    readback 25
    readback 28
    mov x0, #(1 << 31)
    msr HCR_EL2, x0
    mov x9, #0
    semihost_exit x9
