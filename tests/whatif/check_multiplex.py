#!/usr/bin/env python3
"""Multiplexing built into `pmusim simulate` (docs/whatif.md "Multiplexing: more events than
counters"), against numbers worked out by hand from the scenario and Linux's rules:

  kernel/events/core.c@v6.1: events are scheduled in list order until one does not fit
  (merge_sched_in); every perf_event_mux_interval_ms perf_rotate_context moves the first active
  event to the end of the list; arm_dsu_pmu puts each on the lowest free counter, CYCLES on the
  cycle counter; perf stat scales count x time_enabled / time_running.

Scenario below: cpu0 at 2 GHz (2e6 cycles per ms), dsu0 with 2 counters, 3 events A, B, C =
L3D_CACHE_RD (l3_access_rd), L3D_CACHE_WR (l3_access_wr), BUS_ACCESS_RD (bus_access_rd), rotated
every 1 ms over 6 ms. Rates per cycle: 0-2 ms A 1/4, B 1/10, C 1/100; 2-6 ms A 1/2, B 1/10, C 1/20.
Per ms: A 500,000 then 1,000,000; B 200,000; C 20,000 then 100,000.
Slices (list order, first two on counters 0, 1): 0: A B | 1: B C | 2: C A | 3: A B | 4: B C | 5: C A.
Each event runs 4 of the 6 slices: time_running 4 ms of time_enabled 6 ms (66.67 %).
  A: slices 0,2,3,5 = 500k + 1M + 1M + 1M = 3,500,000; estimate 3.5M x 6/4 = 5,250,000; truth
     2 x 500k + 4 x 1M = 5,000,000: +5 %.
  B: slices 0,1,3,4 = 4 x 200k = 800,000; estimate 1,200,000 = truth: 0 %.
  C: slices 1,2,4,5 = 20k + 100k + 100k + 100k = 320,000; estimate 480,000; truth 2 x 20k + 4 x 100k
     = 440,000: +9.090909 %.
At the 3 ms rotation (after slices 0..2): A raw 1.5M, running 2 ms, enabled 3 ms, estimate 2,250,000,
truth 2 x 500k + 1M = 2,000,000; C raw 120,000, running 2 ms, estimate 180,000, truth 140,000.
Usage: check_multiplex.py PMUSIM (run from the source tree).
"""
import csv
import json
import os
import tempfile

from checklib import check, finish, run

tmp = tempfile.mkdtemp(prefix="pmusim-mux-")
MS = 1_000_000_000_000


def scenario(name, text):
    p = os.path.join(tmp, name)
    open(p, "w").write(text)
    return p


def base(counters, events, extra=""):
    return f"""platform: arm-default
set:
  units.dsu0.params.counters: {counters}
duration: 6ms
workload:
  - {{ at: 0, cpu: cpu0, rates: {{ l3_access_rd: 1/4, l3_access_wr: 1/10, bus_access_rd: 1/100 }} }}
  - {{ at: 2ms, cpu: cpu0, rates: {{ l3_access_rd: 1/2, l3_access_wr: 1/10, bus_access_rd: 1/20 }} }}
multiplex:
  - unit: dsu0
    events: [{events}]
    interval: 1ms
{extra}"""


def readings(out):
    return list(csv.DictReader(open(os.path.join(out, "multiplex.csv"))))


out = os.path.join(tmp, "three")
log = os.path.join(tmp, "log.jsonl")
r = run("simulate", scenario("three.yaml", base(2, "l3d_cache_rd, l3d_cache_wr, 0x60")), "-o", out, "--log-json", log)
check(r.returncode == 0, f"3 events on 2 counters simulate ({r.stderr})")
rows = readings(out) if r.returncode == 0 else []
check(len(rows) == 6 * 3, f"a reading per event at each rotation (1..5 ms) and at the end ({len(rows)})")
final = {x["event"]: x for x in rows if int(x["time_fs"]) == 6 * MS}
want = {"l3d_cache_rd": (3_500_000, 5_250_000, 5_000_000, "5.000000"),
        "l3d_cache_wr": (800_000, 1_200_000, 1_200_000, "0.000000"),
        "bus_access_rd": (320_000, 480_000, 440_000, "9.090909")}
for name, (raw, est, truth, err) in want.items():
    x = final.get(name, {})
    got = (x.get("raw"), x.get("estimate"), x.get("truth"), x.get("error_pct"))
    check(got == (str(raw), str(est), str(truth), err), f"{name}: raw, estimate, truth, error {got} == {raw, est, truth, err}")
    check(x.get("time_enabled_fs") == str(6 * MS) and x.get("time_running_fs") == str(4 * MS) and
          x.get("running_pct") == "66.67", f"{name}: enabled 6 ms, running 4 ms ({x})")
at3 = {x["event"]: x for x in rows if int(x["time_fs"]) == 3 * MS}
check((at3["l3d_cache_rd"]["raw"], at3["l3d_cache_rd"]["time_running_fs"], at3["l3d_cache_rd"]["estimate"],
       at3["l3d_cache_rd"]["truth"]) == ("1500000", str(2 * MS), "2250000", "2000000"), f"A at 3 ms ({at3.get('l3d_cache_rd')})")
