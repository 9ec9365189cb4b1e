#!/usr/bin/env python3
"""The two worked studies (docs/whatif.md) against numbers worked out by hand.

FIE: Linux's amu_scale_freq_tick() on 4 ms ticks, cpu0 max 2 GHz.
  arch_max_freq_scale = (const_hz << 20) // 2e9: 13107 at 25 MHz (13107.2 truncated), 524288 at 1 GHz.
  A full-speed tick: d_core = 8e6. 25 MHz: d_const = 1e5, ((8e6*13107) >> 10) // 1e5 = 102398437 // 1e5
  = 1023; 1 GHz: d_const = 4e6, (8e6*524288 >> 10) // 4e6 = 1024.
  Step to 1.2 GHz at 14 ms: tick 16 ms has d_core = 4e6 + 2.4e6 = 6.4e6 -> 819 (true 819.2) for both;
  ticks 20 and 24 ms: 4.8e6 -> 25 MHz: 62913600000 >> 10 = 61439062 // 1e5 = 614; 1 GHz:
  4.8e6*512 // 4e6 = 614 (true 614.4).
  19.2 MHz: (19.2e6 << 20) // 2e9 = 10066 (10066.33 truncated); d_const = 76800; full speed:
  (8e6*10066) >> 10 = 78640625 // 76800 = 1023; 6.4e6: 62912500 // 76800 = 819; 4.8e6:
  47184375 // 76800 = 614. The step at 14 ms is 2 ms into the 12-16 ms tick: 50 % of it.
Multiplexing: 24 slices of 4 ms, 8 events on 6 counters rotated by one each slice:
  every event runs in 6 of every 8 slices = 18 of 24.
Usage: check_studies.py PMUSIM (run from the source tree).
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

from checklib import PMUSIM, check, finish, run

# The studies of docs/whatif.md are numbered 1, 2, 3, ... in order (Study 3 was missing once).
import re
numbers = [int(n) for n in re.findall(r"^## Study ([0-9]+):", open("docs/whatif.md").read(), re.M)]
check(numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 4, f"studies numbered consecutively ({numbers})")

tmp = tempfile.mkdtemp(prefix="pmusim-studies-")
expected = {"19.2MHz": (10066, [1023, 1023, 1023, 819, 614, 614]),
            "25MHz": (13107, [1023, 1023, 1023, 819, 614, 614]),
            "1GHz": (524288, [1024, 1024, 1024, 819, 614, 614])}
for const, (mfs, scales) in expected.items():
    out = os.path.join(tmp, f"fie-{const}")
    r = subprocess.run([PMUSIM, "simulate", "scenarios/studies/fie/fie.yaml", "--set", f"const_clock={const}",
                        "--set", "step_at=14ms", "-o", out], capture_output=True, text=True)
    check(r.returncode == 0, f"fie {const} simulates ({r.stderr})")
    a = subprocess.run([sys.executable, "tools/whatif/fie_analysis.py", out], capture_output=True, text=True)
    check(a.returncode == 0, f"fie analysis {const} ({a.stderr})")
    metrics = json.loads(a.stdout)
    check(metrics["max_freq_scale"] == mfs, f"arch_max_freq_scale at {const}: {metrics['max_freq_scale']} != {mfs}")
    check(metrics["step_offset_pct"] == 50, f"step at 14 ms = 50 % of the tick ({metrics.get('step_offset_pct')})")
    check(metrics["first_tick_scale"] == scales[0], f"full-speed scale at {const} ({metrics.get('first_tick_scale')})")
    rows = list(csv.DictReader(open(os.path.join(out, "fie.csv"))))
    got = [int(r["scale"]) for r in rows]
    check(got == scales, f"Linux scale per tick at {const}: {got} != {scales}")
    check(rows[3]["true_avg_1024"] == "819.2" and rows[3]["true_now_1024"] == "614.4",
          f"true ratios at the 16 ms tick ({rows[3]['true_avg_1024']}, {rows[3]['true_now_1024']})")

out = os.path.join(tmp, "mux")
r = subprocess.run([PMUSIM, "simulate", "scenarios/studies/dsu-multiplex/multiplex.yaml", "-o", out],
                   capture_output=True, text=True)
check(r.returncode == 0, f"multiplex simulates ({r.stderr})")
a = subprocess.run([sys.executable, "tools/whatif/dsu_multiplex_analysis.py", out], capture_output=True, text=True)
check(a.returncode == 0, f"multiplex analysis ({a.stderr})")
rows = list(csv.DictReader(open(os.path.join(out, "estimates.csv"))))
check(len(rows) == 8, f"8 multiplexed events ({len(rows)})")
# 96 ms in 4 ms slices = 24; 8 events on 6 counters, rotated by one per slice: each runs 6 of every
# 8 slices = 18 of 24 (72 of 96 ms, 75 %).
mux = {m["event"]: m for m in json.load(open(os.path.join(out, "stats.json")))["multiplex"]}
MS = 1_000_000_000_000
check(all(m["time_enabled_fs"] == 96 * MS and m["time_running_fs"] == 72 * MS for m in mux.values()),
      "each event ran 72 of 96 ms (18 of 24 slices)")
check(all(r["running_pct"] == "75.00" for r in rows), "running 75 %")
check(all(int(r["measured"]) == int(r["raw"]) * 96 // 72 for r in rows), "estimate = floor(raw x 96 / 72)")
truth = {e["event"]: e["count"] for e in json.load(open(os.path.join(out, "stats.json")))["events"] if e["instance"] == "dsu0"}
check(truth["l3d_cache"] == truth["l3d_cache_rd"] + truth["l3d_cache_wr"], "truth: L3D_CACHE = RD + WR")
check(truth["bus_access"] == truth["bus_access_rd"] + truth["bus_access_wr"], "truth: BUS_ACCESS = RD + WR")
check(all(int(r["true"]) == truth[r["name"]] for r in rows), "the true column is stats.json's count")
finish()
