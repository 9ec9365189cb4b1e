#!/usr/bin/env python3
"""A Linux boot test (docs/linux.md "The tests"): builds the kit's initramfs around a guest test
script (tests/linux/guest/NAME.sh), boots Debian's kernel on `pmusim linux` with an access log,
and checks numbers from three independent places: what the kernel and perf print on the console,
what the drivers themselves read from our registers (the access log), and the platform's clocks.

  boot_test.py NAME --pmusim P --kit DIR --src tests/linux --work DIR [--cpus N] [--time-limit T]

Exit 0 pass, 1 fail, 77 skipped (the kit cannot be fetched: no network, no arm64 archive).
"""
import argparse
import json
import os
import re
import subprocess
import sys

DSU_HZ = 1_000_000_000   # platforms/arm-linux.yaml clocks.dsu0
CMN_HZ = 1_000_000_000   # clocks.cmn0
CPU_HZ = 2_000_000_000   # clocks.cpu0..3
FS = 10**15


def edges(t_fs, hz):
    """Rising edges of a clock of `hz` in [0, t_fs): the count a counter enabled from time 0 holds."""
    return t_fs * hz // FS


class Run:
    def __init__(self, console, log):
        self.console, self.log = console, log
        self.errors = []

    def check(self, cond, what):
        if not cond:
            self.errors.append(what)
        return cond

    def accesses(self, target=None, op=None):
        return [r for r in self.log if r.get("op") in ("read", "write") and (target is None or r.get("target") == target)
                and (op is None or r["op"] == op)]

    def perf_counts(self):
        """perf stat -x, lines: COUNT,UNIT,EVENT,... -> {EVENT: COUNT}."""
        counts = {}
        for line in self.console.splitlines():
            f = line.split(",")
            if len(f) >= 3 and f[0].strip().isdigit():
                counts[f[2].strip()] = int(f[0])
        return counts


# The DSU PMU's system registers as the access log names them (op0_op1_CRn_CRm_op2), from
# linux-6.1 arch/arm64/include/asm/arm_dsu_pmu.h (sys_reg(3, 0, 15, 5|6, n)).
DSU_REG = {"CLUSTERPMCR_EL1": "S3_0_C15_C5_0", "CLUSTERPMCNTENSET_EL1": "S3_0_C15_C5_1",
           "CLUSTERPMCNTENCLR_EL1": "S3_0_C15_C5_2", "CLUSTERPMOVSCLR_EL1": "S3_0_C15_C5_4",
           "CLUSTERPMSELR_EL1": "S3_0_C15_C5_5", "CLUSTERPMCCNTR_EL1": "S3_0_C15_C6_0",
           "CLUSTERPMXEVTYPER_EL1": "S3_0_C15_C6_1", "CLUSTERPMXEVCNTR_EL1": "S3_0_C15_C6_2"}
DSU_CYCLE_COUNTER = 31      # arm_dsu_pmu.c DSU_PMU_IDX_CYCLE_COUNTER: CNTEN bit 31, 64 bits wide
# CMN-600 register offsets, from linux-6.1 drivers/perf/arm-cmn.c.
CMN_PMU_OFFSET = 0x2000     # a node's PMU registers (CMN_PMU_OFFSET); CMN_PMU_EVENT_SEL at +0
CMN_DT_DTC_CTL = 0x0a00     # DT_EN bit 0: the driver enables each DTC through it (its node base)
CMN_DT_PMCCNTR = CMN_PMU_OFFSET + 0x40
CMN_DT_PMCR = CMN_PMU_OFFSET + 0x100   # PMU_EN bit 0
CMN_BASE, CMN_SIZE = 0x50000000, 64 << 20   # platforms/arm-linux.yaml cmn0: periphbase, 64 MiB


def sysreg_accesses(run, encoding):
    return [r for r in run.log if r.get("encoding") == encoding and r.get("op") in ("read", "write")]


def value(r):
    return int(r["value"], 16)


