#!/usr/bin/env python3
"""End-to-end checks of `pmusim sweep` and `pmusim sweep merge` (docs/whatif.md):
-j determinism, shards run by GNU parallel and merged back, duplicates and partial shards
refused, missing points reported. Usage: check_sweep.py PMUSIM (run from the source tree).
"""
import csv
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from checklib import PMUSIM, check, finish, run

tmp = tempfile.mkdtemp(prefix="pmusim-sweep-")
tour = os.path.abspath("scenarios/examples/tour.yaml")
sweep = os.path.join(tmp, "sweep.yaml")
open(sweep, "w").write(f"""scenario: {tour}
grid:
  dsu_clock: [250MHz, 500MHz, 1GHz]
analysis: [python3, "{{tools}}/dsu_multiplex_analysis.py", "{{out}}"]
stats: [dsu0.cycles, dsu0.l3d_cache_rd]
""")

r1 = run("sweep", sweep, "-o", os.path.join(tmp, "j1"), "-j", "1")
check(r1.returncode == 0, f"sweep -j 1 exits 0 ({r1.stderr})")
r2 = run("sweep", sweep, "-o", os.path.join(tmp, "j2"), "-j", "2")
check(r2.returncode == 0, f"sweep -j 2 exits 0 ({r2.stderr})")
a = open(os.path.join(tmp, "j1", "results.csv"), "rb").read()
b = open(os.path.join(tmp, "j2", "results.csv"), "rb").read()
check(a == b, "results.csv is byte-identical across -j levels")
rows = list(csv.DictReader(open(os.path.join(tmp, "j1", "results.csv"))))
check([r["point"] for r in rows] == ["0", "1", "2"], "one row per point, in point order")
check(list(rows[0].keys())[:9] == ["point", "dsu_clock", "exit", "platform", "pmusim_version", "duration_s",
                                   "dsu_clock_value", "dsu0.cycles", "dsu0.l3d_cache_rd"],
      f"columns: point, parameters, exit, typed columns, stats, then analysis metrics ({list(rows[0].keys())})")
# Typed columns: what ran and the parameter as a number (the tour: arm-default, 2 ms).
check([(r["platform"], r["duration_s"], r["dsu_clock_value"]) for r in rows] ==
      [("arm-default", "0.002", "250000000"), ("arm-default", "0.002", "500000000"), ("arm-default", "0.002", "1000000000")],
      "typed columns: platform, duration in seconds, frequency in Hz")
# The tour lasts 2 ms: DSU cycles = 2 ms x the swept clock; L3D_CACHE_RD does not depend on it (550,000).
check([r["dsu0.cycles"] for r in rows] == ["500000", "1000000", "2000000"], "ground-truth column follows the parameter")
check(all(r["dsu0.l3d_cache_rd"] == "550000" for r in rows), "CPU-side events do not depend on the DSU clock")
# The analysis sees 4 events on counters 0-2 (counter 2 moves from CYCLES to L3D_CACHE at 1 ms).
check(all(r["exit"] == "0" and r["events"] == "4" for r in rows), "analysis metrics become columns")
# L3D_CACHE ran 4 of 8 samples: raw = 87,500 x 2 + 62,500 x 2 = 300,000, estimate x 8/4 = 600,000
# against the true 550,000 (250,000 before 1 ms, 300,000 after): +9.090909 %.
check(all(r["err_pct_l3d_cache"] == "9.090909" for r in rows), "analysis metric value")

