// The engine's first run (docs/firmware.md "The engine driver"): from its second block on, the
// block hook leaves the scan of new code to the edge hook (UC_HOOK_EDGE_GENERATED), which Unicorn
// calls for every block translated once the first has returned to its loop. So code copied at run
// time and reached in that same first run, with no engine stop before it, still runs with the ISS's
// state: at EL3 a copied `MRS x0, CurrentEL` reads EL3 (0xC; Arm ARM D24.2.37 CurrentEL.EL [3:2]),
// not the engine's EL1. Nothing before the copy stops the engine (no MSR, no exit).
#include "common.inc"
.globl _start
_start:
    ldr x10, =0x80100000           // where the code is copied (outside the ELF)
    adr x11, snippet
    mov x12, #(snippet_end - snippet)
1:  ldr w13, [x11], #4
    str w13, [x10], #4
    subs x12, x12, #4
    b.ne 1b
    ic iallu
    isb
    ldr x10, =0x80100000
    blr x10                        // x0 = CurrentEL, read by the copy
    cmp x0, #(3 << 2)
    check_eq 1
    mov x9, #0
    semihost_exit x9

    .balign 8
snippet:
    mrs x0, CurrentEL
    ret
snippet_end:
