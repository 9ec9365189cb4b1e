#!/usr/bin/env python3
"""`pmusim sweep`: resume, progress, lazy grids, --shard ranges, checks before the first point,
analysis keys, stats names, merge column and quoting rules (docs/whatif.md "Sweeps").
Usage: check_sweep_resume.py PMUSIM (run from the source tree)."""
import csv
import io
import os
import pty
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from checklib import PMUSIM, check, finish, run

tmp = tempfile.mkdtemp(prefix="pmusim-sweep-resume-")


def write(name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


# A 10 us scenario: each point costs a fraction of a second. dsu0.cycles = 10 us x the DSU clock.
write("tiny.yaml", """name: tiny
params:
  dsu_clock: 1GHz
platform: arm-default
set:
  clocks.dsu0.frequency: ${dsu_clock}
duration: 10us
""")
sweep = write("sweep.yaml", """scenario: tiny.yaml
grid:
  dsu_clock: [250MHz, 500MHz, 1GHz, 2GHz]
stats: [dsu0.cycles]
""")
full = os.path.join(tmp, "full")
r = run("sweep", sweep, "-o", full, "-j", "2")
check(r.returncode == 0, f"uninterrupted sweep exits 0 ({r.stderr})")
want = read(os.path.join(full, "results.csv"), "rb")
# Typed columns after exit (docs/whatif.md "Results for analysis"): the platform, pmusim's version
# (as --version prints it), the duration in seconds and each parameter as a number (Hz).
version = run("--version").stdout.split()[-1].encode()
check(want == b"point,dsu_clock,exit,platform,pmusim_version,duration_s,dsu_clock_value,dsu0.cycles\n" +
      b"".join(b"%d,%s,0,arm-default,%s,0.00001,%d,%d\n" % (i, clk, version, hz, hz // 100_000)
               for i, (clk, hz) in enumerate([(b"250MHz", 250_000_000), (b"500MHz", 500_000_000),
                                             (b"1GHz", 1_000_000_000), (b"2GHz", 2_000_000_000)])),
      f"results: 10 us of 250 MHz .. 2 GHz ({want!r})")
check("pmusim sweep:" not in r.stderr, f"no progress line when stderr is not a terminal ({r.stderr!r})")


def mtimes(folder):
    return {p: os.stat(os.path.join(folder, "points", p, "simulate.out")).st_mtime_ns
            for p in sorted(os.listdir(os.path.join(folder, "points")))}


# Resume after a simulated interruption: a copy of the finished run with point 2's done record
# removed and its outputs gone, as a kill during point 2 leaves it. The re-run runs point 2 only.
cut = os.path.join(tmp, "cut")
shutil.copytree(full, cut)
os.remove(os.path.join(cut, "results.csv"))
os.remove(os.path.join(cut, "results.csv.complete"))
os.remove(os.path.join(cut, "points", "p00002", "point.done"))
os.remove(os.path.join(cut, "points", "p00002", "stats.json"))
before = mtimes(cut)
time.sleep(0.02)
r = run("sweep", sweep, "-o", cut)
after = mtimes(cut)
check(r.returncode == 0, f"the resumed sweep exits 0 ({r.stderr})")
check([p for p in before if before[p] != after[p]] == ["p00002"], f"only the missing point ran again ({before} {after})")
check(read(os.path.join(cut, "results.csv"), "rb") == want, "the resumed run's results.csv equals the uninterrupted run's")
# --no-resume runs every point again.
before = after
time.sleep(0.02)
r = run("sweep", sweep, "-o", cut, "--no-resume")
after = mtimes(cut)
check(r.returncode == 0 and all(before[p] != after[p] for p in before), "--no-resume runs every point")
# A done record of another sweep (a changed scenario) is not reused.
changed = os.path.join(tmp, "changed")
shutil.copytree(full, changed)
write("sweep2.yaml", read(sweep).replace("tiny.yaml", "tiny2.yaml"))
write("tiny2.yaml", read(os.path.join(tmp, "tiny.yaml")).replace("duration: 10us", "duration: 20us"))
r = run("sweep", os.path.join(tmp, "sweep2.yaml"), "-o", changed)
rows = list(csv.DictReader(io.StringIO(read(os.path.join(changed, "results.csv")))))
check([x["dsu0.cycles"] for x in rows] == ["5000", "10000", "20000", "40000"],
      f"points of a changed scenario run again (20 us: {[x['dsu0.cycles'] for x in rows]})")

# A real interruption: kill the sweep (and its points: their own process group) after its first
# point is recorded done, re-run, and compare the bytes.
killed = os.path.join(tmp, "killed")
proc = subprocess.Popen([PMUSIM, "sweep", sweep, "-o", killed, "-j", "1"], stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL, start_new_session=True)
first_done = os.path.join(killed, "points", "p00000", "point.done")
for _ in range(600):  # up to 30 s
    if os.path.exists(first_done) or proc.poll() is not None:
        break
    time.sleep(0.05)
interrupted = proc.poll() is None
os.killpg(proc.pid, signal.SIGKILL) if interrupted else None
proc.wait()
check(interrupted, "the sweep was still running when killed (point 0 done)")
check(not os.path.exists(os.path.join(killed, "results.csv")), "a killed sweep leaves no results.csv")
done_before = sorted(p for p in os.listdir(os.path.join(killed, "points"))
                     if os.path.exists(os.path.join(killed, "points", p, "point.done")))
before = {p: os.stat(os.path.join(killed, "points", p, "simulate.out")).st_mtime_ns for p in done_before}
r = run("sweep", sweep, "-o", killed)
check(r.returncode == 0, f"the re-run after a kill exits 0 ({r.stderr})")
check(all(os.stat(os.path.join(killed, "points", p, "simulate.out")).st_mtime_ns == before[p] for p in done_before),
      f"points done before the kill did not run again ({done_before})")
check(read(os.path.join(killed, "results.csv"), "rb") == want, "after a kill and a re-run: the same bytes")

# Progress on a terminal only: points done, running, failed, time left.
master, slave = pty.openpty()
proc = subprocess.Popen([PMUSIM, "sweep", sweep, "-o", os.path.join(tmp, "tty"), "-j", "2"], stdout=subprocess.DEVNULL,
                        stderr=slave)
os.close(slave)
seen = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:
        break
    if not chunk:
        break
    seen += chunk
proc.wait()
os.close(master)
text = seen.decode(errors="replace")
check(proc.returncode == 0, "sweep on a terminal exits 0")
check("pmusim sweep: 4 of 4 points done (0 resumed), 0 running, 0 failed" in text, f"the progress line on a terminal ({text!r})")
check("1 running" in text or "2 running" in text, f"progress counts running points ({text!r})")
check("s left" in text, f"progress estimates the time left ({text!r})")

# A grid of 12 parameters x 10 values (10^12 points) is never enumerated: --list of a shard
# runs in bounded memory. With values aN, point i's values are the 12 decimal digits of i
# (the first parameter most significant): an oracle independent of the code.
grid = "".join(f"  p{k}: [{', '.join(f'a{d}' for d in range(10))}]\n" for k in range(12))
big = write("big.yaml", f"scenario: tiny.yaml\ngrid:\n{grid}")


def limited():
    # An AddressSanitizer build reserves terabytes of shadow addresses at start: the address-space
    # bound applies to the normal build only (scripts/sanitize.sh sets ASAN_OPTIONS).
    if not os.environ.get("ASAN_OPTIONS"):
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


t = time.monotonic()
r = subprocess.run([PMUSIM, "sweep", big, "--list", "--shard", "123456789/4294967295"], capture_output=True, text=True,
                   preexec_fn=limited)
elapsed = time.monotonic() - t
lines = r.stdout.splitlines()
expect_idx = list(range(123456789, 10**12, 4294967295))
check(r.returncode == 0 and len(lines) == 1 + len(expect_idx), f"--list of a 10^12-point grid's shard ({r.returncode} {r.stderr[:300]})")
check(elapsed < 10, f"... in bounded time ({elapsed:.1f} s)")
if len(lines) == 1 + len(expect_idx):
    check(lines[0] == "point," + ",".join(f"p{k}" for k in range(12)), f"list header ({lines[0]})")
    rows_ok = all(line == f"{i}," + ",".join("a" + d for d in f"{i:012d}") for line, i in zip(lines[1:], expect_idx))
    check(rows_ok, f"point i's values are i's digits ({lines[1]}, {lines[-1]})")
# A misspelled parameter of that grid is refused before the first point (exit 2, its line).
bad = write("misspelled.yaml", f"scenario: tiny.yaml\ngrid:\n  dsu_clok: [1GHz]\n{grid}")
r = subprocess.run([PMUSIM, "sweep", bad, "-o", os.path.join(tmp, "misspelled")], capture_output=True, text=True,
                   preexec_fn=limited)
check(r.returncode == 2 and f"{bad}:3: dsu_clok: " in r.stderr and "not declared" in r.stderr,
      f"a misspelled parameter: exit 2 naming the sweep file's line ({r.returncode} {r.stderr})")
check(not os.path.exists(os.path.join(tmp, "misspelled", "points", "p00000")), "... before the first point")
badset = write("badset.yaml", "scenario: tiny.yaml\ngrid:\n  dsu_clock: [1GHz]\n  set.clocks.dsu9.frequency: [1GHz]\n")
r = run("sweep", badset, "-o", os.path.join(tmp, "badset"))
check(r.returncode == 2 and f"{badset}:4: set.clocks.dsu9.frequency: " in r.stderr,
      f"a platform path the platform lacks: exit 2 at its line ({r.stderr})")

# --shard ranges: N up to 2^64-1, never wrapped or divided by zero.
for shard, out in (("0/4294967296", "0,250MHz"), ("0/4294967297", "0,250MHz"), ("3/18446744073709551615", "3,2GHz"),
                   ("5/4294967297", None)):
    r = run("sweep", sweep, "--list", "--shard", shard)
    check(r.returncode == 0 and r.stdout.splitlines()[1:] == ([out] if out else []),
          f"--shard {shard} lists {out} ({r.returncode} {r.stdout!r} {r.stderr})")
for shard in ("0/18446744073709551616", "0/0", "-1/4", "4294967296/4294967296"):
    r = run("sweep", sweep, "--list", "--shard", shard)
    check(r.returncode == 2 and "expected K/N" in r.stderr, f"--shard {shard} refused ({r.returncode} {r.stderr})")
# An empty shard runs and merges: shard 5/8 of 4 points has none.
r = run("sweep", sweep, "-o", os.path.join(tmp, "empty"), "--shard", "5/8")
check(r.returncode == 0 and read(os.path.join(tmp, "empty", "results.csv.complete")) == "pmusim sweep results: shard 5/8, 0 rows\n",
      f"an empty shard ({r.stderr})")

# Unknown stats names are refused (exit 2, the sweep file's line), no results written.
badstats = write("badstats.yaml", "scenario: tiny.yaml\ngrid:\n  dsu_clock: [1GHz, 2GHz]\nstats:\n  - dsu0.cycles\n  - dsu0.cylces\n")
r = run("sweep", badstats, "-o", os.path.join(tmp, "badstats"))
check(r.returncode == 2 and f"{badstats}:6: stats: no event 'dsu0.cylces'" in r.stderr, f"unknown stats name ({r.stderr})")
check(not os.path.exists(os.path.join(tmp, "badstats", "results.csv")), "... and no results.csv")
r = run("sweep", write("dupstats.yaml", "scenario: tiny.yaml\ngrid:\n  dsu0.cycles: [1]\nstats: [dsu0.cycles]\n"))
check(r.returncode == 2 and ":4: stats: 'dsu0.cycles' is also a parameter name" in r.stderr, f"a stats column named as a parameter ({r.stderr})")

# Analysis keys may not overwrite a parameter, a stats column, point or exit: the point fails
# (exit 12 = 10 + 2) and says why; other keys become columns.
analysis = write("analysis.py", """import json, sys
mode = sys.argv[1]
print(json.dumps({"clash": {"dsu_clock": "x", "ok": 1}, "stats": {"dsu0.cycles": 1}, "typed": {"platform": "x"},
                  "quoted": {"note": "two\\nlines, \\"quoted\\"", "n": 7}}[mode]))
""")
for mode, needle in (("clash", "key 'dsu_clock' is the name of a parameter"), ("stats", "key 'dsu0.cycles' is the name"),
                     ("typed", "key 'platform' is the name of a parameter, a stats column, a typed column")):
    sw = write(f"an-{mode}.yaml", f"scenario: tiny.yaml\ngrid:\n  dsu_clock: [1GHz]\nstats: [dsu0.cycles]\n"
                                  f"analysis: [python3, \"{analysis}\", {mode}]\n")
    out = os.path.join(tmp, f"an-{mode}")
    r = run("sweep", sw, "-o", out)
    rows = list(csv.DictReader(io.StringIO(read(os.path.join(out, "results.csv")))))
    err = read(os.path.join(out, "points", "p00000", "analysis.err"))
    check(r.returncode == 1 and rows[0]["exit"] == "12" and needle in err and rows[0]["dsu_clock"] == "1GHz",
          f"analysis key {mode}: point fails with 12, says why, column intact ({r.stderr} {rows} {err})")

# Quoted fields with newlines, commas and quotes survive sweep and merge, byte for byte.
sw = write("an-quoted.yaml", f"scenario: tiny.yaml\ngrid:\n  dsu_clock: [500MHz, 1GHz, 2GHz]\n"
                             f"analysis: [python3, \"{analysis}\", quoted]\n")
whole = os.path.join(tmp, "q-whole")
r = run("sweep", sw, "-o", whole)
check(r.returncode == 0, f"quoted analysis sweep ({r.stderr})")
qwant = read(os.path.join(whole, "results.csv"), "rb")
check(b'"two\nlines, ""quoted"""' in qwant, f"the CSV quotes a field with a newline ({qwant!r})")
shards = [os.path.join(tmp, f"q{k}") for k in range(2)]
for k, d in enumerate(shards):
    run("sweep", sw, "-o", d, "--shard", f"{k}/2")
merged = os.path.join(tmp, "q-merged.csv")
r = run("sweep", "merge", sw, *shards, "-o", merged)
check(r.returncode == 0 and read(merged, "rb") == qwant, f"merge reads quoted newlines: the same bytes ({r.stderr})")

# Merge never writes over one of its inputs.
before = read(os.path.join(shards[0], "results.csv"), "rb")
r = run("sweep", "merge", sw, *shards, "-o", os.path.join(shards[0], "results.csv"))
check(r.returncode == 2 and "the merged output is one of the inputs" in r.stderr
      and read(os.path.join(shards[0], "results.csv"), "rb") == before, f"merge over an input refused ({r.stderr})")

# Merge refuses shards whose columns differ (one was run with another stats list).
other = write("other-stats.yaml", read(sw) + "stats: [dsu0.cycles]\n")
odd = os.path.join(tmp, "q-odd")
run("sweep", other, "-o", odd, "--shard", "1/2")
r = run("sweep", "merge", sw, shards[0], odd, "-o", os.path.join(tmp, "odd.csv"))
check(r.returncode == 2 and "columns differ" in r.stderr and "only here: dsu0.cycles" in r.stderr
      and not os.path.exists(os.path.join(tmp, "odd.csv")), f"merge refuses differing columns ({r.stderr})")

shutil.rmtree(tmp)
finish("sweep resume")
