#!/usr/bin/env python3
"""Study 5 (docs/whatif.md "Linked system model"): the CMN-600 side of a linked run, summed over
the HN-Fs and SN-Fs, from stats.json. Prints a JSON object: requests (all HN-Fs' POCQ requests),
slc_misses, mc_reqs (requests to memory), occupancy_cycles (POCQ occupancy, all), mean_latency_cycles
= occupancy / requests and mean_occupancy = occupancy / mesh cycles (Little's law: L = lambda x W,
lambda = requests / cycles), mem_GBps = mc_reqs x 64 B / duration; from stats.json `link` (the
DSU-side queue, tb/system_link.h): queue_occupancy (request-cycles, floor of the exact value),
stall_cycles, peak_queue (floor), queue_wait_cycles = queue occupancy / requests arrived (Little's
law), peak_issue_rate (the most requests per mesh cycle the port sent) and traffic_end_cycles (the
mesh edge of its last request: the queue stretches the traffic past the demand), and over the
port's busy time (0 to traffic_end_cycles): busy_occupancy = occupancy / traffic_end_cycles (mean
POCQ entries in use, summed over the HN-Fs) and busy_mem_GBps = mc_reqs x 64 B / that time. Standard library only.
Usage: linked_analysis.py OUT [--cmn cmn0]
"""
import argparse
import json
import os
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--cmn", default="cmn0")
    a = ap.parse_args()
    st = json.load(open(os.path.join(a.out, "stats.json")))
    ev = {(e["instance"], e["event"]): e["count"] for e in st["events"]}
    hnfs = sorted({i for (i, _) in ev if i.startswith(a.cmn + ".hnf")})
    total = lambda event: sum(ev.get((h, event), 0) for h in hnfs)
    cycles = next(c["edges"] for c in st["clocks"] if c["clock"] == a.cmn)
    req, occ = total("hnf_pocq_reqs_recvd"), total("hnf_qos_pocq_occupancy_all")
    seconds = st["time_fs"] / 1e15
    m = {"requests": req, "slc_misses": total("hnf_cache_miss"), "mc_reqs": total("hnf_mc_reqs"),
         "occupancy_cycles": occ, "hnfs_used": sum(1 for h in hnfs if ev.get((h, "hnf_pocq_reqs_recvd"), 0)),
         "mean_latency_cycles": round(occ / req, 6) if req else 0,
         "mean_occupancy": round(occ / cycles, 6) if cycles else 0,
         "mem_GBps": round(total("hnf_mc_reqs") * 64 / seconds / 1e9, 6) if seconds else 0}
    link = [x for x in st.get("link", []) if x["cmn"] == a.cmn]
    if link:
        q = link[0]
        m.update({"queue_occupancy": q["queue_occupancy_floor"], "stall_cycles": q["stall_cycles"],
                  "peak_queue": q["peak_queue_floor"],
                  "queue_wait_cycles": round(q["queue_occupancy_floor"] / q["arrived_floor"], 6) if q["arrived_floor"] else 0})
        rate = lambda t: int(t.split("/")[0]) / int(t.split("/")[1]) if "/" in t else float(t)
        busy = [g for g in q["segments"] if rate(g["issue"]) > 0]
        m["peak_issue_rate"] = round(max((rate(g["issue"]) for g in busy), default=0), 6)
        m["traffic_end_cycles"] = end = max((g["stop_edge"] for g in busy), default=0)
        hz = cycles / seconds if seconds else 0
        m["busy_occupancy"] = round(occ / end, 6) if end else 0
        m["busy_mem_GBps"] = round(total("hnf_mc_reqs") * 64 * hz / end / 1e9, 6) if end else 0
    print(json.dumps(m, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
