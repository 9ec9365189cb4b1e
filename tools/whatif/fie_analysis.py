#!/usr/bin/env python3
"""Linux arm64 AMU frequency invariance, replayed on a `pmusim simulate` output folder.

At every sample (the scheduler tick) it applies the kernel's integer arithmetic
(arch/arm64/kernel/topology.c, documented in docs/whatif.md) to the deltas of
AMEVCNTR00 (core cycles) and AMEVCNTR01 (constant cycles) of one CPU:

  arch_max_freq_scale = (const_hz << 20) // max_hz              # freq_inv_set_max_ratio()
  scale = min(((d_core * arch_max_freq_scale) >> 10) // d_const, 1024)   # amu_scale_freq_tick()

and compares it with the true ratio, in units of 1/1024 (SCHED_CAPACITY_SCALE):
  true_avg = average CPU frequency over the tick / max_hz * 1024   (what the counters can know)
  true_now = CPU frequency at the tick / max_hz * 1024             (what the scheduler wants)
Writes OUT/fie.csv (one row per tick) and prints a JSON object of metrics for `pmusim sweep`.
Standard library only. Usage: fie_analysis.py OUT [--cpu N]
"""
import argparse
import csv
import json
import os
import re
import sys

UNITS = {"hz": 1, "khz": 10**3, "mhz": 10**6, "ghz": 10**9}
TIME_FS = {"s": 10**15, "ms": 10**12, "us": 10**9, "ns": 10**6, "ps": 10**3, "fs": 1}


def hz(text):
    """'2GHz', '32.768kHz', '25000000' -> integer Hz (exact decimal arithmetic)."""
    m = re.fullmatch(r"([0-9]+)(?:\.([0-9]+))?\s*([a-zA-Z]*)", text)
    if not m:
        raise ValueError(f"not a frequency: {text!r}")
    mult = UNITS[m.group(3).lower()] if m.group(3) else 1
    frac = m.group(2) or ""
    return (int(m.group(1) + frac) * mult) // (10 ** len(frac))


def fs(text):
    """'12.5ms', '0' -> integer femtoseconds (exact decimal arithmetic)."""
    m = re.fullmatch(r"([0-9]+)(?:\.([0-9]+))?\s*([a-z]*)", text.strip())
    if not m or (m.group(3) and m.group(3) not in TIME_FS) or (not m.group(3) and text.strip() != "0"):
        raise ValueError(f"not a duration: {text!r}")
    frac = m.group(2) or ""
    return (int(m.group(1) + frac) * TIME_FS[m.group(3) or "fs"]) // (10 ** len(frac))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--cpu", type=int, default=0)
    a = ap.parse_args()
    cfg = json.load(open(os.path.join(a.out, "config.json")))
    params = cfg["platform_params"]
    cpu = f"cpu{a.cpu}"
    clock = params.get(f"cpus.{cpu}.clock", cpu)
    const_hz = hz(params["clocks.const.frequency"])
    max_hz = hz(params[f"clocks.{clock}.frequency"])  # the platform's initial CPU frequency is cpufreq's max
    max_freq_scale = (const_hz << 20) // max_hz
    # Where the scenario's DVFS step falls within its scheduler tick (the sampling period),
    # as a percentage of the tick: 0 = on a tick.
    tick_fs = cfg["sample"]["every_fs"]
    step_fs = fs(cfg["params"]["step_at"]) if "step_at" in cfg.get("params", {}) else None
    step_offset = {} if step_fs is None or not tick_fs else {
        "step_offset_pct": round((step_fs % tick_fs) * 100 / tick_fs, 6)}
    if max_freq_scale == 0:
        print(json.dumps({"error": "reference frequency too low (Linux refuses AMU FIE)"}))
        return 0
    ticks = {}
    for r in csv.DictReader(open(os.path.join(a.out, "samples.csv"), newline="")):
        t = ticks.setdefault(int(r["sample"]), {"time_fs": int(r["time_fs"])})
        if r["instance"] == f"{cpu}.amu" and r["counter"] in ("AMEVCNTR00", "AMEVCNTR01"):
            t[r["counter"]] = int(r["delta"])
        if r["unit"] == "clock" and r["instance"] == clock:
            t["freq_now"] = int(r["value"])
    rows = []
    prev_time = 0
    for n in sorted(ticks):
        t = ticks[n]
        d_core, d_const = t.get("AMEVCNTR00"), t.get("AMEVCNTR01")
        if d_core is None or d_const is None or "freq_now" not in t:
            print(f"fie_analysis: sample {n} lacks {cpu}.amu.AMEVCNTR00/01 or clock {clock}", file=sys.stderr)
            return 1
        dt_fs = t["time_fs"] - prev_time
        prev_time = t["time_fs"]
        if d_core == 0 or d_const == 0:
            continue  # Linux skips the update when a counter did not advance
        scale = min(((d_core * max_freq_scale) >> 10) // d_const, 1024)
        true_avg = d_core * 10**15 / dt_fs / max_hz * 1024
        true_now = t["freq_now"] / max_hz * 1024
        rows.append([n, t["time_fs"] / 1e12, d_core, d_const, scale, round(true_avg, 6), round(true_now, 6),
                     round(scale - true_avg, 6), round(scale - true_now, 6)])
    with open(os.path.join(a.out, "fie.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["tick", "time_ms", "d_core", "d_const", "scale", "true_avg_1024", "true_now_1024",
                    "err_avg_1024", "err_now_1024"])
        w.writerows(rows)
    if not rows:
        print(json.dumps({"error": "no tick with advancing counters"}))
        return 1
    err_avg = [abs(r[7]) for r in rows]
    err_now = [abs(r[8]) for r in rows]
    print(json.dumps({
        "max_freq_scale": max_freq_scale,
        "ticks": len(rows),
        "max_abs_err_avg_1024": round(max(err_avg), 6),
        "mean_abs_err_avg_1024": round(sum(err_avg) / len(rows), 6),
        "max_abs_err_now_1024": round(max(err_now), 6),
        "mean_abs_err_now_1024": round(sum(err_now) / len(rows), 6),
        "ticks_off_by_more_than_1": sum(1 for e in err_now if e > 1),
        # The full-speed scale (the first tick: cpu0 at its maximum), i.e. the arithmetic's error alone.
        "first_tick_scale": rows[0][4],
        **step_offset,
    }, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
