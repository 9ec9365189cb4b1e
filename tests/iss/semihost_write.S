// Semihosting (Arm "Semihosting for AArch32 and AArch64" 2.0): SYS_WRITE (0x05) returns the
// number of bytes NOT written; SYS_GET_CMDLINE (0x15) returns 0 on success, -1 on error
// (issue 28 item 8's reproducers).
//   SYS_WRITE of 100,000 bytes to stdout (handle 2 from SYS_OPEN ":tt" mode 4)   -> 0
//   SYS_WRITE of 16 bytes from a unit window (the DSU frame, 0x2A000000)          -> 16
//   SYS_GET_CMDLINE into a window buffer                                          -> -1
//   SYS_GET_CMDLINE into a 64-byte memory buffer                                  -> 0, length 0, ""
#include "common.inc"
.globl _start
_start:
    // 100,000 bytes of 'a' at DRAM + 1 MiB, a newline last
    ldr x10, =0x80100000
    ldr x11, =100000
    mov w12, #'a'
    mov x13, x10
1:  strb w12, [x13], #1
    subs x11, x11, #1
    b.ne 1b
    mov w12, #'\n'
    strb w12, [x13, #-1]
    adr x1, block
    ldr x2, =2                     // stdout (SYS_OPEN ":tt" mode 4 gives 2)
    str x2, [x1]
    str x10, [x1, #8]
    ldr x2, =100000
    str x2, [x1, #16]
    mov x0, #0x05                  // SYS_WRITE
    hlt #0xf000
    cmp x0, #0
    check_eq 1
    ldr x2, =0x2A000000            // dsu0's frame: not memory
    str x2, [x1, #8]
    mov x2, #16
    str x2, [x1, #16]
    mov x0, #0x05
    hlt #0xf000
    cmp x0, #16
    check_eq 2
    ldr x2, =0x2A000000
    str x2, [x1]
    mov x2, #64
    str x2, [x1, #8]
    mov x0, #0x15                  // SYS_GET_CMDLINE
    hlt #0xf000
    cmn x0, #1                     // -1
    check_eq 3
    adr x2, cmdline
    str x2, [x1]
    mov x2, #64
    str x2, [x1, #8]
    mov x0, #0x15
    hlt #0xf000
    cmp x0, #0
    check_eq 4
    ldr x2, [x1, #8]               // the length written back
    cmp x2, #0
    check_eq 5
    adr x2, cmdline
    ldrb w3, [x2]
    cmp w3, #0
    check_eq 6
    mov x9, #0
    semihost_exit x9

    .balign 8
block: .quad 0, 0, 0
cmdline: .fill 64, 1, 0x55
