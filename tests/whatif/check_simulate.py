#!/usr/bin/env python3
"""End-to-end checks of `pmusim simulate` on scenarios/examples/tour.yaml (docs/whatif.md).

Expected numbers are worked out by hand from the scenario (comments below), never
copied from pmusim's output. Usage: check_simulate.py PMUSIM (run from the source tree).
"""
import csv
import json
import os
import subprocess
import sys
import tempfile
import time

from checklib import PMUSIM, check, finish, run

tmp = tempfile.mkdtemp(prefix="pmusim-whatif-")
out = os.path.join(tmp, "tour")
r = run("simulate", "scenarios/examples/tour.yaml", "-o", out)
check(r.returncode == 0, f"tour exits 0 (got {r.returncode}: {r.stderr})")
check(r.stderr == "" and r.stdout == "", "quiet when stdout/stderr are not terminals")

rows = list(csv.DictReader(open(os.path.join(out, "samples.csv"))))
check(list(rows[0].keys()) == ["sample", "time_fs", "cycle", "unit", "instance", "counter", "event", "value", "delta"],
      "CSV header is the documented schema")
jl = [json.loads(l) for l in open(os.path.join(out, "samples.jsonl"))]
check(len(jl) == len(rows), "JSON Lines has one object per CSV row")
check(all(str(j["value"]) == r["value"] and j["counter"] == r["counter"] for j, r in zip(jl, rows)),
      "JSON Lines and CSV hold the same rows")


def series(instance, counter, field="delta"):
    return [int(r[field]) for r in rows if r["instance"] == instance and r["counter"] == counter]


def events(instance, counter):
    return [r["event"] for r in rows if r["instance"] == instance and r["counter"] == counter]


# 2 ms sampled every 250 us: 8 samples; the time column is k * 250 us in fs.
times = sorted({int(r["time_fs"]) for r in rows})
check(times == [k * 250_000_000_000 for k in range(1, 9)], f"sample instants every 250 us (got {times})")
# `cycle` counts the default sampling clock `const` (100 MHz): 25,000 edges per 250 us.
check(sorted({int(r["cycle"]) for r in rows}) == [25_000 * k for k in range(1, 9)], "cycle column counts const edges")

# cpu0 runs 2 GHz until the DVFS step at 500 us (samples come before actions at the same
# instant), then 1 GHz: 500,000 cycles per interval twice, then 250,000.
check(series("cpu0.amu", "AMEVCNTR00") == [500_000] * 2 + [250_000] * 6, "AMU core cycles follow the DVFS step")
check(series("cpu0.amu", "AMEVCNTR01") == [25_000] * 8, "AMU constant cycles at 100 MHz")
# inst = 2 per cycle until 1 ms, then 1/2: 1e6, 1e6, 500k, 500k, then 125k.
check(series("cpu0.amu", "AMEVCNTR02") == [1_000_000] * 2 + [500_000] * 2 + [125_000] * 4, "AMU instructions follow the workload phases")
check(events("cpu0.amu", "AMEVCNTR00")[0] == "0x11 cpu_cycles", "AMU counter 0 names its event")

# dsu0 counter 0 = L3D_CACHE_RD = l3_access_rd of cpu0 (1/10 per cycle, 1/4 from 1 ms) + cpu1
# (1/20 at 2 GHz until WFI at 1.5 ms): 50k+25k, 50k+25k, 25k+25k, 25k+25k, 62.5k+25k (x2), 62.5k (x2).
check(series("dsu0", "PMEVCNTR0") == [75_000, 75_000, 50_000, 50_000, 87_500, 87_500, 62_500, 62_500],
      f"DSU L3D_CACHE_RD deltas (got {series('dsu0', 'PMEVCNTR0')})")
# counter 1 = L3D_CACHE_REFILL = cpu0 l3_refill_rd (1/100 per cycle: 5000 per 250 us at 2 GHz, 2500 at
# 1 GHz) until the 1 ms phase, which does not list l3_refill_rd: a phase replaces the workload, keys not
# listed become 0 (docs/sequence-language.md "workload"), so cpu0 refills nothing from 1 ms. Plus 5000
# injected at 100 us + 2000 spread over (1.2 ms, 1.6 ms]: 250, 1250, 500 in samples 5-7.
check(series("dsu0", "PMEVCNTR1") == [10_000, 5_000, 2_500, 2_500, 250, 1_250, 500, 0],
      f"DSU L3D_CACHE_REFILL deltas: the 1 ms phase stops cpu0's refills, replayed events add (got {series('dsu0', 'PMEVCNTR1')})")
