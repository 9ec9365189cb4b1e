#!/usr/bin/env python3
"""Steps and breakpoints around instructions the ISS executes itself (docs/debugging.md,
"Stepping", "Breakpoints"): GDB in batch mode against `pmusim firmware --gdb 0 --gdb-wait` running
tests/gdb/gdb_served.S. A step retires exactly one instruction, whether the engine or the ISS runs
it (a served MRS/MSR is one step, and a step onto one does not run it too); a breakpoint stops at
the first instruction of an engine run that starts there after an MRS/MSR, a WFE, an exception
entry or an ERET (only resuming from the breakpoint itself passes it).

usage: check_gdb_served.py PMUSIM GDB NM ELF [pmusim options, e.g. --reference]
The expected addresses are the program's labels (NM); every wait is bounded.
"""
import re
import sys

from gdb_harness import Stub, fail, symbols as symbols_of

pmusim, gdb, nm, elf = sys.argv[1:5]
extra = sys.argv[5:]


symbols = symbols_of(nm, elf)
sym = lambda name: symbols[name]

stub = Stub([pmusim, "firmware", "--gdb", "0", "--gdb-wait", "--time-limit", "10ms", *extra, elf])

# Each resume is followed by `print/x $pc`: the PCs GDB prints, in order, are checked below.
targets = ["second_mrs", "after_mrs", "after_wfe", "svc_vector", "after_svc"]
plan = [  # (command, where the PC must be after it, why)
    ("stepi", "served_msr", "a step from the MOV before a served MSR stops on the MSR"),
    ("stepi", "after_msr", "a step over the served MSR runs it alone"),
    ("continue", "second_mrs", "a breakpoint on a served MRS right after another one stops"),
    ("stepi", sym("second_mrs") + 4, "a step from a breakpoint on a served MRS runs it alone"),
    ("stepi", sym("second_mrs") + 8, "a step from a NOP before a served MRS stops on the MRS"),
    ("continue", "after_mrs", "a breakpoint right after a served MRS stops"),
    ("continue", "after_wfe", "a breakpoint right after a WFE stops"),
    ("continue", "svc_vector", "a breakpoint on an exception vector stops after the SVC"),
    ("continue", "after_svc", "a breakpoint on the ERET's return address stops"),
]
commands = [f"break *{sym(t):#x}" for t in targets]
for c, _, _ in plan:
    commands += [c, "print/x $pc"]
commands += ["print/x $x21", "print/x $x22", "info breakpoints", "continue"]
text = stub.gdb(gdb, elf, commands)
rc, out, err = stub.finish(text)

values = [int(v, 16) for v in re.findall(r"^\$\d+ = (0x[0-9a-f]+)$", text, re.M)]
for (command, where, why), pc in zip(plan, values):
    want = sym(where) if isinstance(where, str) else where
    if pc != want:
        fail(f"{why}: after `{command}` the PC is {pc:#x}, expected {want:#x} ({where})", text, out, err)
if len(values) != len(plan) + 2:
    fail(f"expected {len(plan) + 2} printed values, got {len(values)} (the firmware ended early?)", text, out, err)
# At after_svc, before its ADD: the ADD at after_mrs ran once, the handler once.
if values[-2:] != [1, 1]:
    fail(f"x21, x22 = {[hex(v) for v in values[-2:]]}, expected 0x1, 0x1", text)
# Each breakpoint was hit exactly once (none passed, none reported twice).
hits = re.findall(r"breakpoint already hit (\d+) time", text)
if hits != ["1"] * len(targets):
    fail(f"breakpoint hit counts {hits}, expected one hit for each of {len(targets)}", text)
if not re.search(r"\[Inferior 1 \([^)]*\) exited normally\]", text):
    fail("continue runs to the firmware's pass (exit 0)", text, out, err)
if rc != 0 or "gdb_served: pass" not in out:
    fail(f"pmusim exited {rc} without the pass line", text, out, err)
print(f"PASS: {len(plan)} steps and breakpoints around ISS-served instructions{' (' + ' '.join(extra) + ')' if extra else ''}")
