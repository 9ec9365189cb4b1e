#!/usr/bin/env python3
"""A Linux-style POWER9 nest IMC reader, replayed on a `pmusim simulate` output folder.

The scenario samples, at every read instant, the HOMER words the OCC microcode posts
(observables `imc0.chipN.EVENT`: what the kernel's nest PMU reads with
be64_to_cpu(*addr)) and the true event counts at the unit's inputs (`sample.truth`,
rows of unit "truth"). Per read interval (t_prev, t] the reader does what
arch/powerpc/perf/imc-pmu.c and perf do:
  delta  = word(t) - word(t_prev)            (u64, imc_event_update)
  events = delta * scale                     (perf's .scale from the catalog: 256 for MCS, 1 for MBA)
  GB/s   = events * bytes_per_event / (t - t_prev) / 1e9
and compares with the truth over the same interval: (count(t) - count(t_prev)) * bytes.
The first interval, (0, first read], is the reader's start (perf's prev_count) and is skipped.
Writes OUT/nest.csv (one row per read interval) and prints a JSON object of metrics for
`pmusim sweep`. Standard library only.
Usage: imc_nest_analysis.py OUT [--instance imc0.chip0]
"""
import argparse
import csv
import json
import os
import sys

# The study's events: the catalog scale (perf's .scale for nest_mcs01_imc and nest_mba0_imc) and
# the bytes one scaled event stands for (128-byte dispatches; READ_BYTES counts bytes).
EVENTS = {"rd": ("PM_MCS01_128B_RD_DISP_PORT01", 256, 128), "wr": ("PM_MCS01_128B_WR_DISP_PORT01", 256, 128),
          "mba": ("PM_MBA0_READ_BYTES", 1, 1)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--instance", default="imc0.chip0")
    a = ap.parse_args()
    cfg = json.load(open(os.path.join(a.out, "config.json")))
    speed = int(cfg["params"]["speed"], 0)
    reads = {}  # sample -> {"time_fs", ("word"|"true", event): value}
    for r in csv.DictReader(open(os.path.join(a.out, "samples.csv"), newline="")):
        if r["instance"] != a.instance:
            continue
        s = reads.setdefault(int(r["sample"]), {"time_fs": int(r["time_fs"])})
        s[("true" if r["unit"] == "truth" else "word", r["counter"])] = int(r["value"])
    order = sorted(reads)
    if len(order) < 2:
        print(json.dumps({"error": "fewer than two reads"}))
        return 1
    rows, err = [], {k: [] for k in EVENTS}
    zero_reads = 0
    for prev, cur in zip(order, order[1:]):
        p, c = reads[prev], reads[cur]
        seconds = (c["time_fs"] - p["time_fs"]) / 1e15
        row = [cur, round(c["time_fs"] / 1e12, 6)]
        for key, (event, scale, nbytes) in EVENTS.items():
            try:
                d_word = (c[("word", event)] - p[("word", event)]) % 2**64
                d_true = c[("true", event)] - p[("true", event)]
            except KeyError:
                print(f"imc_nest_analysis: sample {cur} lacks {a.instance}.{event} (word or truth)", file=sys.stderr)
                return 1
            true_gbps = d_true * nbytes / seconds / 1e9
            read_gbps = d_word * scale * nbytes / seconds / 1e9
            pct = (read_gbps - true_gbps) / true_gbps * 100 if d_true else None
            if d_true:
                err[key].append((pct, read_gbps - true_gbps))
            if key == "rd" and d_true and not d_word:
                zero_reads += 1
            row += [round(true_gbps, 6), round(read_gbps, 6), "" if pct is None else round(pct, 6)]
        rows.append(row)
    with open(os.path.join(a.out, "nest.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["read", "time_ms"] + [f"{c}_{k}{u}" for k in EVENTS
                                           for c, u in (("true", "_GBps"), ("reader", "_GBps"), ("err", "_pct"))])
        w.writerows(rows)
    first, last = reads[order[0]], reads[order[-1]]
    metrics = {
        "posting_period_ms": speed + 1,  # group 1: the OCC source's reading of the code (docs/imc.md "Nest")
        "mba_posting_period_ms": 4 * (speed // 8 + 1),  # group 5: state 4 of 8 every (speed / 8 + 1)-th time
        "read_intervals": len(rows),
        "rd_zero_reads": zero_reads,
    }
    for key, (event, scale, nbytes) in EVENTS.items():
        e = err[key]
        if not e:
            continue
        metrics[f"{key}_max_abs_err_pct"] = round(max(abs(x[0]) for x in e), 6)
        metrics[f"{key}_mean_abs_err_pct"] = round(sum(abs(x[0]) for x in e) / len(e), 6)
        metrics[f"{key}_max_abs_err_GBps"] = round(max(abs(x[1]) for x in e), 6)
        # Over the whole run: only the lag at the last read and one prescale count remain.
        total_true = last[("true", event)] - first[("true", event)]
        total_read = ((last[("word", event)] - first[("word", event)]) % 2**64) * scale
        metrics[f"{key}_total_err_pct"] = round((total_read - total_true) / total_true * 100, 6) if total_true else 0
    print(json.dumps(metrics, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
