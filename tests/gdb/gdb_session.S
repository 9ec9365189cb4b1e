// The firmware of the GDB session test (check_gdb_session.py, docs/debugging.md): writes a
// known value into a CMN-600 counter register (a unit window), then counts in a register, then
// passes. GDB stops at `after_write`, reads the counter through memory, steps and continues.
#include "../iss/common.inc"
.globl _start
_start:
    // XP (0,0) por_dtm_pmevcnt, four 16-bit counters in one 64-bit register, at PERIPHBASE
    // 0x50000000 + the XP's 0x8000 + 0x2220 (as tests/iss/mmio_in_block.S).
    ldr x13, =0x5000A220
    ldr x14, =0x0004000300020001
    str x14, [x13]
.globl after_write
after_write:
    mov x20, #7
    add x20, x20, #1           // x20 = 8 after two steps
    ldr x15, [x13]
    cmp x15, x14
    check_eq 1
.globl done
done:
    pass_with message
message: .asciz "gdb_session: pass\n"
