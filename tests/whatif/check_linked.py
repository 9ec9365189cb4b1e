#!/usr/bin/env python3
"""The linked system model with per-request mesh traffic (`mesh: traffic`; docs/whatif.md "Linked
system model", tb/system_link.h; check_linked_flows.py checks the default, flows): a change of the
cluster's L3 miss ratio moves the DSU's refills and bus accesses and the CMN-600's HN-F requests by
the documented amounts, worked out by hand from scenarios/studies/linked/linked.yaml:
  cpu0..cpu3 at 2 GHz for 0.5 ms = 1,000,000 cycles each, l3_access_rd 1/10: 100,000 L3 accesses
  each, 400,000 in all (L3D_CACHE). Refills = accesses x miss ratio: 40,000 at 1/10, 80,000 at 1/5
  (L3D_CACHE_REFILL, and BUS_ACCESS: one bus read per refill). The cluster's CMN port rate
  R = 4 x (1/10 x ratio) x 2 GHz / 1 GHz (mesh) = 0.8 x ratio per mesh cycle = 2/25 at 1/10:
  floor(500,000 x 2/25) = 40,000 requests by the 0.5 ms edge, when the generator stops (the
  workload has no L3 accesses any more); all arrive at HN-Fs by 1 ms.
Usage: check_linked.py PMUSIM (run from the source tree).
"""
import json
import os
import tempfile

from checklib import check, finish, run

tmp = tempfile.mkdtemp(prefix="pmusim-linked-")
# linked.yaml with mesh: traffic (refills only: no write-backs)
TRAFFIC = os.path.join(tmp, "linked-traffic.yaml")
open(TRAFFIC, "w").write(open("scenarios/studies/linked/linked.yaml").read()
                         .replace("    writeback_ratio: ${writeback}\n", "    mesh: traffic\n"))


def simulate(name, *args):
    out = os.path.join(tmp, name)
    r = run("simulate", TRAFFIC, "-o", out, *args)
    check(r.returncode == 0, f"linked {args} simulates ({r.stderr.strip()[-400:]})")
    if r.returncode:
        return {}
    st = json.load(open(os.path.join(out, "stats.json")))
    return {(e["instance"], e["event"]): e["count"] for e in st["events"]}


def hnf_total(ev, event):
    return sum(c for (i, e), c in ev.items() if i.startswith("cmn0.hnf") and e == event)


for ratio, refills in (("1/10", 40_000), ("1/5", 80_000), ("1/40", 10_000)):
    ev = simulate(ratio.replace("/", "_"), "--set", f"miss_ratio={ratio}")
    if not ev:
        continue
    check(ev[("dsu0", "l3d_cache")] == 400_000, f"{ratio}: L3D_CACHE 400,000 ({ev[('dsu0', 'l3d_cache')]})")
    check(ev[("dsu0", "l3d_cache_refill")] == refills, f"{ratio}: L3D_CACHE_REFILL {refills} ({ev[('dsu0', 'l3d_cache_refill')]})")
    check(ev[("dsu0", "bus_access")] == refills and ev[("dsu0", "bus_access_rd")] == refills,
          f"{ratio}: BUS_ACCESS = BUS_ACCESS_RD = refills ({ev[('dsu0', 'bus_access')]})")
    req = hnf_total(ev, "hnf_pocq_reqs_recvd")
    check(req == refills, f"{ratio}: the HN-Fs receive one request per refill: {refills} ({req})")
    check(hnf_total(ev, "hnf_slc_sf_cache_access") == refills, f"{ratio}: every request looks up an SLC")
    misses, mc = hnf_total(ev, "hnf_cache_miss"), hnf_total(ev, "hnf_mc_reqs")
    check(0 < misses <= refills and mc == misses, f"{ratio}: SLC misses go to memory ({misses} misses, {mc} mc reqs)")
    occ = hnf_total(ev, "hnf_qos_pocq_occupancy_all")
    check(occ >= refills, f"{ratio}: POCQ occupancy at least a cycle per request ({occ})")
    check(sum(1 for (i, e), c in ev.items() if i.startswith("cmn0.hnf") and e == "hnf_pocq_reqs_recvd" and c) > 1,
          f"{ratio}: the address hash spreads the requests over several HN-Fs")

# Bad input at its line, exit 2.
def scenario(name, text):
    p = os.path.join(tmp, name)
    open(p, "w").write(text)
    return p


base = open(TRAFFIC).read()
p = scenario("derived.yaml", base.replace('{ at: 0, cpu: cpu0, rates: { inst: 1, l3_access_rd: "${access}" } }',
                                          '{ at: 0, cpu: cpu0, rates: { inst: 1, l3_refill_rd: 1/2 } }'))
r = run("simulate", p, "-o", os.path.join(tmp, "x"))
check(r.returncode == 2 and "workload key 'l3_refill_rd' of cpu0 is derived by the link" in r.stderr and f"{p}:" in r.stderr,
      f"a derived key set by hand is refused ({r.stderr})")
r = run("simulate", TRAFFIC, "-o", os.path.join(tmp, "x"), "--set", "access=2", "--set", "miss_ratio=1")
check(r.returncode == 2 and "more than the 1 the port takes" in r.stderr, f"a demand beyond the port refused ({r.stderr})")
p = scenario("notdsu.yaml", base.replace("dsu: dsu0", "dsu: cmn0"))
r = run("simulate", p, "-o", os.path.join(tmp, "x"))
check(r.returncode == 2 and "link[0].dsu: expected a dsu_clusterpmu instance" in r.stderr, f"not a DSU ({r.stderr})")
finish()
