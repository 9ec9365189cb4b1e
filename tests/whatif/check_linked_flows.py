#!/usr/bin/env python3
"""The linked model on flows (docs/whatif.md "Linked system model", tb/system_link.h), every count
worked out here from the documented model, not taken from a run:

scenarios/studies/linked/linked.yaml: cpu0..cpu3 at 2 GHz, l3_access_rd 1/10 each for 0.5 ms
(1,000,000 CPU cycles): L3D_CACHE 400,000; refills = 400,000 x miss ratio; write-backs = refills x
1/4. The cluster's demand D = 4 x 1/10 x ratio x (1 + 1/4) x 2 GHz / 1 GHz = ratio requests per mesh
cycle for edges (0, 500,000], then 0. The port takes port_rate = 1/4 per cycle: above it the
DSU-side queue grows at D - 1/4 and drains at 1/4 (a fluid queue, queue() below).
Flows: per segment and (HN-F, memory) pair a read flow at issue x 4/5 x 1/16 (the range is 2^22
aligned lines: for line mod 4 = m the hash's low two bits are m XOR bits 7:6 XOR 13:12 ..., uniform:
each pair holds 1/16 of the lines), per HN-F a write flow at issue x 1/5 x 1/4; each flow is a hit
and a miss stream at rate x 1/2 (slc_miss_ratio). A stream of rate s over (a, b] issues
floor((b - a) x s) requests (docs/cmn.md "Flows", stop=). Times held in the POCQ (docs/cmn.md
"Flows", 1 cycle device<->XP, 2 per hop, HN-F 8, SN-F 40): read hit 9, read miss 54 + 4 h (h: hops
HN-F -> memory), write 13 + 4 h (h: hops HN-F -> requester).
Usage: check_linked_flows.py PMUSIM (run from the source tree).
"""
import json
import os
import sys
import tempfile
import time
from fractions import Fraction as F

from checklib import check, finish, run

tmp = tempfile.mkdtemp(prefix="pmusim-linked-flows-")


