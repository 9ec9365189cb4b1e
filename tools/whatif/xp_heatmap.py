#!/usr/bin/env python3
"""stats.json -> the `pmusim plot heatmap` CSV (x,y,value,label) for a mesh's crosspoints.

Takes, from a `pmusim simulate` output folder, the ground-truth counts of one event at every
crosspoint of one mesh unit: stats.json entries whose instance is UNIT.xpN. The crosspoint's
mesh position comes from its logical number N and the unit's mesh_x parameter in config.json
(units.UNIT.params.mesh_x): x = N mod mesh_x, y = N div mesh_x (CMN-600 numbers XPs row by row
from (0,0); docs/whatif.md). Standard library only.
Usage: xp_heatmap.py OUT --event EVENT [--unit cmn0] [-o xp.csv]
"""
import argparse
import csv
import json
import os
import re
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--event", required=True)
    ap.add_argument("--unit", default="cmn0")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    cfg = json.load(open(os.path.join(a.out, "config.json")))
    key = f"units.{a.unit}.params.mesh_x"
    if key not in cfg["platform_params"]:
        print(f"xp_heatmap: {a.out}/config.json has no {key} (is {a.unit} a mesh unit?)", file=sys.stderr)
        return 2
    mesh_x = int(cfg["platform_params"][key])
    pattern = re.compile(re.escape(a.unit) + r"\.xp([0-9]+)$")
    rows = []
    for e in json.load(open(os.path.join(a.out, "stats.json")))["events"]:
        m = pattern.match(e["instance"])
        if m and e["event"] == a.event:
            n = int(m.group(1))
            rows.append((n % mesh_x, n // mesh_x, e["count"], f"xp{n}"))
    if not rows:
        print(f"xp_heatmap: no {a.unit}.xpN instance counts event '{a.event}' in stats.json", file=sys.stderr)
        return 1
    out = open(a.output, "w", newline="") if a.output else sys.stdout
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["x", "y", "value", "label"])
    w.writerows(sorted(rows, key=lambda r: (r[1], r[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