def driver_deltas(accesses, width):
    """The sum of the deltas the driver computed itself: each read minus the value the counter was
    last written with or read as, modulo its width (arm_dsu_pmu.c dsu_pmu_event_update,
    arm-cmn.c arm_cmn_event_read / the DTC cycle counter)."""
    mask = (1 << width) - 1
    prev, total = None, 0
    for r in accesses:
        if r["op"] == "write":
            prev = value(r)
        elif prev is not None:
            total += (value(r) - prev) & mask
            prev = value(r)
    return total


def driver_windows(accesses):
    """The intervals over which the driver measured each delta: from the access before a read
    (the write that set the counter, or the previous read) to that read."""
    out, prev = [], None
    for r in accesses:
        if r["op"] == "read" and prev is not None:
            out.append((prev, r["time_fs"]))
        prev = r["time_fs"]
    return out


def clip(spans, windows):
    return [(max(a, c), min(b, d)) for a, b in spans for c, d in windows if min(b, d) > max(a, c)]


def intervals(changes):
    """[(on_fs, off_fs)] from time-ordered (time_fs, enabled) pairs."""
    out, since = [], None
    for t, on in changes:
        if on and since is None:
            since = t
        elif not on and since is not None:
            out.append((since, t))
            since = None
    return out


def edges_in(spans, hz, rate=(1, 1)):
    """What a counter of `rate` events per clock edge counts over the spans, independently of the
    model: an event at every (den/num)-th edge counted from time 0, so floor(rate x edges(t)) at t."""
    num, den = rate
    return sum(edges(off, hz) * num // den - edges(on, hz) * num // den for on, off in spans)


def dsu_counting_spans(run, idx):
    """When DSU counter `idx` counts: CLUSTERPMCR_EL1.E (bit 0) and its CLUSTERPMCNTENSET bit both set
    (DSU TRM, as for the Arm PMU: a counter counts when enabled and the PMU is enabled)."""
    ev = sorted(sysreg_accesses(run, DSU_REG["CLUSTERPMCR_EL1"]) + sysreg_accesses(run, DSU_REG["CLUSTERPMCNTENSET_EL1"])
                + sysreg_accesses(run, DSU_REG["CLUSTERPMCNTENCLR_EL1"]), key=lambda r: r["time_fs"])
    e = cnt = False
    changes = []
    for r in ev:
        if r["op"] != "write":
            continue
        if r["encoding"] == DSU_REG["CLUSTERPMCR_EL1"]:
            e = bool(value(r) & 1)
        elif value(r) >> idx & 1:
            cnt = r["encoding"] == DSU_REG["CLUSTERPMCNTENSET_EL1"]
        changes.append((r["time_fs"], e and cnt))
    return intervals(changes)


def dsu_event_counter_accesses(run, event):
    """The driver's accesses to the event counter it programmed with `event` (CLUSTERPMSELR_EL1
    selects the counter that CLUSTERPMXEVTYPER/XEVCNTR_EL1 reach): (counter index, accesses)."""
    sel, idx, out = None, None, []
    for r in sorted(run.log, key=lambda r: r.get("time_fs", 0)):
        enc = r.get("encoding")
        if enc == DSU_REG["CLUSTERPMSELR_EL1"] and r["op"] == "write":
            sel = value(r)
        elif enc == DSU_REG["CLUSTERPMXEVTYPER_EL1"] and r["op"] == "write" and value(r) == event:
            idx = sel
        elif enc == DSU_REG["CLUSTERPMXEVCNTR_EL1"] and sel is not None:
            out.append((sel, r))
    return idx, [r for s, r in out if s == idx]


def check_boot(run, cpus):
    # The AMU is a per-CPU feature: cpu_amu_enable prints "detected CPU%d: Activity Monitors Unit (AMU)"
    # on each CPU that has it (linux-6.1:arch/arm64/kernel/cpufeature.c:1905), behind the "CPU features: " prefix.
    for n in range(cpus):
        run.check(f"CPU features: detected CPU{n}: Activity Monitors Unit (AMU)" in run.console, f"no AMU detected line for CPU{n}")
    m = re.search(r"^pmusim-test: processors (\d+)$", run.console, re.M)
    run.check(m and int(m.group(1)) == cpus, f"/proc/cpuinfo processors {m and m.group(1)}, expected {cpus}")
    check_amu_fie(run, cpus)


def check_entry_el(run, el):
    # The EL every CPU entered the kernel at: hyp_mode_check prints it (linux-6.1:arch/arm64/kernel/smp.c:424,429).
    # Entered at EL2, the hyp stub serves the kernel's HVCs (the one that installs its vectors is
    # the first: the ISS logs EL1 -> EL2), and KVM is off: pmusim linux adds kvm-arm.mode=none
    # (linux-6.1:arch/arm64/kvm/arm.c:2252 prints "KVM disabled from command line").
    run.check(f"CPU: All CPU(s) started at EL{el}" in run.console, f"no 'CPU: All CPU(s) started at EL{el}' line")
    if el == 2:
        run.check("kvm [1]: KVM disabled from command line" in run.console, "KVM was not disabled at EL2")


def check_pmus(run, cpus):
    for pmu, events in (("arm_dsu_0", ["cycles", "bus_access", "l3d_cache"]),
                        ("arm_cmn_0", ["dtc_cycles", "hnf_cache_miss", "hnf_slc_sf_cache_access"])):
        run.check(re.search(rf"^pmusim-test: pmu {pmu}$", run.console, re.M), f"{pmu} not in /sys/bus/event_source/devices")
        for e in events:
            run.check(re.search(rf"^pmusim-test: {pmu} event {e}$", run.console, re.M), f"{pmu}: event {e} not listed")
    # The DSU sees every CPU of the cluster (platforms/arm-linux.yaml dsu0.cpus: cpu0-3), whichever are online.
    m = re.search(r"^pmusim-test: arm_dsu_0 associated_cpus (\S+) cpumask (\S+)$", run.console, re.M)
    if run.check(m, "no associated_cpus line for arm_dsu_0"):
        run.check(m.group(1) == "0-3" and m.group(2) in [str(c) for c in range(cpus)],
                  f"arm_dsu_0 associated_cpus {m.group(1)} cpumask {m.group(2)}: expected 0-3 and an online CPU")


def check_dsu_counts(run, names, seconds):
    counts = run.perf_counts()
    for name in names:
        run.check(name in counts, f"perf printed no {name} count")
    # cycles: the cycle counter (arm_dsu_pmu.c gives event 0x11 CYCLES the dedicated counter, bit 31,
    # 64 bits); bus_cycles (0x1D): a 32-bit event counter, which the model counts on the DSU clock
    # (docs/dsu_clusterpmu.md). Each: perf's count = the sum of the deltas the driver read = the DSU
    # clock's edges while that counter counted within the intervals the driver measured.
    cc = sysreg_accesses(run, DSU_REG["CLUSTERPMCCNTR_EL1"])
    idx, ev = dsu_event_counter_accesses(run, 0x1D)
    for name, n, acc, width in (("arm_dsu_0/cycles/", DSU_CYCLE_COUNTER, cc, 64), ("arm_dsu_0/bus_cycles/", idx, ev, 32)):
        count = counts.get(name)
        if count is None or not run.check(n is not None and acc, f"{name}: the driver programmed no counter"):
            continue
        run.check(driver_deltas(acc, width) == count, f"perf's {count} {name} != the sum of the driver's counter {n} deltas")
        expected = edges_in(clip(dsu_counting_spans(run, n), driver_windows(acc)), DSU_HZ)
        if run.check(count == expected, f"perf's {count} {name} != DSU clock x counting time = {expected}") and \
                driver_deltas(acc, width) == count:
            print(f"boot_test: {name} {count} = the driver's counter deltas = DSU clock x counting time")
        # The guest slept `seconds`: perf's interval holds it.
        run.check(seconds * DSU_HZ <= count <= 2 * seconds * DSU_HZ, f"{count} {name} for a {seconds} s sleep at 1 GHz")


def check_dsu_perf(run, cpus):
    check_dsu_counts(run, ("arm_dsu_0/cycles/", "arm_dsu_0/bus_cycles/"), 0.01)


def cmn_accesses(run, op=None):
    return [r for r in run.log if "address" in r and CMN_BASE <= int(r["address"], 16) < CMN_BASE + CMN_SIZE
            and r.get("op") in ("read", "write") and (op is None or r["op"] == op)]


def check_cmn_perf(run, cpus, seconds=0.01):
    counts = run.perf_counts()
    # The DTC: the node whose DTC_CTL the driver set DT_EN in.
    dtcs = sorted({int(r["address"], 16) - CMN_DT_DTC_CTL for r in cmn_accesses(run, "write")
                   if int(r["address"], 16) & 0x3fff == CMN_DT_DTC_CTL and value(r) & 1})
    if not run.check(len(dtcs) == 1, f"the driver enabled {len(dtcs)} DTCs, expected the one of arm-linux"):
        return
    dtc = dtcs[0]
    at = lambda off: [r for r in cmn_accesses(run) if int(r["address"], 16) == dtc + off]
    pmu_en = intervals([(r["time_fs"], bool(value(r) & 1)) for r in at(CMN_DT_PMCR) if r["op"] == "write"])
    cyc = counts.get("arm_cmn_0/dtc_cycles/")
    if run.check(cyc is not None, "perf printed no arm_cmn_0/dtc_cycles/ count"):
        ccntr = at(CMN_DT_PMCCNTR)
        # por_dt_pmccntr: 40 bits (arm-cmn.c: CMN_DT_PMCCNTR, the cycle counter's width).
        run.check(driver_deltas(ccntr, 40) == cyc, f"perf's {cyc} DTC cycles != the sum of the driver's por_dt_pmccntr deltas")
        expected = edges_in(clip(pmu_en, driver_windows(ccntr)), CMN_HZ)
        if run.check(cyc == expected, f"perf's {cyc} DTC cycles != CMN clock x PMU_EN time = {expected}") and \
                driver_deltas(ccntr, 40) == cyc:
            print(f"boot_test: arm_cmn_0/dtc_cycles/ {cyc} = the driver's por_dt_pmccntr deltas = CMN clock x PMU_EN time")
        run.check(seconds * CMN_HZ <= cyc <= 2 * seconds * CMN_HZ, f"{cyc} DTC cycles for a {seconds} s sleep at 1 GHz")
    # The HN-F events: the traffic of cluster 0's RN-F (CMN_FLOWS below); perf sums the 4 HN-Fs. A
    # node counts while the event is selected (one of the 4 bytes of its CMN_PMU_EVENT_SEL written
    # with the event's sysfs eventid, and CMN__PMU_OCCUP1_ID [34:32] with its occupid) and PMU_EN is
    # set, from the driver's first write of the DTC counters it combines them in (CMN_DT_PMEVCNT(n),
    # DTC + 0x2000..0x203f) to its last read of them.
    evcnt = [r for r in cmn_accesses(run) if CMN_PMU_OFFSET <= int(r["address"], 16) - dtc < CMN_PMU_OFFSET + 0x40]
    window = [(evcnt[0]["time_fs"], evcnt[-1]["time_fs"])] if evcnt else []
    xy = cmn_node_xy(run)
    for name, what in (("hnf_cache_miss", "misses"), ("hnf_qos_pocq_occupancy_all", "POCQ occupancy")):
        count = counts.get(f"arm_cmn_0/{name}/")
        m = re.search(rf"^pmusim-test: {name} (\S+)$", run.console, re.M)
        if not run.check(count is not None and m, f"perf printed no arm_cmn_0/{name}/ count (or its sysfs event)"):
            continue
        eventid = int(re.search(r"eventid=(0x[0-9a-f]+)", m.group(1)).group(1), 16)
        o = re.search(r"occupid=(0x[0-9a-f]+)", m.group(1))   # only occupancy events have one
        occupid = int(o.group(1), 16) if o else 0
        sel = {}
        for r in cmn_accesses(run, "write"):
            ad = int(r["address"], 16)
            if ad & 0x3fff == CMN_PMU_OFFSET and ad - CMN_PMU_OFFSET != dtc:
                v = value(r)
                on = any(v >> (8 * i) & 0xff == eventid for i in range(4)) and v >> 32 & 7 == occupid
                sel.setdefault(ad, []).append((r["time_fs"], on))
        nodes = [ad for ad, ch in sel.items() if any(on for _, on in ch)]
        run.check(len(nodes) == 4, f"{name} selected on {len(nodes)} nodes, arm-linux has 4 HN-Fs")
        expected = 0
        for ad in nodes:
            node = ad - CMN_PMU_OFFSET
            if not run.check(xy.get(node, (None,))[0] == CMN_TYPE_HNF,
                             f"the driver selected {name} in node {node:#x}, whose node_info it did not read as an HN-F"):
                return
            at_edge = hnf_cache_misses if name == "hnf_cache_miss" else hnf_pocq_occupancy
            expected += sum(at_edge(xy[node][1], edges(off, CMN_HZ)) - at_edge(xy[node][1], edges(on, CMN_HZ))
                            for on, off in clip(clip(pmu_en, intervals(sel[ad])), window))
        if run.check(count == expected, f"perf's {count} HN-F {what} != the 4 HN-Fs' flows counted by hand (rate x "
                  f"(CMN clock edges - route offsets)) over the counting time = {expected}"):
            print(f"boot_test: arm_cmn_0/{name}/ {count} = the flows' count by hand")


# Cluster 0's flows on arm-linux's cmn0 (platforms/arm-linux.yaml `flows:`): from the RN-F at XP
# (1,0), ReadNoSnp at rate 1/16 with miss=1/2 to every HN-F, each flow two streams of its own, hits
# and misses at 1/16 x 1/2 = 1/32 each (docs/cmn.md "Flows"); a miss reads memory mem=K (SN-F devices
# and SBSX bridges in XP order: K 0 at (2,0), 2 at (0,2), 3 at (2,2)); its latencies, in mesh cycles
# (platforms/arm-linux.yaml cmn0 params): port_latency 1, hop_latency 2, hnf_latency 8, snf_latency 40.
CMN_RNF0_XP = (1, 0)
CMN_STREAM_PERIOD = 32                 # each stream issues request k at edge 32k
CMN_HNF_MEMORY_XP = {(1, 0): (2, 0), (2, 0): (2, 0), (0, 1): (0, 2), (2, 1): (2, 2)}   # the flows' mem=
CMN_PORT_LATENCY, CMN_HOP_LATENCY, CMN_HNF_LATENCY, CMN_SNF_LATENCY = 1, 2, 8, 40
# Node discovery as Debian's driver reads it (linux-6.1 drivers/perf/arm-cmn.c): node_info at the
# node's base (CMN_NODE_INFO 0x0), type [15:0] (CMN_TYPE_HNF 5), node ID [31:16]; on CMN-600 a node ID
# is device [1:0], port [2] (deviceid_bits 2, portid_bits 1), then Y and X of
# arm_cmn_xyidbits = fls((mesh_x - 1) | (mesh_y - 1)) bits each, Y below X (arm_cmn_node_to_xp).
CMN_TYPE_HNF = 5
CMN_MESH = (3, 3)   # arm-linux's cmn0 mesh_x, mesh_y


def cmn_node_xy(run):
    """{node base address: (node type, (x, y))} from the driver's own reads of node_info."""
    bits = ((CMN_MESH[0] - 1) | (CMN_MESH[1] - 1)).bit_length()
    out = {}
    for r in cmn_accesses(run, "read"):
        a = int(r["address"], 16)
        if a & 0x3fff == 0:
            ni = value(r)
            xpid = (ni >> 16 & 0xffff) >> 3
            out[a] = (ni & 0xffff, (xpid >> bits, xpid & ((1 << bits) - 1)))
    return out


def cmn_flow_offset(src, dst):
    """Mesh cycles from a request's issue edge to its arrival at the home (docs/cmn.md "Traffic",
    Routing, which flows follow, "Flows"): the flit crosses the requester's port at the issue edge,
    its XP transmits it port_latency later, each further XP of the X-then-Y route hop_latency later,
    and it reaches the home port_latency after the last XP transmitted it."""
    hops = abs(dst[0] - src[0]) + abs(dst[1] - src[1])
    return 2 * CMN_PORT_LATENCY + hops * CMN_HOP_LATENCY


def stream_events(e, d):
    """Occurrences by mesh edge e of an event d cycles after each request of a stream (docs/cmn.md
    "Flows": request k issues at edge ceil(k / r) = 32k, so floor((e - d) x r) by edge e)."""
    return max(0, e - d) // CMN_STREAM_PERIOD


def stream_held(e, a, b):
    """Occupancy by edge e of a stream's requests each held from offset a to offset b (docs/cmn.md
    "Flows": F(e - a) - F(e - b), F(x) = sum over 0 <= u < x of floor(u x r)), summed here in closed form."""
    def F(x):
        if x <= 0:
            return 0
        q, rem = divmod(x, CMN_STREAM_PERIOD)
        return CMN_STREAM_PERIOD * q * (q - 1) // 2 + rem * q
    return F(e - a) - F(e - b)


def hnf_cache_misses(hnf, e):
    """cache_miss: at the request's arrival at the HN-F (docs/cmn.md "Traffic"), misses only."""
    return stream_events(e, cmn_flow_offset(CMN_RNF0_XP, hnf))


def hnf_pocq_occupancy(hnf, e):
    """qos_pocq_occupancy (all): +1 per cycle from the request's arrival to its completion (docs/cmn.md
    "Traffic"), the HN-F sending the last CompData flit. A hit answers hnf_latency after the arrival,
    its two CompData flits one cycle apart. A miss sends ReadNoSnp to its memory hnf_latency after
    the arrival; the memory sends two data flits snf_latency after theirs arrives, one cycle apart;
    the HN-F fills the line at the second and sends its two CompData flits from that edge (the
    offsets of tests/sequences/cmn/flows_xp_events.seq, derived by hand: hit (6,15], miss (6,64])."""
    arrive = cmn_flow_offset(CMN_RNF0_XP, hnf)
    mem = cmn_flow_offset(hnf, CMN_HNF_MEMORY_XP[hnf])
    hit_done = arrive + CMN_HNF_LATENCY + 1
    fill = arrive + CMN_HNF_LATENCY + mem + CMN_SNF_LATENCY + mem + 1
    miss_done = fill + 1
    return stream_held(e, arrive, hit_done) + stream_held(e, arrive, miss_done)


def check_overflow(run, cpus):
    m = re.search(r"^pmusim-test: dsu irqs (\d+)$", run.console, re.M)
    run.check(m and int(m.group(1)) >= 1, "the DSU overflow interrupt was not counted in /proc/interrupts")
    clears = [r for r in sysreg_accesses(run, DSU_REG["CLUSTERPMOVSCLR_EL1"]) if r["op"] == "write" and value(r)]
    run.check(clears, "the driver never cleared an overflow flag (dsu_pmu_handle_irq)")
    edges_high = [r for r in run.log if r.get("op") == "irq" and r.get("level") == "high"]
    run.check(edges_high, "no interrupt edge in the log")
    # Across the overflow the count stays exact: the handler's re-arming write is one more window.
    check_dsu_counts(run, ("arm_dsu_0/bus_cycles/",), 2.5)


CONST_HZ = 100_000_000   # platforms/arm-linux.yaml clocks.const: the AMU's constant counter
AMEVCNTR00_EL0 = "S3_3_C13_C4_0"   # core cycles; Arm ARM D17.6, linux-6.1 sysreg.h SYS_AMEVCNTR0_EL0(0)
AMEVCNTR01_EL0 = "S3_3_C13_C4_1"   # constant-frequency cycles, SYS_AMEVCNTR0_EL0(1)


def check_amu(run, cpus):
    # The kernel reads both architected AMU counters when it enables the AMU on a CPU
    # (linux-6.1 arch/arm64/kernel/cpufeature.c cpu_amu_enable -> update_freq_counters_refs). On one
    # CPU that is before the CPU ever idles: the core counter then holds the CPU clock's edges since
    # reset, the constant counter the const clock's (AMUv1p1 from reset, no offsets). With more CPUs
    # the boot CPU has waited in WFI for the others (the model stops both counters there, measured
    # 28.5 us): each counter is then at most its clock's edges, and both paused for the same time
    # (within one const tick of 10 ns: 20 CPU cycles).
    first = {}
    for enc, hz, name in ((AMEVCNTR00_EL0, CPU_HZ, "AMEVCNTR00_EL0"), (AMEVCNTR01_EL0, CONST_HZ, "AMEVCNTR01_EL0")):
        reads = [r for r in sysreg_accesses(run, enc) if r["op"] == "read"]
        if not run.check(reads, f"the kernel never read {name}"):
            return
        r = first[name] = reads[0]
        clock = edges(r["time_fs"], hz)
        if cpus == 1:
            run.check(value(r) == clock, f"{name} read {value(r)} at {r['time_fs']} fs, expected the clock's {clock} edges")
        else:
            run.check(0 < value(r) <= clock, f"{name} read {value(r)} at {r['time_fs']} fs, more than the clock's {clock} edges")
    if cpus != 1:
        # Time each counter did not count, in its own clock's edges (each from its read's instant).
        core, const = first["AMEVCNTR00_EL0"], first["AMEVCNTR01_EL0"]
        core_paused = edges(core["time_fs"], CPU_HZ) - value(core)
        const_paused = edges(const["time_fs"], CONST_HZ) - value(const)
        ratio = CPU_HZ // CONST_HZ
        run.check(abs(core_paused - ratio * const_paused) <= ratio,
                  f"the core counter paused {core_paused} CPU cycles, the constant counter {const_paused} ticks of 10 ns: not the same time")


def amu_reads_by_cpu(run):
    """{cpu: [(core read, const read)]}: the kernel reads AMEVCNTR00_EL0 then AMEVCNTR01_EL0
    (linux-6.1 arch/arm64/kernel/topology.c update_freq_counters_refs), on the CPU it runs on."""
    out = {}
    pending = {}
    for r in run.log:
        if r.get("op") != "read" or r.get("encoding") not in (AMEVCNTR00_EL0, AMEVCNTR01_EL0):
            continue
        cpu = int(re.match(r"cpu(\d+) ", r["context"]).group(1))
        if r["encoding"] == AMEVCNTR00_EL0:
            pending[cpu] = r
        elif cpu in pending:
            out.setdefault(cpu, []).append((pending.pop(cpu), r))
    return out


def check_amu_fie(run, cpus):
    """The AMU's frequency invariance in Debian's kernel: with cpufreq-dt's policy on each CPU (the
    device tree's clocks and OPP tables), linux-6.1 arch/arm64/kernel/topology.c amu_fie_setup
    makes amu_scale_freq_tick read AMEVCNTR0<0,1> at every scheduler tick. Between two ticks on a
    CPU that never waited (the guest's busy loop), each counter advanced by exactly its clock's edges
    (CPU 2 GHz, const 100 MHz); in any interval by no more (the model stops both in WFI), and by
    something (the kernel ignores a tick whose counters did not advance)."""
    check_amu(run, cpus)
    policies = re.findall(r"^pmusim-test: cpufreq policy(\d+) (\S+) (\d+) kHz cpus (.*)$", run.console, re.M)
    run.check(len(policies) == cpus, f"{len(policies)} cpufreq policies, expected one per CPU ({cpus}): {policies}")
    for n, driver, khz, related in policies:
        run.check(driver == "cpufreq-dt" and int(khz) * 1000 == CPU_HZ and related.split() == [n],
                  f"policy{n}: {driver} {khz} kHz cpus {related}, expected cpufreq-dt {CPU_HZ // 1000} kHz cpus {n}")
    # arch_max_freq_scale (freq_inv_set_max_ratio): const rate << 20 / max rate.
    max_ratio = (CONST_HZ << 20) // CPU_HZ
    exact = 0
    for cpu, pairs in sorted(amu_reads_by_cpu(run).items()):
        ticks = pairs[1:]  # pairs[0]: cpu_amu_enable's read (check_amu)
        if not run.check(len(ticks) >= 3, f"cpu{cpu}: {len(ticks)} scheduler-tick reads of the AMU, expected 3 or more"):
            continue
        for (c0, k0), (c1, k1) in zip(ticks, ticks[1:]):
            dcore, dconst = value(c1) - value(c0), value(k1) - value(k0)
            ecore = edges(c1["time_fs"], CPU_HZ) - edges(c0["time_fs"], CPU_HZ)
            econst = edges(k1["time_fs"], CONST_HZ) - edges(k0["time_fs"], CONST_HZ)
            run.check(0 < dcore <= ecore and 0 < dconst <= econst,
                      f"cpu{cpu} ticks at {c0['time_fs']}..{c1['time_fs']} fs: core +{dcore} (clock {ecore}), const +{dconst} (clock {econst})")
            if dcore == ecore and dconst == econst:
                exact += 1
                # The kernel's frequency scale for that tick (amu_scale_freq_tick): the full frequency.
                scale = min(1024, ((dcore * max_ratio) >> 10) // dconst)
                run.check(scale >= 1023, f"cpu{cpu}: the kernel's scale {scale}/1024 for a busy tick")
    run.check(exact >= 2, f"{exact} tick intervals where the AMU advanced by exactly the clocks' edges, expected 2 or more (the busy loop)")
    print(f"boot_test: {exact} busy tick intervals with AMU deltas = CPU and const clock edges")


def check_perf(run, cpus):
    check_pmus(run, cpus)
    check_dsu_counts(run, ("arm_dsu_0/cycles/", "arm_dsu_0/bus_cycles/"), 0.002)
    check_cmn_perf(run, cpus, 0.002)


CHECKS = {"perf": check_perf, "boot": check_boot, "pmus": check_pmus, "dsu_perf": check_dsu_perf, "cmn_perf": check_cmn_perf,
          "overflow": check_overflow, "amu": check_amu_fie}


# Guest scripts a test's script is followed by: the boot test also checks the AMU's frequency invariance.
GUEST_ALSO = {"boot": ["amu"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name", choices=sorted(CHECKS))
    ap.add_argument("--pmusim", required=True)
    ap.add_argument("--kit", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cpus", type=int, default=4)
    ap.add_argument("--time-limit", default="20s")
    ap.add_argument("-C", dest="overrides", action="append", default=[], help="a platform override for pmusim (K=V)")
    ap.add_argument("--el", type=int, choices=(1, 2), default=1, help="the EL the kernel starts at (pmusim linux --el)")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    cpio = os.path.join(a.work, a.name + ".cpio")
    # The guest script: guest/NAME.sh, then those its checks also need (one boot checks both).
    script = os.path.join(a.work, a.name + ".sh")
    with open(script, "w") as out:
        for part in [a.name] + GUEST_ALSO.get(a.name, []):
            with open(os.path.join(a.src, "guest", part + ".sh")) as f:
                out.write(f.read())
    kit = subprocess.run([os.path.join(a.src, "..", "..", "scripts", "linux-kit.sh"), a.kit, "--script",
                          script, "--initrd-out", cpio],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if kit.returncode != 0:
        print(kit.stdout)
        print("boot_test: skipped: the Linux kit cannot be fetched", file=sys.stderr)
        return 77
    log = os.path.join(a.work, a.name + ".jsonl")
    cmd = [a.pmusim, "linux", "--kernel", os.path.join(a.kit, "Image"), "--initrd", cpio, "--log-json", log,
           "--time-limit", a.time_limit]
    if a.cpus != 4:
        cmd += ["--append", f"maxcpus={a.cpus}"]
    for o in a.overrides:
        cmd += ["-C", o]
    if a.el != 1:
        cmd += ["--el", str(a.el)]
    # The console (the PL011's output) is pmusim's stdout; its own log lines go to stderr, kept apart:
    # mixed, a log line lands inside a console line that the guest writes in pieces (perf stat's
    # CSV fields are separate writes to stderr).
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
    with open(os.path.join(a.work, a.name + ".console"), "w") as f:
        f.write(r.stdout)
    with open(os.path.join(a.work, a.name + ".stderr"), "w") as f:
        f.write(r.stderr)
    records = []
    if os.path.exists(log):
        with open(log) as f:
            records = [json.loads(line) for line in f if line.strip()]
    run = Run(r.stdout, records)
    run.check(r.returncode == 0, f"pmusim linux exited {r.returncode} (0: PSCI SYSTEM_OFF)")
    run.check("pmusim-init: test exit 0" in r.stdout, "the guest test script did not exit 0")
    CHECKS[a.name](run, a.cpus)
    check_entry_el(run, a.el)
    if run.errors:
        print(r.stdout[-6000:])
        print(r.stderr[-3000:])
        print("\n".join("boot_test: " + e for e in run.errors), file=sys.stderr)
        return 1
    print(f"boot_test: {a.name} passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
