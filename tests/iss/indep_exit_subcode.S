// Independent firmware (issue 28): SYS_EXIT (0x18) with reason ADP_Stopped_ApplicationExit
// (0x20026) and subcode 256. docs/firmware.md "Exit status": any subcode other than 0 is a failure
// (exit code 1). 256 is 0 modulo 256: a status cut to 8 bits, as a Unix exit status is, would pass.
#include "common.inc"
.globl _start
_start:
    mov x9, #256
    semihost_exit x9