# Shards through GNU parallel, merged back: the same bytes as the single run.
parallel = shutil.which("parallel")
check(parallel is not None, "GNU parallel is installed (scripts/install-deps.sh)")
if parallel:
    p = subprocess.run([parallel, "--will-cite", "-j", "2", PMUSIM, "sweep", sweep, "--shard", "{}/3", "-o",
                        os.path.join(tmp, "shard{}"), ":::", "0", "1", "2"], capture_output=True, text=True)
    check(p.returncode == 0, f"parallel runs the shards ({p.stderr})")
    shards = [os.path.join(tmp, f"shard{k}") for k in range(3)]
    merged = os.path.join(tmp, "merged.csv")
    m = run("sweep", "merge", sweep, *shards, "-o", merged)
    check(m.returncode == 0, f"merge of all shards exits 0 ({m.stderr})")
    check(os.path.exists(merged) and open(merged, "rb").read() == a, "merged shards equal the single run byte for byte")
    m = run("sweep", "merge", sweep, shards[0], shards[1], "-o", os.path.join(tmp, "partial.csv"))
    check(m.returncode == 1 and "1 of 3 points missing: 2" in m.stderr, f"missing points reported ({m.stderr})")
    m = run("sweep", "merge", sweep, shards[0], shards[1], shards[0], "-o", os.path.join(tmp, "dup.csv"))
    check(m.returncode == 2 and "duplicate point 0" in m.stderr, f"duplicates refused ({m.stderr})")

    # Partial shards (docs/whatif.md "Across machines: shards"): every results.csv has a completion
    # marker next to it; merge refuses (exit 2, naming the file, writing nothing) a shard without
    # it, one whose rows are not all of its shard's points, or whose row count differs.
    marker = os.path.join(shards[1], "results.csv.complete")
    check(open(marker).read() == "pmusim sweep results: shard 1/3, 1 rows\n", "the shard's completion marker")
    check(open(os.path.join(tmp, "j1", "results.csv.complete")).read() == "pmusim sweep results: shard 0/1, 3 rows\n",
          "an unsharded run's marker")

    def refused(label, inputs, needle):
        out = os.path.join(tmp, "refused.csv")
        if os.path.exists(out):
            os.remove(out)
        m = run("sweep", "merge", sweep, *inputs, "-o", out)
        check(m.returncode == 2 and needle in m.stderr and not os.path.exists(out),
              f"{label}: exit 2, '{needle}', nothing written ({m.returncode}: {m.stderr})")

    def copy_shard(src, name):
        dst = os.path.join(tmp, name)
        shutil.copytree(src, dst)
        return dst

    # An interrupted shard: results.csv without its marker.
    nomark = copy_shard(shards[1], "nomark")
    os.remove(os.path.join(nomark, "results.csv.complete"))
    refused("missing marker", [shards[0], nomark, shards[2]],
            f"{os.path.join(nomark, 'results.csv')}: incomplete shard: {os.path.join(nomark, 'results.csv.complete')} is missing")
    # A single-run results file with a row lost (point 1): the marker says shard 0/1, 3 rows.
    lost = copy_shard(os.path.join(tmp, "j1"), "lost")
    lines = open(os.path.join(lost, "results.csv")).read().splitlines(keepends=True)
    open(os.path.join(lost, "results.csv"), "w").write("".join(lines[:2] + lines[3:]))
    refused("a row missing", [lost], f"{os.path.join(lost, 'results.csv')}: partial shard: shard 0/1 of {sweep} lacks 1 point(s): 1")
    # A truncated last line (the file cut mid-row).
    cut = copy_shard(os.path.join(tmp, "j1"), "cut")
    text = open(os.path.join(cut, "results.csv")).read()
    open(os.path.join(cut, "results.csv"), "w").write(text[: text.rstrip("\n").rfind(",")])
    refused("a truncated row", [cut], f"{os.path.join(cut, 'results.csv')}:4: expected")
    # A marker whose row count disagrees, a malformed marker, a row of another shard.
    count = copy_shard(shards[0], "count")
    open(os.path.join(count, "results.csv.complete"), "w").write("pmusim sweep results: shard 0/3, 2 rows\n")
    refused("row count", [count, shards[1], shards[2]], "partial shard: " + os.path.join(count, "results.csv") + " holds 1 rows but")
    bad = copy_shard(shards[0], "badmarker")
    open(os.path.join(bad, "results.csv.complete"), "w").write("done\n")
    refused("malformed marker", [bad], os.path.join(bad, "results.csv.complete") + ":1: expected 'pmusim sweep results: shard K/N, R rows'")
    alien = copy_shard(shards[0], "alien")
    open(os.path.join(alien, "results.csv"), "a").write(open(os.path.join(shards[1], "results.csv")).read().splitlines()[1] + "\n")
    refused("a row of another shard", [alien], os.path.join(alien, "results.csv") + ":3: point 1 does not belong to shard 0/3")

