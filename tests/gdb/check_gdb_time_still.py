#!/usr/bin/env python3
"""Simulated time stands still while GDB holds the CPU (docs/debugging.md): amu_count.elf runs
once alone and once under GDB, halted at a breakpoint and after a step for a second of wall time
each; the access logs of the two runs (every access's simulated time, CPU cycle and the AMU
counter values read) must be identical. Were time to pass while halted, the reads after the halt
would come later and count more.

usage: check_gdb_time_still.py PMUSIM GDB ELF"""
import os
import subprocess
import sys
import tempfile

from gdb_harness import Stub, fail

pmusim, gdb, elf = sys.argv[1:4]
env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")


with tempfile.TemporaryDirectory() as tmp:
    alone, halted = os.path.join(tmp, "alone.jsonl"), os.path.join(tmp, "halted.jsonl")
    r = subprocess.run([pmusim, "firmware", "-q", "--log-json", alone, elf], capture_output=True, text=True,
                       env=env, timeout=60)
    if r.returncode != 0:
        fail(f"the run alone exits {r.returncode}", r.stdout, r.stderr)

    stub = Stub([pmusim, "firmware", "-q", "--gdb", "0", "--gdb-wait", "--log-json", halted, elf], env=env)
    # 0x80000010: the NOP after the two AMU counter reads (amu_count.S); the reads that follow it
    # (AMEVCNTR01 and the rest) come after a second of wall time at a breakpoint and one after a step.
    g = stub.gdb(gdb, elf, ["break *0x80000010", "continue", "shell sleep 1", "stepi", "shell sleep 1", "continue"])
    rc, out, err = stub.finish(g)
    if "Breakpoint 1, 0x0000000080000010" not in g or rc != 0:
        fail(f"the session did not stop at the breakpoint and run to the end (pmusim exit {rc})", g, out, err)
    a, h = open(alone).read().splitlines(), open(halted).read().splitlines()
    if len(a) < 4:
        fail(f"the run alone logged {len(a)} accesses; amu_count.elf makes at least 4", "\n".join(a))
    if a != h:
        fail("the access logs differ: time passed while GDB held the CPU", "\n".join(a), "\n".join(h))
    print(f"time stands still while halted: {len(a)} accesses at the same instants with the same values")
