#!/usr/bin/env python3
"""Metrics of perf-style multiplexing on a `pmusim simulate` output folder.

With a `multiplex:` entry in the scenario (docs/whatif.md "Multiplexing"), pmusim already wrote,
per event, perf's time_enabled / time_running, the raw count, the scaled estimate and the ground
truth (stats.json `multiplex`, the final readings): this script only turns them into the sweep's
columns. Without one (counters re-programmed by the scenario's own sequences), it works from the
samples: raw = the deltas of every sample interval a counter held the event, scaled by
enabled / running sample intervals (perf's time ratio when the intervals are equal).
Writes OUT/estimates.csv (name,measured,true,raw,running_pct,error_pct) and prints a JSON object of
metrics (err_pct_<event>, max_abs_err_pct, mean_abs_err_pct, events). Standard library only.
Usage: dsu_multiplex_analysis.py OUT [--instance dsu0]
"""
import argparse
import csv
import json
import os
import sys


def from_samples(out, instance, stats):
    """The readings the built-in multiplexing would give, from a scenario's own rotation."""
    samples, raw, running = set(), {}, {}
    for r in csv.DictReader(open(os.path.join(out, "samples.csv"), newline="")):
        if r["instance"] != instance or not r["counter"].startswith("PMEVCNTR"):
            continue
        samples.add(int(r["sample"]))
        name = r["event"].split(" ", 1)[1] if " " in r["event"] else r["event"]
        if name == "unimplemented":
            continue  # a counter left at an event number the DSU does not implement counts nothing
        raw[name] = raw.get(name, 0) + int(r["delta"])
        running[name] = running.get(name, 0) + 1
    truth = {e["event"]: e["count"] for e in stats["events"] if e["instance"] == instance}
    enabled = len(samples)
    out_rows = []
    for name in sorted(raw):
        est = raw[name] * enabled / running[name]
        true = truth.get(name, 0)
        out_rows.append({"event": name, "estimate": round(est, 3), "truth": true, "raw": raw[name],
                         "time_running_fs": running[name], "time_enabled_fs": enabled,
                         "error_pct": (est - true) / true * 100 if true else None})
    return out_rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--instance", default="dsu0")
    a = ap.parse_args()
    stats = json.load(open(os.path.join(a.out, "stats.json")))
    mux = [m for m in stats.get("multiplex", []) if m["unit"] == a.instance]
    if not mux:
        mux = from_samples(a.out, a.instance, stats)
    if not mux:
        print(json.dumps({"error": f"no multiplexed {a.instance} events in stats.json nor PMEVCNTR samples"}))
        return 1
    rows, metrics = [], {}
    for m in sorted(mux, key=lambda m: m["event"]):
        err = m["error_pct"] if m["error_pct"] is not None else 0.0
        pct = m["time_running_fs"] * 100 / m["time_enabled_fs"] if m["time_enabled_fs"] else 0.0
        rows.append([m["event"], m["estimate"], m["truth"], m["raw"], f"{pct:.2f}", round(err, 6)])
        metrics[f"err_pct_{m['event']}"] = round(err, 6)
    with open(os.path.join(a.out, "estimates.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["name", "measured", "true", "raw", "running_pct", "error_pct"])
        w.writerows(rows)
    errs = [abs(r[5]) for r in rows]
    metrics["events"] = len(rows)
    metrics["max_abs_err_pct"] = round(max(errs), 6)
    metrics["mean_abs_err_pct"] = round(sum(errs) / len(errs), 6)
    print(json.dumps(metrics, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