# counter 2 counts CYCLES (1 GHz DSU clock: 250,000 per interval) until the 1 ms sequence moves it to
# L3D_CACHE, which then sees the l3_access_rd traffic of counter 0.
check(series("dsu0", "PMEVCNTR2") == [250_000] * 4 + [87_500, 87_500, 62_500, 62_500], "DSU counter 2 re-programmed at 1 ms")
check(events("dsu0", "PMEVCNTR2") == ["0x11 cycles"] * 4 + ["0x2b l3d_cache"] * 4, "event column follows the re-programming")
check(series("cpu0", "frequency_hz", "value")[1:3] == [2_000_000_000, 1_000_000_000], "clock rows show the DVFS step")
# A frequency is a level, not a count: its delta is the signed step (-1 GHz at the third sample,
# the first after the 500 us step), not 2^64 - 1e9; the first sample's delta is from 0.
check(series("cpu0", "frequency_hz") == [2_000_000_000, 0, -1_000_000_000, 0, 0, 0, 0, 0],
      f"clock rows' delta is the signed frequency step (got {series('cpu0', 'frequency_hz')})")
check([j["delta"] for j in jl if j["instance"] == "cpu0" and j["counter"] == "frequency_hz"][2] == -1_000_000_000,
      "JSON Lines: the down-step's delta is a negative integer")

stats = json.load(open(os.path.join(out, "stats.json")))
truth = {(e["instance"], e["event"]): e["count"] for e in stats["events"]}
check(truth[("dsu0", "l3d_cache_rd")] == 550_000, "truth: L3D_CACHE_RD = 400,000 (cpu0) + 150,000 (cpu1)")
# cpu0's refills: 1e6 cycles at 2 GHz + 5e5 at 1 GHz before the 1 ms phase, at 1/100: 15,000.
check(truth[("dsu0", "l3d_cache_refill")] == 22_000, "truth: refills 15,000 + 7,000 injected")
check(truth[("dsu0", "l3d_cache_refill_rd")] == 20_000, "truth: read refills 15,000 + 5,000 injected")
check(truth[("dsu0", "l3d_cache_wb")] == 0, "truth: events nobody programmed are listed too")
check(truth[("dsu0", "cycles")] == 2_000_000, "truth: 2 ms of a 1 GHz DSU clock")
check(truth[("cpu0", "cpu_cycles")] == 2_500_000, "truth: cpu0 cycles 1e6 at 2 GHz + 1.5e6 at 1 GHz")
check(truth[("cpu1", "cnt_cycles")] == 150_000, "truth: cpu1 constant cycles stop in WFI at 1.5 ms")
cpu1 = [c for c in stats["cpus"] if c["cpu"] == "cpu1"][0]
check(cpu1["power"] == "wfi" and cpu1["events"]["cycles"] == 3_000_000, "stats: cpu1 in WFI after 3e6 cycles")
# cpu1's only phase lists l3_access_rd alone: its inst (1 per cycle at reset) becomes 0 with it.
check(cpu1["events"].get("inst") == 0, f"stats: a phase's unlisted keys are 0 (cpu1 inst {cpu1['events'].get('inst')})")

cfg = json.load(open(os.path.join(out, "config.json")))
check(cfg["params"] == {"dsu_clock": "1GHz"}, "config: scenario params")
check(cfg["platform_params"]["clocks.dsu0.frequency"] == "1GHz", "config: resolved platform parameters")
check(cfg["sample"]["every_fs"] == 250_000_000_000, "config: sampling")

# --set overrides a param: the DSU clock at 500 MHz halves the CYCLES deltas.
out2 = os.path.join(tmp, "tour-500")
r = run("simulate", "scenarios/examples/tour.yaml", "-o", out2, "--set", "dsu_clock=500MHz")
check(r.returncode == 0, "--set dsu_clock=500MHz runs")
rows2 = list(csv.DictReader(open(os.path.join(out2, "samples.csv"))))
check([int(r["delta"]) for r in rows2 if r["instance"] == "dsu0" and r["counter"] == "PMEVCNTR2"][:4] == [125_000] * 4,
      "--set reaches the platform override")

# --log-json records the firmware boot and the scenario's sequences; a register-access latency
# (set.latency.register_access) delays the scenario's actions until the boot is over.
log = os.path.join(tmp, "log.jsonl")
r = run("simulate", "scenarios/examples/tour.yaml", "-o", os.path.join(tmp, "lat"), "--log-json", log,
        "--set", "set.latency.register_access=10ns")
records = [json.loads(l) for l in open(log)]
boot = [j for j in records if j["file"].startswith("firmware:")]
setup = [j for j in records if j["file"].endswith("tour-setup.seq")]
check(r.returncode == 0 and boot and setup, "the access log has the boot and the setup sequence")
check(min(j["time_fs"] for j in setup) >= max(j["time_fs"] for j in boot) + 10_000_000,
      "scenario sequences start after the firmware boot's last access completes")
check(any(j["target"] == "CLUSTERPMXEVTYPER_EL1" and j["line"] == 28 and j["value"] == "0x2b" for j in records),
      "the 1 ms text block's access is logged with its scenario line")

# Determinism: the same scenario twice gives byte-identical files.
out3 = os.path.join(tmp, "tour-again")
run("simulate", "scenarios/examples/tour.yaml", "-o", out3)
for f in ["samples.csv", "samples.jsonl", "stats.json", "config.json"]:
    check(open(os.path.join(out, f), "rb").read() == open(os.path.join(out3, f), "rb").read(), f"{f} is deterministic")


