// SYS_EXIT with ADP_Stopped_ApplicationExit and subcode 3: the firmware failed (exit 1).
// Before that, an operation semihosting does not define (0x99) answers -1 (docs/firmware.md).
#include "common.inc"
.globl _start
_start:
    mov x0, #0x99
    mov x1, #0
    hlt #0xf000
    cmn x0, #1                     // X0 == -1
    check_eq 1
    mov x9, #3
    semihost_exit x9
