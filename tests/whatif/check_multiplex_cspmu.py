#!/usr/bin/env python3
"""Built-in multiplexing on a CoreSight PMU (docs/whatif.md "Multiplexing"), every reading worked
out here from the scenario (tests/whatif/cspmu-multiplex.yaml) and perf's rules, not from a run.

cpu0 2 GHz, cpu1 1 GHz (default workload: one instruction a cycle, no memory stalls); cspmu0 sums
both CPUs; 2 counters. Per 1 ms slice (cpu0's workload changes at 1 and 2 ms):
  inst_retired: 2e6 x 1 + 1e6 = 3e6 | 2e6 x 1/2 + 1e6 = 2e6 | 2e6 x 2 + 1e6 = 5e6
  cpu_cycles:   3e6 every slice
  mem_stall:    2e6 / 4 = 5e5       | 2e6 / 2 = 1e6       | 2e6 / 8 = 2.5e5
Rotation (list [I, C, M], the first active event to the end every 1 ms; the walk stops at the first
event that does not fit): slice 0 runs I, C; slice 1 C, M; slice 2 M, I. At 3 ms (enabled 3 ms):
  I raw 3e6 + 5e6 = 8e6, running 2 ms, estimate 8e6 x 3 / 2 = 12e6, truth 10e6, error +20 %
  C raw 6e6, estimate 9e6, truth 9e6, error 0
  M raw 1e6 + 2.5e5 = 1.25e6, estimate 1.875e6, truth 1.75e6, error +7.142857 %
Usage: check_multiplex_cspmu.py PMUSIM (run from the source tree).
"""
import csv
import json
import os
import tempfile

from checklib import check, finish, run

MS = 10**12
tmp = tempfile.mkdtemp(prefix="pmusim-mux-cspmu-")
SCENARIO = "tests/whatif/cspmu-multiplex.yaml"


def readings(out):
    p = os.path.join(out, "multiplex.csv")
    return list(csv.DictReader(open(p))) if os.path.exists(p) else []


out, log = os.path.join(tmp, "three"), os.path.join(tmp, "log.jsonl")
r = run("simulate", SCENARIO, "-o", out, "--log-json", log)
check(r.returncode == 0, f"simulate exits 0 ({r.stderr.strip()[-300:]})")
slices = {"inst_retired": [3_000_000, 2_000_000, 5_000_000], "cpu_cycles": [3_000_000] * 3,
          "mem_stall": [500_000, 1_000_000, 250_000]}
running = {"inst_retired": [0, 2], "cpu_cycles": [0, 1], "mem_stall": [1, 2]}  # slices each event runs
rows = readings(out)
check(len(rows) == 9, f"three readings (1, 2, 3 ms) of three events ({len(rows)})")
for x in rows:
    t, e = int(x["time_fs"]), x["event"]
    k = t // MS  # slices done
    ran = [s for s in running[e] if s < k]
    raw, run_ms, truth = sum(slices[e][s] for s in ran), len(ran), sum(slices[e][:k])
    est = raw * k // run_ms if run_ms else 0
    want = {"raw": raw, "time_enabled_fs": k * MS, "time_running_fs": run_ms * MS, "estimate": est, "truth": truth}
    got = {c: int(x[c]) for c in want}
    check(got == want, f"{k} ms {e}: {got} == {want}")
    check(x["running_pct"] == f"{100 * run_ms / k:.2f}", f"{k} ms {e}: running {x['running_pct']} %")
    check(x["error_pct"] == f"{(est - truth) * 100 / truth:.6f}", f"{k} ms {e}: error {x['error_pct']} %")
stats = json.load(open(os.path.join(out, "stats.json"))) if r.returncode == 0 else {}
final = {m["event"]: m for m in stats.get("multiplex", [])}
check(final.get("inst_retired", {}).get("estimate") == 12_000_000 and final["inst_retired"]["truth"] == 10_000_000
      and abs(final["inst_retired"]["error_pct"] - 20.0) < 1e-9, "stats.json: inst_retired 12e6 estimated, 10e6 true")
# arm_cspmu's register traffic: PMCNTENCLR at enable and at each rotation, PMEVTYPERn as slices place events.
recs = [json.loads(l) for l in open(log)] if os.path.exists(log) else []
stops = sorted(x["time_fs"] for x in recs if x.get("target") == "cspmu0.PMCNTENCLR")
check(stops == [0, MS, 2 * MS], f"counters stopped at enable and at 1 and 2 ms ({stops})")
types = [(x["time_fs"] // MS, x["target"], x["value"]) for x in recs
         if x.get("target", "").startswith("cspmu0.PMEVTYPER") and x["op"] == "write"]
check(types == [(0, "cspmu0.PMEVTYPER0", "0x3"), (0, "cspmu0.PMEVTYPER1", "0x2"),
                (1, "cspmu0.PMEVTYPER0", "0x2"), (1, "cspmu0.PMEVTYPER1", "0x4"),
                (2, "cspmu0.PMEVTYPER0", "0x4"), (2, "cspmu0.PMEVTYPER1", "0x3")], f"event types per slice ({types})")
check(any(x.get("target") == "cspmu0.PMCR" and x["op"] == "write" and x["value"] == "0x1" for x in recs),
      "PMCR.E set (arm_cspmu_enable)")

# The cycle event (0x1, the 500 MHz PMU clock) takes counter 31: nothing waits, counts exact.
out = os.path.join(tmp, "cycles")
r = run("simulate", SCENARIO, "-o", out, "--set", "events=[cycles, inst_retired, cpu_cycles]")
rows = {x["event"]: x for x in readings(out) if int(x["time_fs"]) == 3 * MS}
check(rows.get("cycles", {}).get("raw") == "1500000" and rows["cycles"]["running_pct"] == "100.00" and
      rows["inst_retired"]["raw"] == "10000000" and rows["cpu_cycles"]["error_pct"] == "0.000000",
      f"cycles on PMCCNTR: 500 MHz x 3 ms, the two others on the counters, exact ({rows})")

# Bad input: an event the unit does not have, at its line.
p = os.path.join(tmp, "bad.yaml")
open(p, "w").write(open(SCENARIO).read().replace("platform: ../platforms/", f"platform: {os.getcwd()}/tests/platforms/"))
r = run("simulate", p, "-o", os.path.join(tmp, "x"), "--set", "events=[inst_retired, l3d_cache]")
check(r.returncode == 2 and "expected a CoreSight PMU event (cycles, cpu_cycles, inst_retired, mem_stall, external), "
      "found 'l3d_cache'" in r.stderr and f"{p}:" in r.stderr, f"an unknown event refused at its line ({r.stderr})")
finish()
