#!/usr/bin/env python3
"""`pmusim compare A B`: two configurations side by side (docs/whatif.md "Comparing two runs").

A and B are `pmusim simulate` output folders, or comma-separated lists of them: replicates of one
configuration (the same scenario with other seeds, e.g. a sweep over a traffic generator's seed).
Every quantity of their stats.json is compared: the ground-truth events (INSTANCE.EVENT), the
CPUs' workload totals (cpuN.KEY), the counters' final values (counter:NAME) and perf-style
multiplexing estimates (multiplex:UNIT.EVENT).

One folder a side: columns quantity, a, b, diff (b - a), diff_pct (100 x diff / a; empty when a
is 0). Replicates (two or more folders on both sides): quantity, n_a, a_mean, a_sd, n_b, b_mean,
b_sd, diff (b_mean - a_mean), ci95_low, ci95_high: Welch's two-sample t interval of the difference
of the means at 95 % (the t quantile from a table for the Welch-Satterthwaite degrees of freedom,
rounded down: a slightly wider, conservative interval). Quantities equal in every folder of both
sides are left out unless --all. Rows sorted by quantity. Standard library only.
Usage: pmusim_compare.py A[,A2...] B[,B2...] [-o OUT.csv] [--all]
"""
import argparse
import csv
import json
import math
import os
import sys

# Two-sided 95 % quantiles of Student's t (any statistics table; e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2).
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
       11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
       20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048,
       29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}


class BadInput(Exception):
    pass


def t95(df):
    """The table's quantile for the largest tabulated df <= df (1.96 beyond 120)."""
    if df >= 1e9 or df > 120:
        return 1.960
    k = max(d for d in T95 if d <= max(1, math.floor(df)))
    return T95[k]


def quantities(folder):
    path = os.path.join(folder, "stats.json")
    try:
        with open(path) as f:
            st = json.load(f)
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file (expected a `pmusim simulate` output folder)")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise BadInput(f"{path}: not the JSON pmusim writes: {e}")
    q = {}
    for e in st.get("events", []):
        q[f"{e['instance']}.{e['event']}"] = e["count"]
    for c in st.get("cpus", []):
        for k, v in c.get("events", {}).items():
            q[f"{c['cpu']}.{k}"] = v
    for c in st.get("counters", []):
        q[f"counter:{c['name']}"] = c["value"]
    for m in st.get("multiplex", []):
        q[f"multiplex:{m['unit']}.{m['event']}"] = m["estimate"]
    return q


def number(v):
    return f"{v:.6f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


def mean_sd(xs):
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else 0.0
    return m, sd


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--all", action="store_true", help="also quantities equal in every folder")
    args = ap.parse_args()
    sides = []
    for spec in (args.a, args.b):
        folders = [f for f in spec.split(",") if f]
        if not folders:
            raise BadInput(f"'{spec}': expected a folder or comma-separated folders")
        sides.append([quantities(f) for f in folders])
    a, b = sides
    names = sorted(set().union(*[set(q) for q in a + b]))
    replicates = len(a) > 1 and len(b) > 1
    if (len(a) > 1) != (len(b) > 1):
        raise BadInput("replicates: give two or more folders on both sides, or one on each")
    rows = []
    for n in names:
        xa = [q.get(n, 0) for q in a]
        xb = [q.get(n, 0) for q in b]
        if not args.all and len(set(xa + xb)) == 1:
            continue
        if not replicates:
            d = xb[0] - xa[0]
            rows.append([n, xa[0], xb[0], d, number(100.0 * d / xa[0]) if xa[0] else ""])
            continue
        ma, sa = mean_sd(xa)
        mb, sb = mean_sd(xb)
        va, vb = sa * sa / len(xa), sb * sb / len(xb)
        se = math.sqrt(va + vb)
        if se == 0:
            lo = hi = mb - ma
        else:
            df = (va + vb) ** 2 / ((va * va / (len(xa) - 1) if va else 0) + (vb * vb / (len(xb) - 1) if vb else 0))
            half = t95(df) * se
            lo, hi = mb - ma - half, mb - ma + half
        rows.append([n, len(xa), number(float(ma)), number(sa), len(xb), number(float(mb)), number(sb),
                     number(float(mb - ma)), number(float(lo)), number(float(hi))])
    head = (["quantity", "n_a", "a_mean", "a_sd", "n_b", "b_mean", "b_sd", "diff", "ci95_low", "ci95_high"]
            if replicates else ["quantity", "a", "b", "diff", "diff_pct"])
    out = sys.stdout if args.output == "-" else open(args.output + ".tmp", "w", newline="")
    w = csv.writer(out, lineterminator="\n")
    w.writerow(head)
    w.writerows(rows)
    if out is not sys.stdout:
        out.close()
        os.replace(args.output + ".tmp", args.output)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BadInput as e:
        print(f"pmusim compare: {e}", file=sys.stderr)
        sys.exit(2)
