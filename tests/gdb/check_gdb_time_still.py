#!/usr/bin/env python3
"""Simulated time stands still while GDB holds the CPU (docs/debugging.md): amu_count.elf runs
once alone and once under GDB, halted at a breakpoint and after a step for a second of wall time
each; the access logs of the two runs (every access's simulated time, CPU cycle and the AMU
counter values read) must be identical. Were time to pass while halted, the reads after the halt
would come later and count more.

usage: check_gdb_time_still.py PMUSIM GDB ELF"""
import os
import re
import subprocess
import sys
import tempfile
import threading

pmusim, gdb, elf = sys.argv[1:4]
env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")


def fail(msg, *texts):
    print("FAIL: " + msg)
    for t in texts:
        print("----\n" + t)
    sys.exit(1)


with tempfile.TemporaryDirectory() as tmp:
    alone, halted = os.path.join(tmp, "alone.jsonl"), os.path.join(tmp, "halted.jsonl")
    r = subprocess.run([pmusim, "firmware", "-q", "--log-json", alone, elf], capture_output=True, text=True,
                       env=env, timeout=60)
    if r.returncode != 0:
        fail(f"the run alone exits {r.returncode}", r.stdout, r.stderr)

    sim = subprocess.Popen([pmusim, "firmware", "-q", "--gdb", "0", "--gdb-wait", "--log-json", halted, elf],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    timer = threading.Timer(60, sim.kill)  # never hang
    timer.start()
    port, seen = None, []
    for line in sim.stderr:
        seen.append(line)
        m = re.search(r"GDB stub on 127\.0\.0\.1:(\d+)", line)
        if m:
            port = int(m.group(1))
            break
    if port is None:
        timer.cancel()
        fail("pmusim printed no GDB port", "".join(seen))
    # 0x80000010: the NOP after the two AMU counter reads (amu_count.S); the reads that follow it
    # (AMEVCNTR01 and the rest) come after a second of wall time at a breakpoint and one after a step.
    commands = ["set pagination off", "set confirm off", f"target remote 127.0.0.1:{port}",
                "break *0x80000010", "continue", "shell sleep 1", "stepi", "shell sleep 1", "continue"]
    args = [gdb, "-nx", "-batch", elf]
    for c in commands:
        args += ["-ex", c]
    g = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    out, err = sim.communicate(timeout=30)
    timer.cancel()
    if "Breakpoint 1, 0x0000000080000010" not in g.stdout or sim.returncode != 0:
        fail(f"the session did not stop at the breakpoint and run to the end (pmusim exit {sim.returncode})",
             g.stdout, out, err)
    a, h = open(alone).read().splitlines(), open(halted).read().splitlines()
    if len(a) < 4:
        fail(f"the run alone logged {len(a)} accesses; amu_count.elf makes at least 4", "\n".join(a))
    if a != h:
        fail("the access logs differ: time passed while GDB held the CPU", "\n".join(a), "\n".join(h))
    print(f"time stands still while halted: {len(a)} accesses at the same instants with the same values")