check((at3["bus_access_rd"]["raw"], at3["bus_access_rd"]["estimate"], at3["bus_access_rd"]["truth"]) ==
      ("120000", "180000", "140000"), f"C at 3 ms ({at3.get('bus_access_rd')})")
check(at3["l3d_cache_wr"]["code"] == "0xa1" and at3["bus_access_rd"]["code"] == "0x60", "codes as the DSU table has them")
stats = json.load(open(os.path.join(out, "stats.json"))) if r.returncode == 0 else {}
mux = {m["event"]: m for m in stats.get("multiplex", [])}
check(mux.get("bus_access_rd", {}).get("estimate") == 480_000 and mux["bus_access_rd"]["time_running_fs"] == 4 * MS,
      "stats.json multiplex: the final reading")
truth = {(e["instance"], e["event"]): e["count"] for e in stats.get("events", [])}
check(truth.get(("dsu0", "l3d_cache_rd")) == 5_000_000, "the truth column agrees with stats.json's events")
# perf's register traffic is in the access log: the counters are stopped at each rotation (1..5 ms)
# and once before enabling, the event types written as the rotation puts them on counters.
recs = [json.loads(l) for l in open(log)] if os.path.exists(log) else []
stops = sorted(x["time_fs"] for x in recs if x.get("target") == "CLUSTERPMCNTENCLR_EL1")
check(stops == [0] + [k * MS for k in range(1, 6)], f"counters stopped at enable and at each rotation ({stops})")
types = [(x["time_fs"], x["value"]) for x in recs if x.get("target") == "CLUSTERPMXEVTYPER_EL1"]
check(types[:2] == [(0, "0xa0"), (0, "0xa1")] and types[2:4] == [(MS, "0xa1"), (MS, "0x60")],
      f"slice 0 programs A, B; slice 1 B, C ({types[:4]})")

# As many counters as events: no rotation effect, every estimate is the exact count.
out = os.path.join(tmp, "fits")
r = run("simulate", scenario("fits.yaml", base(6, "l3d_cache_rd, l3d_cache_wr, bus_access_rd")), "-o", out)
rows = [x for x in readings(out) if int(x["time_fs"]) == 6 * MS] if r.returncode == 0 else []
check(len(rows) == 3 and all(x["running_pct"] == "100.00" and x["raw"] == x["estimate"] == x["truth"] and
                             x["error_pct"] == "0.000000" for x in rows), f"3 events on 6 counters are exact ({rows})")
# CYCLES takes the cycle counter: three events, two general counters, nothing waits.
out = os.path.join(tmp, "cycles")
r = run("simulate", scenario("cycles.yaml", base(2, "cycles, l3d_cache_rd, l3d_cache_wr")), "-o", out)
rows = {x["event"]: x for x in readings(out) if int(x["time_fs"]) == 6 * MS} if r.returncode == 0 else {}
check(rows.get("cycles", {}).get("raw") == str(6_000_000) and rows["cycles"]["running_pct"] == "100.00",
      f"CYCLES on the cycle counter: 6 ms of the 1 GHz DSU clock ({rows.get('cycles')})")
check(rows.get("l3d_cache_wr", {}).get("running_pct") == "100.00", "the general counters hold the other two")

# Bad input: file:line, exit 2.
p = scenario("notdsu.yaml", base(2, "l3d_cache_rd").replace("unit: dsu0", "unit: cmn0"))
r = run("simulate", p, "-o", os.path.join(tmp, "x"))
check(r.returncode == 2 and f"{p}:9: multiplex[0].unit: expected a DSU CLUSTERPMU" in r.stderr, f"not a DSU ({r.stderr})")
p = scenario("badev.yaml", base(2, "l3d_cache_rd, l3d_cachee"))
r = run("simulate", p, "-o", os.path.join(tmp, "x"))
check(r.returncode == 2 and f"{p}:10: multiplex[0].events[1]: expected a DSU event" in r.stderr, f"unknown event ({r.stderr})")
p = scenario("twice.yaml", base(2, "l3d_cache_rd, 0xa0"))
r = run("simulate", p, "-o", os.path.join(tmp, "x"))
check(r.returncode == 2 and "listed twice" in r.stderr, f"an event twice ({r.stderr})")

# A replayed perf stat count that perf scaled (running < 100 %) is marked as an estimate.
perf = os.path.join(tmp, "perf.csv")
open(perf, "w").write("     0.100000000,200000000,,cycles,100000000,100.00,,\n"
                      "     0.100000000,300000000,,instructions,50000000,50.00,1.50,insn per cycle\n")
p = scenario("measured.yaml", f"platform: arm-default\nduration: 100ms\nmeasured:\n"
                              f"  - {{ perf_stat: {perf}, cpu: cpu0, events: {{ instructions: inst }} }}\n")
out = os.path.join(tmp, "measured")
r = run("simulate", p, "-o", out)
check(r.returncode == 0 and f"{perf}:2: 'instructions' ran 50.00% of its interval" in r.stderr,
      f"a scaled perf count is reported ({r.stderr})")
est = json.load(open(os.path.join(out, "stats.json"))).get("measured_estimates") if r.returncode == 0 else None
check(est == [{"file": perf, "line": 2, "event": "instructions", "running_pct": "50.00", "interval_end_fs": 100 * MS}],
      f"stats.json lists it ({est})")
finish()