# An interrupted run leaves no completion marker, even over an earlier run's results: the run
# removes both files before its first point starts and writes them only at the end.
stale = os.path.join(tmp, "stale")  # --no-resume: the copied points are done, and this run must start over
shutil.copytree(os.path.join(tmp, "j1"), stale)
proc = subprocess.Popen([PMUSIM, "sweep", sweep, "-o", stale, "-j", "1", "--no-resume"], stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL, start_new_session=True)  # its own group: kill the points too
first_point = os.path.join(stale, "points", "p00000", "simulate.out")
for _ in range(400):  # up to 20 s for the first point to start
    if os.path.exists(first_point) and os.path.getmtime(first_point) > os.path.getmtime(os.path.join(tmp, "j1", "results.csv")):
        break
    time.sleep(0.05)
still_running = proc.poll() is None
if still_running:
    os.killpg(proc.pid, signal.SIGKILL)
proc.wait()
if still_running:  # killed while its points ran (a point takes about a second)
    check(not os.path.exists(os.path.join(stale, "results.csv.complete")) and not os.path.exists(os.path.join(stale, "results.csv")),
          "a killed sweep leaves neither the old results.csv nor its marker")
    m = run("sweep", "merge", sweep, stale, "-o", os.path.join(tmp, "stale.csv"))
    check(m.returncode == 2 and "cannot read this results CSV" in m.stderr, f"merge refuses the killed run ({m.stderr})")

# Another sweep's shard is refused: its parameter values differ.
other = os.path.join(tmp, "other.yaml")
open(other, "w").write(f"scenario: {tour}\ngrid:\n  dsu_clock: [2GHz, 500MHz, 1GHz]\n")
m = run("sweep", "merge", other, os.path.join(tmp, "j1"), "-o", os.path.join(tmp, "o.csv"))
check(m.returncode == 2 and "dsu_clock is '250MHz' here but '2GHz' in the sweep" in m.stderr, f"foreign rows refused ({m.stderr})")
# Platform parameters are swept directly as set.PATH; a point that fails keeps its row with its exit code.
plat = os.path.join(tmp, "plat.yaml")
open(plat, "w").write(f"scenario: {tour}\ngrid:\n  set.clocks.dsu0.frequency: [200MHz, fast]\nstats: [dsu0.cycles]\n")
m = run("sweep", plat, "-o", os.path.join(tmp, "plat"))
prow = list(csv.DictReader(open(os.path.join(tmp, "plat", "results.csv"))))
check(m.returncode == 1 and "point 1 failed (exit 2)" in m.stderr, f"a failed point makes the sweep exit 1 ({m.stderr})")
# 2 ms of a 200 MHz DSU clock = 400,000 cycles (the tour's own set: is replaced by the swept value).
check([(r["exit"], r["dsu0.cycles"]) for r in prow] == [("0", "400000"), ("2", "")], f"rows of a platform sweep ({prow})")
err = open(os.path.join(tmp, "plat", "points", "p00001", "simulate.err")).read()
check("set.clocks.dsu0.frequency: the platform with this override is invalid" in err, f"the point's error is kept ({err})")

# Bad input in the sweep file: file:line.
bad = os.path.join(tmp, "bad.yaml")
open(bad, "w").write(f"scenario: {tour}\ngrid:\n  dsu_clock: 1GHz\n")
m = run("sweep", bad)
check(m.returncode == 2 and f"{bad}:3: grid.dsu_clock: expected a non-empty list" in m.stderr, f"sweep file errors ({m.stderr})")
m = run("sweep", sweep, "--shard", "3/3")
check(m.returncode == 2 and "expected K/N" in m.stderr, "bad --shard refused")

finish()
