#!/usr/bin/env python3
"""The CMN-600 hot-spot study end to end (docs/whatif.md "CMN-600 hot spot"): `pmusim simulate`
writes per-crosspoint ground truth (cmn0.xpN, N = y * mesh_x + x), xp_heatmap.py turns it into
the heat-map CSV and `pmusim plot heatmap` draws it. Expected counts are derived here from the
traffic rules of docs/cmn.md, not taken from a run. Usage: check_cmn_hotspot.py PMUSIM
(run from the source tree).
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

from checklib import PMUSIM, check, finish, run

# --- what the platform implies (scenarios/studies/cmn-hotspot/mesh.yaml, docs/cmn.md) -------------
MESH = 4
REQUESTS = 1000                       # count= of every generator
REQUESTERS = [(x, y) for y in range(MESH) for x in range(MESH) if (x, y) != (0, 0)]  # 14 RN-F + the RN-I
# Home of line 0x80000000 >> 6 = 2^25: h = 2^25 ^ 2^19 ^ 2^13 ^ 2^7 ^ 2^1 = 34086018, and
# 34086018 % 14 HN-Fs = 10. HN-Fs are numbered in row-major XP order over the XPs that have one
# (all but (0,0) and (3,3)), so hnf10 sits at the 12th XP, index 11 = (3, 2).
HOME = (3, 2)
# Memory: SN-F number line % 2 = 0 in XP order, the one at (0,0).
MEMORY = (0, 0)


def route(src, dst):
    """The XPs that transmit a flit from src to dst: X first, then Y, both ends included."""
    (x, y), path = src, [src]
    while x != dst[0]:
        x += 1 if dst[0] > x else -1
        path.append((x, y))
    while y != dst[1]:
        y += 1 if dst[1] > y else -1
        path.append((x, y))
    return path


expected = {(x, y): 0 for y in range(MESH) for x in range(MESH)}


def flits(src, dst, n):
    for xp in route(src, dst):
        expected[xp] += n


for r in REQUESTERS:  # per ReadShared hit: REQ to the home, two CompData back, a CompAck to the home
    flits(r, HOME, REQUESTS)
    flits(HOME, r, 2 * REQUESTS)
    flits(r, HOME, REQUESTS)
flits(HOME, MEMORY, 1)  # the only miss (the first request): ReadNoSnp to memory, two data flits back
flits(MEMORY, HOME, 2)
# Snoops (docs/cmn.md "Coherence and snoops"): every generator issues at edge 10, in platform
# order. The RN-F at (1,0) reads first and holds the line unique (clean); the next ReadShared,
# from (2,0), makes the HN-F snoop it once: SnpShared down to (1,0), a clean SnpResp back. From
# then on the RN-Fs share the line and nobody is snooped again.
FIRST = (1, 0)
flits(HOME, FIRST, 1)
flits(FIRST, HOME, 1)

# --- run ------------------------------------------------------------------------------------------
tmp = tempfile.mkdtemp(prefix="pmusim-cmn-hot-")
out = os.path.join(tmp, "hot")
p = subprocess.run([PMUSIM, "simulate", "scenarios/studies/cmn-hotspot/hotspot.yaml", "-o", out],
                   capture_output=True, text=True)
check(p.returncode == 0, f"the hot-spot scenario simulates (exit {p.returncode}: {p.stderr.strip()[-300:]})")
if p.returncode == 0:
    stats = json.load(open(os.path.join(out, "stats.json")))
    ev = {(e["instance"], e["event"]): e["count"] for e in stats["events"]}
    xps = sorted({e["instance"] for e in stats["events"] if e["instance"].startswith("cmn0.xp")})
    check(len(xps) == MESH * MESH, f"one instance per crosspoint ({len(xps)})")
    for (x, y), n in sorted(expected.items()):
        got = ev.get((f"cmn0.xp{y * MESH + x}", "txflit_valid"))
        check(got == n, f"XP ({x},{y}) = cmn0.xp{y * MESH + x} transmitted {n} flits (got {got})")
    # txflit_valid is the sum of the XP's 24 per-interface, per-channel txflit_valid events.
    for n in range(MESH * MESH):
        parts = sum(c for (i, e), c in ev.items() if i == f"cmn0.xp{n}" and e.startswith("mxp_")
                    and e.endswith("_txflit_valid"))
        check(parts == ev[(f"cmn0.xp{n}", "txflit_valid")], f"xp{n}: txflit_valid is the sum of its interfaces")
    # The home XP's device port 1 (download to the HN-F): every REQ and CompAck, and the two data flits.
    check(ev[("cmn0.xp11", "mxp_p1_req_txflit_valid")] == 15 * REQUESTS + 0,
          "xp11 sends 15000 requests down to hnf10")
    check(ev[("cmn0.xp11", "mxp_p1_rsp_txflit_valid")] == 15 * REQUESTS + 1,
          "xp11 sends 15000 CompAcks and the one SnpResp down to hnf10")
    check(ev[("cmn0.xp11", "mxp_p1_dat_txflit_valid")] == 2, "xp11 sends the two memory data flits down to hnf10")
    total = 15 * REQUESTS
    check(ev[("cmn0.hnf10", "hnf_pocq_reqs_recvd")] == total, "hnf10 received every request")
    check(ev[("cmn0.hnf10", "hnf_slc_sf_cache_access")] == total, "hnf10 looked every request up")
    check(ev[("cmn0.hnf10", "hnf_cache_miss")] == 1, "one miss: the first request")
    check(ev[("cmn0.hnf10", "hnf_mc_reqs")] == 1, "one request to memory")
    check(ev[("cmn0.hnf10", "hnf_snp_sent")] == 1, "one snoop: the SnpShared to the first reader")
    check(ev[("cmn0.hnf10", "hnf_sf_hit")] == total - 1, "every request but the first finds the line held")
    check(all(ev[(f"cmn0.hnf{k}", "hnf_pocq_reqs_recvd")] == 0 for k in range(14) if k != 10),
          "no other HN-F receives a request")
    occ_all = ev[("cmn0.hnf10", "hnf_qos_pocq_occupancy_all")]
    check(occ_all >= total, f"HN-F occupancy: at least one cycle per request ({occ_all})")
    check(ev[("cmn0.hnf10", "hnf_qos_pocq_occupancy_read")] == occ_all, "only reads: read occupancy = all")
    check(ev[("cmn0.hnf10", "hnf_qos_pocq_occupancy_write")] == 0, "no write occupancy")
    check(ev[("cmn0.rni0", "rnid_txreq_flits_total")] == REQUESTS, "the RN-I sent its 1000 requests")
    check(ev[("cmn0.rni0", "rnid_rxdat_flits")] == 2 * REQUESTS, "the RN-I received 2000 data flits")
    # The heat map: CSV from stats.json, then the plot.
    csv_path = os.path.join(out, "xp.csv")
    h = subprocess.run([sys.executable, "tools/whatif/xp_heatmap.py", out, "--event", "txflit_valid", "-o", csv_path],
                       capture_output=True, text=True)
    check(h.returncode == 0, f"xp_heatmap.py runs ({h.stderr.strip()})")
    if h.returncode == 0:
        rows = list(csv.DictReader(open(csv_path)))
        check({(int(r["x"]), int(r["y"])): int(r["value"]) for r in rows} == expected,
              "the heat map places every XP's count at its (x, y)")
        hottest = max(rows, key=lambda r: int(r["value"]))
        check((int(hottest["x"]), int(hottest["y"])) == HOME, f"the hottest XP is the home's (3,2): {hottest}")
        svg = os.path.join(out, "xp.svg")
        g = subprocess.run([PMUSIM, "plot", "heatmap", csv_path, "-o", svg, "--opt", "label=flits"],
                           capture_output=True, text=True)
        check(g.returncode == 0 and os.path.getsize(svg) > 0, f"pmusim plot heatmap draws it ({g.stderr.strip()})")
    # Software's view: the DTC's cycle counter ran (the DTC was enabled at 0), samples exist.
    samples = list(csv.DictReader(open(os.path.join(out, "samples.csv"))))
    check(any(r["counter"] == "pmccntr" for r in samples), "the DTC's counters are sampled")
    # Software's count, read as drivers/perf/arm-cmn.c@v6.1 arm_cmn_event_read does: the 16-bit
    # DTM counter plus the DTC's global counter (its carries) << 16. The 15,000 requests fit in the
    # DTM counter: the DTC's pmevcnt0 alone stays 0, count0 is every request. The occupancy (at least
    # one cycle per request) is the truth's hnf_qos_pocq_occupancy_all, carries included.
    def last(counter):
        vals = [int(r["value"]) for r in samples if r["instance"] == "cmn0.dtc0" and r["counter"] == counter]
        return vals[-1] if vals else None
    check(last("pmevcnt0") == 0, f"the DTC counter 0 holds only carries: 0 (got {last('pmevcnt0')})")
    check(last("count0") == total, f"count0 = DTM + DTC << 16 = the {total} requests hnf10 received (got {last('count0')})")
    check(last("count1") == occ_all and last("pmevcnt1") == occ_all >> 16,
          f"count1 = the occupancy {occ_all}, pmevcnt1 its carries {occ_all >> 16} (got {last('count1')}, {last('pmevcnt1')})")

finish("cmn hot spot")