# samples.jsonl is optional (the tour asks for it with sample.jsonl: true); without it only the CSV.
p_nojs = os.path.join(tmp, "nojsonl.yaml")
open(p_nojs, "w").write("platform: arm-default\nduration: 1ms\nsample:\n  every: 100us\n  counters: [dsu0.PMCCNTR]\n")
r = run("simulate", p_nojs, "-o", os.path.join(tmp, "nojsonl"))
check(r.returncode == 0 and sorted(os.listdir(os.path.join(tmp, "nojsonl"))) == ["config.json", "samples.csv", "stats.json"],
      f"no samples.jsonl unless asked ({r.stderr})")
cfg = json.load(open(os.path.join(out, "config.json")))
check(cfg.get("pmusim_version") == run("--version").stdout.split()[-1] and cfg["duration_fs"] == 2 * 10**12,
      "config.json carries pmusim's version and the duration")

# Bad input: exit 2 with file:line.
def scenario(name, text):
    p = os.path.join(tmp, name)
    open(p, "w").write(text)
    return p


p = scenario("badkey.yaml", "platform: arm-default\nduration: 1ms\nworkload:\n  - { cpu: cpu0, rates: { instt: 1 } }\n")
r = run("simulate", p, "-o", os.path.join(tmp, "x"))
check(r.returncode == 2 and f"{p}:4: unknown workload key 'instt'" in r.stderr, f"unknown workload key at file:line ({r.stderr})")
ev = scenario("ev.jsonl", '{"time": "1us", "unit": "dsu9", "event": "l3d_cache", "count": 1}\n')
p = scenario("badev.yaml", f"platform: arm-default\nduration: 1ms\nevents:\n  - file: {ev}\n")
r = run("simulate", p, "-o", os.path.join(tmp, "x"))
check(r.returncode == 2 and f"{ev}:1: unknown unit 'dsu9'" in r.stderr, f"replayed event of an unknown unit ({r.stderr})")
p = scenario("badpat.yaml", "platform: arm-default\nduration: 1ms\nsample:\n  every: 1us\n  counters: [dsu7.*]\n")
r = run("simulate", p, "-o", os.path.join(tmp, "x"))
check(r.returncode == 2 and ":5: sample.counters: pattern 'dsu7.*' matches no counter" in r.stderr, f"unmatched pattern ({r.stderr})")
p = scenario("fail.yaml", "platform: arm-default\nduration: 1ms\nsequences:\n  - at: 10us\n    text: |\n"
                          "      as cpu0 el1\n      read CLUSTERPMCR_EL1 == 0x1 mask 0x1\n")
r = run("simulate", p, "-o", os.path.join(tmp, "x"))
check(r.returncode == 1 and f"{p}:7:" in r.stderr, f"a failed expectation in a scenario sequence exits 1 ({r.stderr})")
r = run("simulate", "scenarios/examples/tour.yaml", "-o", os.path.join(tmp, "x"), "--set", "dsu_clockk=1GHz")
check(r.returncode == 2 and "parameter 'dsu_clockk' is not declared" in r.stderr, "undeclared --set parameter")

# Sampling by cycles of a clock that changes frequency: every 100,000 cpu0 cycles over the tour
# = 1e6 cycles in the first 500 us at 2 GHz (10 samples), 1.5e6 at 1 GHz (15 more).
p = scenario("cyc.yaml", "platform: arm-default\nduration: 2ms\ndvfs:\n  - { at: 500us, clock: cpu0, frequency: 1GHz }\n"
                         "sample: { every_cycles: 100000, clock: cpu0, counters: [cpu0.amu.AMEVCNTR00], clocks: false }\n")
out4 = os.path.join(tmp, "cyc")
r = run("simulate", p, "-o", out4)
rows4 = list(csv.DictReader(open(os.path.join(out4, "samples.csv"))))
check(len(rows4) == 25 and all(int(r["delta"]) == 100_000 for r in rows4), f"every_cycles follows DVFS ({len(rows4)} rows)")
check(int(rows4[10]["time_fs"]) == 600_000_000_000, "the 11th sample at 500 us + 100,000 cycles of 1 GHz")

# A long run with sparse samples is fast: nothing ticks per cycle. 60 s of eight 2-2.5 GHz CPUs is
# about 1.3e12 CPU clock edges, hours for any per-edge process; with 10 samples it takes well under a
# second of CPU, so a generous 30 s wall-clock bound still tells the two apart on a loaded machine.
p = scenario("long.yaml", "platform: arm-default\nduration: 60s\nsample: { every: 6s }\n")
t0 = time.monotonic()
r = run("simulate", p, "-o", os.path.join(tmp, "long"))
check(r.returncode == 0 and time.monotonic() - t0 < 30, f"60 s scenario runs in {time.monotonic() - t0:.1f} s")
last = [r for r in csv.DictReader(open(os.path.join(tmp, "long", "samples.csv"))) if r["counter"] == "AMEVCNTR00"][-8:]
check([int(r["value"]) for r in last] == [120_000_000_000] * 4 + [150_000_000_000] * 4,
      "60 s of AMU cycles: 1.2e11 at 2 GHz (cpu0-3), 1.5e11 at 2.5 GHz (cpu4-7)")

finish()
