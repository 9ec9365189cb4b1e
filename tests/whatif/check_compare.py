#!/usr/bin/env python3
"""`pmusim compare A B` (docs/whatif.md "Comparing two runs"): the tour at two DSU clocks side by
side, and replicates with a confidence interval, against values worked out by hand.
Usage: check_compare.py PMUSIM (run from the source tree).
"""
import csv
import io
import json
import math
import os
import tempfile

from checklib import check, finish, run

tmp = tempfile.mkdtemp(prefix="pmusim-compare-")
a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
check(run("simulate", "scenarios/examples/tour.yaml", "-o", a).returncode == 0, "tour at 1 GHz")
check(run("simulate", "scenarios/examples/tour.yaml", "-o", b, "--set", "dsu_clock=500MHz").returncode == 0, "tour at 500 MHz")
r = run("compare", a, b)
rows = {x["quantity"]: x for x in csv.DictReader(io.StringIO(r.stdout))} if r.returncode == 0 else {}
check(r.returncode == 0 and list(csv.reader(io.StringIO(r.stdout)))[0] == ["quantity", "a", "b", "diff", "diff_pct"],
      f"compare prints the CSV ({r.stderr})")
# 2 ms of the DSU clock: 2,000,000 cycles at 1 GHz, 1,000,000 at 500 MHz: -1,000,000, -50 %.
check(rows.get("dsu0.cycles") == {"quantity": "dsu0.cycles", "a": "2000000", "b": "1000000", "diff": "-1000000",
                                  "diff_pct": "-50"}, f"dsu0.cycles side by side ({rows.get('dsu0.cycles')})")
check("dsu0.l3d_cache_rd" not in rows, "quantities equal on both sides are left out")
r = run("compare", a, b, "--all", "-o", os.path.join(tmp, "all.csv"))
allrows = {x["quantity"]: x for x in csv.DictReader(open(os.path.join(tmp, "all.csv")))} if r.returncode == 0 else {}
check(allrows.get("dsu0.l3d_cache_rd", {}).get("diff") == "0", "--all lists them with diff 0")

# Replicates: fake stats.json folders with hand-picked values. A = 10, 12, 14 (mean 12, sd 2);
# B = 20, 22, 24 (mean 22, sd 2). Welch: se = sqrt(4/3 + 4/3) = 1.632993; df = (8/3)^2 / (2 x (4/3)^2 / 2)
# = 4; t(0.975, 4) = 2.776; half width 4.533189; interval [5.466811, 14.533189].
def fake(name, value):
    d = os.path.join(tmp, name)
    os.makedirs(d)
    json.dump({"events": [{"unit": "x", "instance": "u0", "event": "e", "code": 1, "count": value}]},
              open(os.path.join(d, "stats.json"), "w"))
    return d


A = ",".join(fake(f"ra{i}", v) for i, v in enumerate([10, 12, 14]))
B = ",".join(fake(f"rb{i}", v) for i, v in enumerate([20, 22, 24]))
r = run("compare", A, B)
rep = list(csv.DictReader(io.StringIO(r.stdout))) if r.returncode == 0 else []
half = 2.776 * math.sqrt(4 / 3 + 4 / 3)
check(len(rep) == 1 and rep[0]["a_mean"] == "12" and rep[0]["a_sd"] == "2" and rep[0]["diff"] == "10" and
      rep[0]["ci95_low"] == f"{10 - half:.6f}" and rep[0]["ci95_high"] == f"{10 + half:.6f}",
      f"Welch 95 % interval of the difference ({r.stderr} {rep})")
r = run("compare", os.path.join(tmp, "nope"), b)
check(r.returncode == 2 and "stats.json: no such file" in r.stderr, f"a folder without stats.json is bad input ({r.stderr})")
r = run("compare", A, b)
check(r.returncode == 2 and "replicates" in r.stderr, f"replicates on one side only refused ({r.stderr})")
finish()
