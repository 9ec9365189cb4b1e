#!/usr/bin/env python3
"""perf-style multiplexing estimates against ground truth, on a `pmusim simulate` output folder.

The scenario rotates more events than there are counters (one rotation per sample
interval, after the sample: docs/whatif.md). perf scales what a counter saw while the
event was scheduled by time_enabled / time_running; with equal slices that is
  estimate = raw * enabled_slices / running_slices
where raw sums the sampled deltas of every counter while it held the event. The
truth is the event's count at the unit's inputs (stats.json).
Writes OUT/multiplex.csv (name,measured,true,...: the `pmusim plot truth` schema) and
prints a JSON object of metrics. Standard library only.
Usage: dsu_multiplex_analysis.py OUT [--instance dsu0]
"""
import argparse
import csv
import json
import os
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--instance", default="dsu0")
    a = ap.parse_args()
    samples, raw, running = set(), {}, {}
    for r in csv.DictReader(open(os.path.join(a.out, "samples.csv"), newline="")):
        if r["instance"] != a.instance or not r["counter"].startswith("PMEVCNTR"):
            continue
        samples.add(int(r["sample"]))
        name = r["event"].split(" ", 1)[1] if " " in r["event"] else r["event"]
        if name == "unimplemented":
            continue  # a counter left at an event number the DSU does not implement counts nothing
        raw[name] = raw.get(name, 0) + int(r["delta"])
        running[name] = running.get(name, 0) + 1
    stats = json.load(open(os.path.join(a.out, "stats.json")))
    truth = {e["event"]: e["count"] for e in stats["events"] if e["instance"] == a.instance}
    enabled = len(samples)
    if not enabled:
        print(json.dumps({"error": f"no {a.instance} PMEVCNTR samples"}))
        return 1
    rows, metrics = [], {}
    for name in sorted(raw):
        est = raw[name] * enabled / running[name]
        true = truth.get(name, 0)
        err = (est - true) / true * 100 if true else 0.0
        rows.append([name, round(est, 3), true, raw[name], running[name], enabled, round(err, 6)])
        metrics[f"err_pct_{name}"] = round(err, 6)
    with open(os.path.join(a.out, "multiplex.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["name", "measured", "true", "raw", "running_slices", "enabled_slices", "error_pct"])
        w.writerows(rows)
    errs = [abs(r[6]) for r in rows]
    metrics["events"] = len(rows)
    metrics["max_abs_err_pct"] = round(max(errs), 6)
    metrics["mean_abs_err_pct"] = round(sum(errs) / len(errs), 6)
    print(json.dumps(metrics, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
