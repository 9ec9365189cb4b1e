#!/usr/bin/env python3
"""The progress bar of long runs (docs/sequence-language.md, `--quiet`): drawn on stderr when
stderr is a terminal and the run lasts over a second, erased at the end; never drawn when stderr is
a pipe or a file (CI logs stay clean).

Usage: check_progress_bar.py PMUSIM"""
import os
import pty
import re
import subprocess
import sys
import tempfile
import time

pmusim = sys.argv[1]
env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
BAR = b"statements, simulated"

with tempfile.TemporaryDirectory() as d:
    seq = os.path.join(d, "long.seq")
    # Many statements, each some host time in the per-cycle reference mode: the run lasts seconds
    # on any machine this suite runs on, and the bar is redrawn between statements.
    with open(seq, "w") as f:
        f.write("platform arm-default\n")
        f.write("repeat 150\n  run 20000 cycles of cpu0\nend\n")

    # stderr a terminal: the bar appears (the run is long enough: checked by its wall time).
    master, slave = pty.openpty()
    start = time.monotonic()
    p = subprocess.Popen([pmusim, "run", seq, "--reference"], stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    rc = p.wait()
    wall = time.monotonic() - start
    os.close(master)
    assert rc == 0, f"exit {rc}: {seen[-500:]!r}"
    assert wall > 1.5, f"the run took {wall:.2f} s: too short to show a bar; lengthen the sequence"
    assert BAR in seen, f"no progress bar on a terminal in a {wall:.1f} s run: {seen[-500:]!r}"
    assert re.search(rb"\] \d+/\d+ statements, simulated ", seen), f"the bar counts no statements: {seen[-300:]!r}"
    assert b"\r\x1b[K" in seen[seen.rindex(BAR):], f"the bar is not erased at the end: {seen[-200:]!r}"

    # stderr a pipe: no bar at all, in the first 3 s of the same run (a terminal gets the bar after
    # 1 s) or in the whole of it if it ends sooner.
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen([pmusim, "run", seq, "--reference"], stdout=subprocess.DEVNULL, stderr=err, env=env)
        try:
            rc = p.wait(timeout=3)
            assert rc == 0, f"exit {rc}"
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        err.seek(0)
        piped = err.read()
    assert BAR not in piped, f"a bar in piped stderr: {piped[-300:]!r}"
print(f"progress bar: drawn on a terminal ({wall:.1f} s run), absent on a pipe")
