#!/usr/bin/env python3
"""A GDB session in batch mode against `pmusim firmware --gdb 0 --gdb-wait` (docs/debugging.md):
break at a symbol, continue to it, read a unit's counter register through memory, step, read a
register, continue to the firmware's pass. Checks the text GDB prints and pmusim's exit.

usage: check_gdb_session.py PMUSIM GDB ELF
The port is the one the system picked (--gdb 0), read from pmusim's stderr; every wait is bounded.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gdb_harness import Stub, fail  # noqa: E402

pmusim, gdb, elf = sys.argv[1:4]

stub = Stub([pmusim, "firmware", "--gdb", "0", "--gdb-wait", "--time-limit", "10ms", elf])
text = stub.gdb(gdb, elf, [
    "info threads",
    "break after_write",
    "continue",
    "x/gx 0x5000A220",       # the CMN counter register, read through the gate
    "stepi", "stepi",
    "print/x $x20",
    "info registers cpsr",
    "continue",
])
returncode, out, err = stub.finish(text)

expect = [
    # GDB's thread list: one thread per CPU running firmware, described by the stub.
    (r"\* 1\s+Thread 1 \(cpu0 EL3 running firmware\)", "info threads lists cpu0"),
    (r"Breakpoint 1 at 0x[0-9a-f]+", "the breakpoint is set at the symbol"),
    (r"Breakpoint 1, 0x[0-9a-f]+ in after_write \(\)", "continue stops at after_write"),
    # The value the firmware wrote: four 16-bit counters 1, 2, 3, 4.
    (r"0x5000a220:\s+0x0004000300020001", "x/gx reads the counter register through memory"),
    (r"\$1 = 0x8\b", "two steps ran mov and add: x20 = 8"),
    # NZCV out of reset is UNKNOWN (Arm ARM D1.9): only M (EL3, SP_EL3) and DAIF (masked) are checked.
    (r"cpsr\s+0x[0-9a-f]+\s+\[ SP EL=3 F I A D ", "cpsr: EL3h with DAIF masked, as out of reset"),
    (r"\[Inferior 1 \([^)]*\) exited normally\]", "continue runs to the firmware's pass (exit 0)"),
]
for pattern, what in expect:
    if not re.search(pattern, text):
        fail(f"{what}: no match for {pattern!r}", text, out, err)
# Each stepi moves the PC one instruction (4 bytes) from the breakpoint's address.
m = re.search(r"Breakpoint 1, 0x([0-9a-f]+) in after_write", text)
steps = [int(a, 16) for a in re.findall(r"^0x([0-9a-f]+) in after_write \(\)$", text, re.M)]
if not m or steps != [int(m.group(1), 16) + 4, int(m.group(1), 16) + 8]:
    fail(f"stepi: expected the PC at the breakpoint + 4, + 8, got {[hex(s) for s in steps]}", text)
if returncode != 0:
    fail(f"pmusim exited {returncode}, expected 0", text, out, err)
if "gdb_session: pass" not in out:
    fail("the firmware's pass line is not in pmusim's output", text, out, err)
print("PASS: break, x/ of a counter, two steps, registers, continue to exit")
