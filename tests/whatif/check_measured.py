#!/usr/bin/env python3
"""Measured activity as input: `perf stat -I 100 -x,` output replayed by a scenario
(scenarios/examples/measured.yaml, docs/whatif.md "Measured activity").
Usage: check_measured.py PMUSIM (run from the source tree).

Expected counts, by hand from scenarios/examples/perf-stat-sample.csv (five 100 ms intervals):
  cycles        200,000,000  100,000,000  150,000,000  0 (idle)  100,000,000
  instructions  300,000,000   50,000,000  150,000,000  0         100,000,000
  cache-misses    2,000,000    1,000,000    3,000,000  0                   0
Each interval sets cpu0's clock to cycles / 100 ms (2 GHz, 1 GHz, 1.5 GHz, -, 1 GHz) and its
workload to inst = instructions / cycles (3/2, 1/2, 1, -, 1) and l3_refill_rd = cache-misses /
cycles (1/100, 1/100, 1/50, -, 0); the idle interval puts cpu0 in WFI, where its AMU cycle
counter does not count (docs/amu.md). So the model counts what perf counted: CPU cycles
200M + 100M + 150M + 0 + 100M = 550,000,000; instructions 600,000,000; the DSU's
L3D_CACHE_REFILL_RD (cpu0 is the only CPU with L3 refills) 6,000,000.
"""
import csv
import json
import os
import shutil
import tempfile

from checklib import check, finish, run

tmp = tempfile.mkdtemp(prefix="pmusim-measured-")
out = os.path.join(tmp, "out")
r = run("simulate", "scenarios/examples/measured.yaml", "-o", out, "--no-progress")
check(r.returncode == 0, f"the measured scenario runs ({r.stderr})")
stats = {(e["instance"], e["event"]): e["count"] for e in json.load(open(os.path.join(out, "stats.json")))["events"]}
check(stats.get(("cpu0", "cpu_cycles")) == 550_000_000, f"cpu0 cycles ({stats.get(('cpu0', 'cpu_cycles'))})")
check(stats.get(("cpu0", "inst_retired")) == 600_000_000, f"cpu0 instructions ({stats.get(('cpu0', 'inst_retired'))})")
check(stats.get(("dsu0", "l3d_cache_refill_rd")) == 6_000_000, f"DSU L3 read refills ({stats.get(('dsu0', 'l3d_cache_refill_rd'))})")
rows = list(csv.DictReader(open(os.path.join(out, "samples.csv"))))
per = lambda unit, inst, ctr, col: [int(x[col]) for x in rows if (x["unit"], x["instance"], x["counter"]) == (unit, inst, ctr)]
check(per("amu", "cpu0.amu", "AMEVCNTR00", "delta") == [200_000_000, 100_000_000, 150_000_000, 0, 100_000_000],
      "the AMU cycle counter counts each interval's perf cycles")
check(per("amu", "cpu0.amu", "AMEVCNTR02", "delta") == [300_000_000, 50_000_000, 150_000_000, 0, 100_000_000],
      "the AMU instruction counter counts each interval's perf instructions")
check(per("clock", "cpu0", "frequency_hz", "value") == [2_000_000_000, 1_000_000_000, 1_500_000_000, 1_500_000_000, 1_000_000_000],
      "cpu0's clock follows cycles / interval (kept while idle)")
check(per("clock", "cpu1", "frequency_hz", "value") == [2_000_000_000] * 5, "other CPUs keep their clocks")

# Bad perf input: exit 2, the perf file's line, what was expected.
sample = open("scenarios/examples/perf-stat-sample.csv").read().splitlines()
scenario = open("scenarios/examples/measured.yaml").read()


def refused(label, perf_lines, needle, line):
    perf = os.path.join(tmp, "perf.csv")
    open(perf, "w").write("\n".join(perf_lines) + "\n")
    scen = os.path.join(tmp, "s.yaml")
    open(scen, "w").write(scenario.replace("perf-stat-sample.csv", perf))
    r = run("simulate", scen, "-o", os.path.join(tmp, "bad"), "--no-progress")
    where = f"{perf}:{line}: " if line else f"{perf}: "
    check(r.returncode == 2 and where in r.stderr and needle in r.stderr, f"{label}: exit 2 at {where} ({r.returncode} {r.stderr})")


refused("per-CPU output (-A)", sample[:2] + ["     0.100000000,CPU0,200000000,,cycles,100000000,100.00,,"], "per-CPU", 3)
refused("time going back", sample[:6] + ["     0.050000000,1,,cycles,100000000,100.00,,"], "does not follow", 7)
refused("an event perf did not count", sample[:3] + ["     0.100000000,<not counted>,,instructions,0,0.00,,"] + sample[4:6],
        "expected a count, found '<not counted>'", 4)
refused("the cycles event missing", [l for l in sample if "cycles" not in l], "event 'cycles' is missing", 3)
refused("a mapped event missing", [l for l in sample if "cache-misses" not in l], "event 'cache-misses' is missing", 3)
refused("a malformed time", ["abc,200,,cycles,1,100.00"], "expected the interval's time stamp in seconds", 1)
refused("too few fields", ["0.1,200"], "found 2 field(s)", 1)
refused("an event twice", sample[:3] + [sample[2]], "appears twice", 4)
refused("no intervals", ["# started on Thu Dec  3 12:00:00 2026", ""], "no intervals", 0)
shutil.rmtree(tmp)
finish("measured")
