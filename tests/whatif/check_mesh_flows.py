#!/usr/bin/env python3
"""The mesh-flows study end to end (docs/whatif.md "Study 6", docs/cmn.md "Flows"): a whole second
of a 2 GHz mesh counted from flow rates. Every expected count is derived here from the documented
rules (request k of a stream at rate s issues at edge ceil(k / s); XY routes, 1 cycle device<->XP,
2 per hop, HN-F 8, SN-F 40), not taken from a run: hnf5's requests, POCQ occupancy and memory
requests, the HN-I's reads, what software reads (cmn0.dtc0.count0/1) at every 100 ms sample, and
the sweep's nine points. Usage: check_mesh_flows.py PMUSIM (run from the source tree).
"""
import csv
import json
import os
import tempfile
from fractions import Fraction as F

from checklib import check, finish, run

EDGES_PER_SAMPLE = 200_000_000  # 100 ms of the 2 GHz mesh clock
# hnf5 is the HN-F of XP index 6 = (2,1) (HN-Fs numbered in XP order from XP 1), on port 1.
# F1: RN-F (1,0) -> (2,1): 2 hops, the REQ arrives 1 + 2 * 2 + 1 = 6 cycles after its issue.
#   hit: data leaves at 6 + 8 = 14 and 15; the POCQ entry is held from 6 to 15: 9 cycles.
#   miss: ReadNoSnp leaves at 14 (hnf_mc_reqs then) to the SN-F at (0,0) (3 hops): there at
#   14 + 1 + 6 + 1 = 22; data at 62 and 63, back at 70 and 71 (fill at 71), data to the RN at 71
#   and 72: held from 6 to 72, 66 cycles.
# F2: RN-F (3,2) -> (2,1): 2 hops, arrives at 6; CompDBIDResp at 14, at the RN at 20; data at 20,
#   21, at the HN-F at 26, 27: held from 6 to 27, 21 cycles.
# F3: RN-I (3,3) -> HN-I at (0,0): 6 hops, arrives at 1 + 12 + 1 = 14 (hni_rrt_rd_alloc).


def floor_sum(n, s):
    """sum_{u < n} floor(u * s) for a Fraction s = p / q >= 0 (the classic recursion)."""
    if n <= 0:
        return 0
    a, m, b, total = s.numerator, s.denominator, 0, 0
    while True:
        if a >= m:
            total += (n * (n - 1) // 2) * (a // m)
            a %= m
        if b >= m:
            total += n * (b // m)
            b %= m
        y = a * n + b
        if y < m:
            return total
        n, b, m, a = y // m, y % m, a, m


def issued(x, s):
    return 0 if x <= 0 else int(x * s)  # floor for Fractions of non-negative integers


def expected(edge, read_rate, miss):
    hits, misses, write = read_rate * (1 - miss), read_rate * miss, F(1, 16)
    streams = [(hits, 6, 9), (misses, 6, 66), (write, 6, 21)]  # rate, arrival, time held
    requests = sum(issued(edge - a, s) for s, a, _ in streams)
    occupancy = sum(floor_sum(edge - a, s) - floor_sum(edge - a - h, s) for s, a, h in streams if s)
    return {"hnf_pocq_reqs_recvd": requests, "hnf_qos_pocq_occupancy_all": occupancy,
            "hnf_mc_reqs": issued(edge - 14, misses), "hni_rrt_rd_alloc": issued(edge - 14, F(1, 50))}


# floor_sum against a plain sum on small cases (the helper itself is checked, not trusted)
for s in [F(3, 32), F(1, 16), F(7, 5), F(0)]:
    for n in [0, 1, 5, 33, 100]:
        check(floor_sum(n, s) == sum(int(u * s) for u in range(n)), f"floor_sum({n}, {s})")

out = tempfile.mkdtemp(prefix="mesh-flows-")
r = run("simulate", "scenarios/studies/mesh-flows/flows.yaml", "-o", out)
check(r.returncode == 0, f"simulate exits 0 ({r.returncode}: {r.stderr.strip()[-300:]})")
rows = list(csv.DictReader(open(os.path.join(out, "samples.csv"))))
samples = sorted({int(row["sample"]) for row in rows})
check(samples == list(range(1, 11)), f"ten samples, every 100 ms ({samples})")
for row in rows:
    edge = int(row["sample"]) * EDGES_PER_SAMPLE
    want = expected(edge, F(1, 8), F(1, 4))
    value = int(row["value"])
    if row["unit"] == "truth":
        check(value == want[row["counter"]], f"sample {row['sample']} {row['instance']}.{row['counter']}: "
                                             f"{value} == {want[row['counter']]}")
    elif row["counter"] == "count0":  # software: DTM + DTC << 16 of hnf_pocq_reqs_recvd
        check(value == want["hnf_pocq_reqs_recvd"], f"sample {row['sample']} count0 {value}")
    elif row["counter"] == "count1":
        check(value == want["hnf_qos_pocq_occupancy_all"] % (1 << 48), f"sample {row['sample']} count1 {value}")
# Hand figures for the last sample (1 s = 2e9 edges): requests floor(1999999994 * 3/32) +
# floor(1999999994 / 32) + floor(1999999994 / 16) = 187499999 + 62499999 + 124999999.
check(expected(2_000_000_000, F(1, 8), F(1, 4))["hnf_pocq_reqs_recvd"] == 374999997, "the 1 s request count by hand")
stats = json.load(open(os.path.join(out, "stats.json")))
totals = {(e["instance"], e["event"]): e["count"] for e in stats["events"]}
want = expected(2_000_000_000, F(1, 8), F(1, 4))
for name in ["hnf_pocq_reqs_recvd", "hnf_qos_pocq_occupancy_all", "hnf_mc_reqs"]:
    check(totals.get(("cmn0.hnf5", name)) == want[name], f"stats.json cmn0.hnf5 {name}")
check(totals.get(("cmn0.hnf4", "hnf_pocq_reqs_recvd")) == 0, "no flow reaches hnf4")

sweep_out = tempfile.mkdtemp(prefix="mesh-flows-sweep-")
r = run("sweep", "scenarios/studies/mesh-flows/sweep.yaml", "-o", sweep_out, "-j", "2")
check(r.returncode == 0, f"sweep exits 0 ({r.returncode}: {r.stderr.strip()[-300:]})")
points = list(csv.DictReader(open(os.path.join(sweep_out, "results.csv"))))
check(len(points) == 9, f"nine sweep points ({len(points)})")
for p in points:
    want = expected(2_000_000_000, F(p["read_rate"]), F(p["miss"]))
    for name in ["hnf_pocq_reqs_recvd", "hnf_qos_pocq_occupancy_all", "hnf_mc_reqs"]:
        check(int(p["cmn0.hnf5." + name]) == want[name],
              f"sweep read_rate={p['read_rate']} miss={p['miss']} {name}: {p['cmn0.hnf5.' + name]} == {want[name]}")
finish("mesh_flows")