def linked_analysis(out):
    """tools/whatif/linked_analysis.py's JSON for a run (in this process: no interpreter per point)."""
    import contextlib
    import importlib.util
    import io
    spec = importlib.util.spec_from_file_location("linked_analysis", "tools/whatif/linked_analysis.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    buf, argv = io.StringIO(), sys.argv
    sys.argv = ["linked_analysis.py", out]
    try:
        with contextlib.redirect_stdout(buf):
            mod.main()
    finally:
        sys.argv = argv
    return json.loads(buf.getvalue())
# platforms/arm-default.yaml: HN-Fs in XP order (hnf0..3), memories (SN-F, SBSX) in XP order.
HNF = [(1, 0), (2, 0), (0, 1), (2, 1)]
MEM = [(2, 0), (0, 1), (0, 2), (2, 2)]
RN = (1, 0)
hops = lambda a, b: abs(a[0] - b[0]) + abs(a[1] - b[1])


def queue(changes, end, B):
    """The documented DSU-side queue: [(edge, demand)] -> segments (a, b, issue), occupancy, stall, peak."""
    Q, occ, stall, peak, segs = F(0), F(0), 0, F(0), []
    for k, (a, D) in enumerate(changes):
        b = changes[k + 1][0] if k + 1 < len(changes) else end
        L = b - a
        if Q == 0 and D <= B:
            segs.append((a, b, D))
        elif D >= B:
            segs.append((a, b, B))
            occ += Q * L + (D - B) * L * L / 2
            Q += (D - B) * L
            stall += L
        elif Q / (B - D) >= L:
            segs.append((a, b, B))
            occ += Q * L - (B - D) * L * L / 2
            Q -= (B - D) * L
            stall += L
        else:
            te = -(-Q // (B - D))  # ceil
            segs.append((a, a + te, D + Q / te))
            occ += Q * te / 2
            stall += te
            Q = F(0)
            segs.append((a + te, b, D))
        peak = max(peak, Q)
    return segs, occ, stall, peak


def expected(ratio):
    D = 4 * F(1, 10) * ratio * F(5, 4) * 2
    segs, occ, stall, peak = queue([(0, D), (500_000, F(0))], 1_500_000, F(1, 4))
    hn = {h: {"hnf_pocq_reqs_recvd": 0, "hnf_qos_pocq_occupancy_all": 0, "hnf_mc_reqs": 0, "hnf_cache_miss": 0}
          for h in range(4)}
    for a, b, issue in segs:
        if issue == 0:
            continue
        for h in range(4):
            streams = []
            for m in range(4):
                r = issue * F(4, 5) / 16
                streams += [(r / 2, 9, False, False), (r / 2, 54 + 4 * hops(HNF[h], MEM[m]), True, True)]
            w = issue * F(1, 5) / 4
            streams += [(w / 2, 13 + 4 * hops(HNF[h], RN), False, False), (w / 2, 13 + 4 * hops(HNF[h], RN), True, False)]
            for s, held, miss, memory in streams:
                n = int((b - a) * s)
                hn[h]["hnf_pocq_reqs_recvd"] += n
                hn[h]["hnf_qos_pocq_occupancy_all"] += n * held  # every request completed by 1.5 ms
                hn[h]["hnf_cache_miss"] += n if miss else 0
                hn[h]["hnf_mc_reqs"] += n if memory else 0
    return segs, occ, stall, peak, hn


def simulate(name, scenario, *args):
    out = os.path.join(tmp, name)
    t0 = time.monotonic()
    r = run("simulate", scenario, "-o", out, *args)
    took = time.monotonic() - t0
    check(r.returncode == 0, f"{name} simulates ({r.stderr.strip()[-400:]})")
    if r.returncode:
        return {}, {}, took
    st = json.load(open(os.path.join(out, "stats.json")))
    return {(e["instance"], e["event"]): e["count"] for e in st["events"]}, st, took


# The queue helper itself on a case done with pencil: demand 2/5 for 500,000 edges, then 0, port 1/4:
# the backlog peaks at 3/20 x 500,000 = 75,000 and drains in 75,000 / (1/4) = 300,000 edges; the
# area is 75,000 x 500,000 / 2 + 75,000 x 300,000 / 2 = 3e10 request-cycles.
segs, occ, stall, peak = queue([(0, F(2, 5)), (500_000, F(0))], 1_500_000, F(1, 4))
check((occ, stall, peak) == (30_000_000_000, 800_000, 75_000) and segs[1] == (500_000, 800_000, F(1, 4)),
      f"queue helper: {occ} {stall} {peak} {segs}")

# Every point of Study 5's sweep (scenarios/studies/linked/sweep.yaml), and its analysis columns.
for ratio in (F(1, 40), F(1, 10), F(1, 5), F(1, 4), F(3, 10), F(2, 5), F(1, 2)):
    tag = str(ratio).replace("/", "_")
    ev, st, _ = simulate(tag, "scenarios/studies/linked/linked.yaml", "--set", f"miss_ratio={ratio}")
    if not ev:
        continue
    analysis = linked_analysis(os.path.join(tmp, tag))
    refills = int(400_000 * ratio)
    check(ev[("dsu0", "l3d_cache")] == 400_000, f"{ratio}: L3D_CACHE 400,000")
    check(ev[("dsu0", "l3d_cache_refill")] == refills, f"{ratio}: L3D_CACHE_REFILL {refills}")
    check(ev[("dsu0", "l3d_cache_wb")] == refills // 4, f"{ratio}: L3D_CACHE_WB = refills / 4 = {refills // 4} "
                                                        f"({ev[('dsu0', 'l3d_cache_wb')]})")
    check(ev[("dsu0", "bus_access")] == refills + refills // 4, f"{ratio}: BUS_ACCESS = refills + write-backs")
    segs, occ, stall, peak, hn = expected(ratio)
    link = st["link"][0]
    got = [(g["start_edge"], g["stop_edge"], F(g["issue"])) for g in link["segments"] if F(g["issue"])]
    check(got == [s for s in segs if s[2]], f"{ratio}: the port's schedule {got} == {segs}")
    check(F(link["queue_occupancy"]) == occ and link["stall_cycles"] == stall and F(link["peak_queue"]) == peak,
          f"{ratio}: queue occupancy {link['queue_occupancy']} == {occ}, stall {link['stall_cycles']} == {stall}, "
          f"peak {link['peak_queue']} == {peak}")
    check(F(link["arrived"]) == F(link["issued"]) == 400_000 * ratio * F(5, 4),
          f"{ratio}: every request that arrived was sent ({link['arrived']}, {link['issued']})")
    check(all(F(v) == F(1, 4) for v in link["home_shares"].values()), f"{ratio}: each HN-F homes a quarter of the lines")
    for h in range(4):
        for event, want in hn[h].items():
            c = ev[(f"cmn0.hnf{h}", event)]
            check(c == want, f"{ratio}: hnf{h} {event} {c} == {want}")
    # The study's table (docs/whatif.md Study 5): sums over the HN-Fs, the port's busy time, 1 GHz mesh.
    requests = sum(hn[h]["hnf_pocq_reqs_recvd"] for h in range(4))
    hocc = sum(hn[h]["hnf_qos_pocq_occupancy_all"] for h in range(4))
    mc = sum(hn[h]["hnf_mc_reqs"] for h in range(4))
    end = max(b for a, b, issue in segs if issue)
    want = {"requests": requests, "occupancy_cycles": hocc, "mc_reqs": mc, "traffic_end_cycles": end,
            "busy_occupancy": round(hocc / end, 6), "busy_mem_GBps": round(mc * 64 / end, 6),
            "peak_issue_rate": round(float(max(issue for _, _, issue in segs)), 6), "stall_cycles": stall,
            "queue_wait_cycles": round(int(occ) / int(400_000 * ratio * F(5, 4)), 6)}
    got = {k: analysis.get(k) for k in want}
    check(got == want, f"{ratio}: the study's columns {got} == {want}")
    if ratio == F(2, 5):  # Little's law on the queue: mean wait = occupancy / arrivals = 3e10 / 200,000
        check(occ / F(link["arrived"]) == 150_000, f"{ratio}: mean queue wait 150,000 mesh cycles")

# Flows at rate against the same requests one by one (flow_mode: per-request) on the 8x8 mesh, for
# 400 us: every event of every unit identical.
a, _, _ = simulate("rate", "scenarios/studies/linked/linked-8x8.yaml", "--set", "duration=400us")
b, _, _ = simulate("per_request", "scenarios/studies/linked/linked-8x8.yaml", "--set", "duration=400us",
                   "--set", "set.units.cmn0.params.flow_mode=per-request")
diff = [k for k in a if a[k] != b.get(k)]
check(a and len(a) == len(b) and not diff, f"8x8, 400 us: rate and per-request identical ({len(a)} events, differ: {diff[:5]})")
check(sum(c for (i, e), c in a.items() if e == "hnf_pocq_reqs_recvd") > 90_000, "8x8, 400 us: the HN-Fs are busy")

# A second of the 8x8 mesh: demand 4 x 1/4 x 1/10 x 5/4 = 1/8 per cycle, 2e9 edges: 2.5e8 requests.
ev, st, took = simulate("second", "scenarios/studies/linked/linked-8x8.yaml")
if ev:
    link = st["link"][0]
    check(link["arrived"] == "250000000" and link["edges"] == 2_000_000_000, f"1 s: 250,000,000 requests ({link['arrived']})")
    req = sum(c for (i, e), c in ev.items() if e == "hnf_pocq_reqs_recvd")
    # each of the 62 x 2 read flows and 62 write flows is two streams: at most 2 x 186 floors lost
    check(250_000_000 - 2 * 186 <= req <= 250_000_000, f"1 s: the HN-Fs receive the requests ({req})")
    check(took < 10, f"1 s of the 8x8 mesh in under 10 host seconds ({took:.2f} s)")
    print(f"1 s of a linked 8x8 mesh: {took:.2f} host s")

# CMN flows with a window (docs/cmn.md "Flows", stop=): two read flows from the RN-F at (1,0) to hnf0
# on the same XP (its REQ arrives 1 + 1 = 2 edges after the issue), 2/5 each: together they would
# send 2 x 2 x 2/5 = 8/5 data flits a cycle on one output (refused), one after the other they fit.
# By edge 10,000 (10 us at 1 GHz): floor(min(9,998, 100) x 2/5) + floor((10,000 - 100 - 2) x 2/5)
# = 40 + 3,959 = 3,999 requests at hnf0.
windows = os.path.join(tmp, "windows.yaml")
open(windows, "w").write("""name: windows
params: { second: "start=100" }
platform: arm-default
set:
  units.cmn0.params.events: ""
  units.cmn0.params.flows: "1,0 p0 to=hnf0 op=read rate=2/5 stop=100; 1,0 p0 to=hnf0 op=read rate=2/5 ${second}"
duration: 10us
""")
ev, st, _ = simulate("windows", windows)
check(ev.get(("cmn0.hnf0", "hnf_pocq_reqs_recvd")) == 3_999, f"windowed flows: 3,999 requests ({ev.get(('cmn0.hnf0', 'hnf_pocq_reqs_recvd'))})")
for second, want in (("start=50", "transmits 8/5 flits per cycle"), ("start=100 stop=100", "stop=100 is not after start=100")):
    r = run("simulate", windows, "-o", os.path.join(tmp, "x"), "--set", f"second={second}")
    check(r.returncode == 2 and want in r.stderr, f"flows '{second}' refused: {want} ({r.stderr.strip()})")

# Bad input at its line, exit 2.
base = open("scenarios/studies/linked/linked.yaml").read()


def refused(name, text, *want):
    p = os.path.join(tmp, name)
    open(p, "w").write(text)
    r = run("simulate", p, "-o", os.path.join(tmp, "x"))
    check(r.returncode == 2 and all(w in r.stderr for w in want) and f"{p}:" in r.stderr, f"{name} refused ({r.stderr})")


refused("wb.yaml", base.replace('{ at: 0, cpu: cpu0, rates: { inst: 1, l3_access_rd: "${access}" } }',
                                '{ at: 0, cpu: cpu0, rates: { inst: 1, l3_access_rd: "${access}", l3_writeback: 1/8 } }'),
        "workload key 'l3_writeback' of cpu0 is derived by the link")
refused("traffic_wb.yaml", base.replace("    range:", "    mesh: traffic\n    range:"), "writeback_ratio needs mesh: flows")
refused("port0.yaml", base.replace("port_rate: ${port_rate}", "port_rate: 0"), "port_rate: expected requests per mesh cycle")
refused("mesh.yaml", base.replace("    range:", "    mesh: fluid\n    range:"), "mesh: expected flows or traffic")
r = run("simulate", "scenarios/studies/linked/linked.yaml", "-o", os.path.join(tmp, "x"), "-C", "cmn0.flow_mode=per-request")
check(r.returncode == 2 and "link: -C overrides would rebuild the platform without the link's flows" in r.stderr,
      f"-C refused with a linked scenario ({r.stderr})")
# A port rate the mesh cannot carry: at 1 request a cycle, 4/5 of them reads, the two data flits of
# each read return on the RN-F's port: 8/5 flits a cycle on xp_1_0's p0 DAT output (at most 1).
refused("port1.yaml", base.replace("port_rate: ${port_rate}", "port_rate: 1").replace("miss_ratio: 1/10", "miss_ratio: 1"),
        "link: cmn0's flows refuse what the link sends (port_rate 1)", "xp_1_0 transmits 8/5 flits per cycle")
finish()
