// Independent firmware (issue 28): SYS_EXIT_EXTENDED (0x20) with reason
// ADP_Stopped_RunTimeErrorUnknown (0x20023) and subcode 0. docs/firmware.md "Exit status": any
// reason other than ADP_Stopped_ApplicationExit is a failure (exit code 1), whatever the subcode.
.globl _start
_start:
    mov x0, #0x20
    adr x1, block
    hlt #0xf000
    b .
    .balign 8
block: .quad 0x20023, 0
