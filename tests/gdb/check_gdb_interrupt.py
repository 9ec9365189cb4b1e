#!/usr/bin/env python3
"""GDB attaches to a running firmware (no --gdb-wait), continues, is interrupted with Ctrl-C
(SIGINT to GDB, which sends 0x03), reads the PC, and kills the firmware (docs/debugging.md).
tests/iss/forever.S loops at _start forever. pmusim exits 1: killed by the debugger.

usage: check_gdb_interrupt.py PMUSIM GDB ELF
"""
import re
import signal
import subprocess
import sys
import threading
import time

pmusim, gdb, elf = sys.argv[1:4]

def fail(msg, *texts):
    print("FAIL: " + msg)
    for t in texts:
        print("----\n" + t)
    sys.exit(1)

sim = subprocess.Popen([pmusim, "firmware", "--gdb", "0", "--time-limit", "100s", elf],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
guard = threading.Timer(90, sim.kill)  # never hang
guard.start()
line = sim.stderr.readline()
m = re.search(r"GDB stub on 127\.0\.0\.1:(\d+)", line)
if not m:
    sim.kill()
    fail("no port line", line)
port = m.group(1)
g = subprocess.Popen([gdb, "-nx", "-batch", elf, "-ex", "set confirm off", "-ex", f"target remote 127.0.0.1:{port}",
                      "-ex", "print/x $pc", "-ex", "continue", "-ex", "print/x $pc", "-ex", "kill"],
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
gdb_guard = threading.Timer(60, g.kill)
gdb_guard.start()
seen = []
for l in g.stdout:  # attached and stopped once GDB printed the first $1
    seen.append(l)
    if l.startswith("$1 = "):
        break
time.sleep(1)  # `continue` is running now
g.send_signal(signal.SIGINT)
rest, _ = g.communicate()
text = "".join(seen) + rest
gdb_guard.cancel()
try:
    out, err = sim.communicate(timeout=30)
except subprocess.TimeoutExpired:
    sim.kill()
    out, err = sim.communicate()
guard.cancel()
for pattern, what in [(r"Program received signal SIGINT, Interrupt\.", "Ctrl-C stops the running firmware"),
                      (r"\$2 = 0x80000000", "the PC after the interrupt is the loop's"),
                      (r"\[Inferior 1 \([^)]*\) killed\]", "kill ends it")]:
    if not re.search(pattern, text):
        fail(f"{what}: no match for {pattern!r}", text, out, err)
if sim.returncode != 1 or "killed by the debugger" not in out + err:
    fail(f"pmusim: expected exit 1, killed by the debugger; got {sim.returncode}", text, out, err)
print("PASS: attach to a running firmware, Ctrl-C, kill")
