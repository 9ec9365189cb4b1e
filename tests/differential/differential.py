#!/usr/bin/env python3
"""Differential tests: the fast (lazy) mode against the per-cycle reference mode.

For each seed, a random scenario for one unit is written as a sequence file and run
twice, `pmusim run FILE` and `pmusim run --reference FILE`, each with its own JSON log
(one SystemC kernel per process). Every register access must give the same outcome and
value at the same instant, every interrupt edge must happen at the same instant, and the
exit codes must agree. The first divergence is printed with the seed, the statement, the
instant (and the accessing CPU's cycle), the register and both values.

Usage (docs/reference-mode.md):
  differential.py PMUSIM --unit amu|dsu|cmn|cspmu --seeds 1,2,3 [--steps N] [--keep DIR]
  differential.py PMUSIM --unit dsu --first 100 --count 500      # more seeds
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# --------------------------------------------------------------------------- scenarios


def pick_rate(rng):
    return rng.choice(["0", "1", "1/2", "3/2", "2/3", "1/7", "5/3", "7", "0.25", "9/10"])


def near_wrap(rng, width):
    top = (1 << width) - 1
    return top - rng.choice([0, 1, 2, rng.randrange(3, 64), rng.randrange(64, 5000), rng.randrange(5000, 200000)])


def run_statement(rng, clocks):
    r = rng.random()
    if r < 0.15:
        return f"run {rng.choice([0, 1, 2, 3])} cycles of {rng.choice(clocks)}"
    if r < 0.75:
        return f"run {rng.randrange(1, 400)} cycles of {rng.choice(clocks)}"
    if r < 0.95:
        return f"run {rng.randrange(400, 6000)} cycles of {rng.choice(clocks)}"
    return f"run {rng.randrange(1, 3000)}ps"


def freq_statement(rng, clock):
    return f"freq {clock} {rng.choice(['0.5GHz', '1GHz', '1.2GHz', '2.3GHz', '3GHz', '777.777777MHz', '2.000000001GHz', '1.414213562GHz'])}"


def amu_scenario(rng, steps):
    # amu-diff.yaml: cpu0 AMUv1p1 with 2 aux counters, cpu1 AMUv1 with 1, cpu2 AMUv1p1 with 0.
    aux = {0: 2, 1: 1, 2: 0}
    clocks = ["cpu0", "cpu1", "cpu2", "const"]
    out = ["platform " + os.path.join(HERE, "amu-diff.yaml")]
    for _ in range(steps):
        cpu = rng.randrange(3)
        r = rng.random()
        if r < 0.30:
            out.append(run_statement(rng, clocks))
        elif r < 0.45:
            el = rng.choice(["el3", "el3", "el1", "el2"])
            out.append(f"as cpu{cpu} {el}")
            reg = rng.choice([f"AMEVCNTR0{rng.randrange(4)}_EL0"] * 3 +
                             ([f"AMEVCNTR1{rng.randrange(aux[cpu])}_EL0"] if aux[cpu] else []) + ["AMCNTENSET0_EL0"])
            out.append(f"print {reg}")
        elif r < 0.55:
            out.append(f"workload cpu{cpu} inst={pick_rate(rng)} mem_stall={pick_rate(rng)}")
        elif r < 0.60:
            out.append(freq_statement(rng, f"cpu{cpu}"))
        elif r < 0.62:
            out.append(freq_statement(rng, "const"))
        elif r < 0.69:
            out.append(f"power cpu{cpu} {rng.choice(['run', 'run', 'wfi', 'wfe', 'off'])}")
        elif r < 0.72:
            out.append(f"security cpu{cpu} {rng.choice(['secure', 'nonsecure'])}")
        elif r < 0.82:
            out.append(f"as cpu{cpu} el3")
            group = 1 if aux[cpu] and rng.random() < 0.3 else 0
            mask = rng.randrange(16) if group == 0 else rng.randrange(1 << aux[cpu])
            out.append(f"write AMCNTEN{rng.choice(['SET', 'CLR'])}{group}_EL0 {mask:#x}")
        elif r < 0.90:
            out.append(f"as cpu{cpu} el3")
            if aux[cpu] and rng.random() < 0.3:
                out.append(f"write AMEVCNTR1{rng.randrange(aux[cpu])}_EL0 {near_wrap(rng, 64):#x}")
            else:
                out.append(f"write AMEVCNTR0{rng.randrange(4)}_EL0 {near_wrap(rng, 64):#x}")
        elif r < 0.97:
            if aux[cpu]:
                over = rng.choice(["", f" over {rng.randrange(1, 5000)}ps", f" over {rng.randrange(1, 200)}ns"])
                out.append(f"inject amu.cpu{cpu} aux{rng.randrange(aux[cpu])} {rng.choice([1, 3, 1000, 12345])}{over}")
        else:
            out.append(f"reset {rng.choice(['warm', 'cold'])}")
    return out


DSU = {  # dsu-diff.yaml: cluster -> (cpus, counters, counter width, has cycle counter)
    0: ([0, 1], 4, 32, True),
    1: ([2, 3], 6, 64, True),
    2: ([4, 5], 6, 64, False),
}
DSU_EVENTS = [0x11, 0x11, 0x1D, 0x19, 0x2A, 0x2B, 0x2B, 0x60, 0xA0, 0xA1, 0x29, 0x1A, 0x05]
DSU_KEYS = ["l3_access_rd", "l3_access_wr", "l3_refill_rd", "bus_access_rd", "bus_access_wr", "l3_allocate"]


def dsu_scenario(rng, steps):
    clocks = [f"cpu{i}" for i in range(6)] + ["dsu0", "dsu1", "dsu2"]
    out = ["platform " + os.path.join(HERE, "dsu-diff.yaml")]
    for k, (cpus, counters, width, has_cc) in DSU.items():  # every cluster counting, interrupts on
        out.append(f"as cpu{cpus[0]} el1")
        for n in range(counters):
            out += [f"write CLUSTERPMSELR_EL1 {n}", f"write CLUSTERPMXEVTYPER_EL1 {rng.choice(DSU_EVENTS):#x}",
                    f"write CLUSTERPMXEVCNTR_EL1 {near_wrap(rng, width):#x}"]
        everything = (1 << counters) - 1 | ((1 << 31) if has_cc else 0)
        out += [f"write CLUSTERPMCNTENSET_EL1 {everything:#x}", f"write CLUSTERPMINTENSET_EL1 {everything:#x}",
                "write CLUSTERPMCR_EL1 1"]
        out.append(f"workload cpu{cpus[1]} " + " ".join(f"{key}={pick_rate(rng)}" for key in DSU_KEYS))
    for _ in range(steps):
        k = rng.randrange(3)
        cpus, counters, width, has_cc = DSU[k]
        cpu = rng.choice(cpus)
        n = rng.randrange(counters)
        r = rng.random()
        as_el1 = f"as cpu{cpu} el1"
        if r < 0.26:
            out.append(run_statement(rng, clocks))
        elif r < 0.40:
            out.append(as_el1)
            what = rng.random()
            if what < 0.4:
                out += [f"write CLUSTERPMSELR_EL1 {n}", "print CLUSTERPMXEVCNTR_EL1"]
            elif what < 0.6:
                out.append("print CLUSTERPMOVSSET_EL1")
            elif what < 0.75 and has_cc:
                out.append("print CLUSTERPMCCNTR_EL1")
            else:
                out += ["as debug", f"print dsu{k}.PMEVCNTR{n}"]
        elif r < 0.47:
            out += [as_el1, f"write CLUSTERPMSELR_EL1 {n}",
                    f"write CLUSTERPMXEVTYPER_EL1 {rng.choice(DSU_EVENTS) | rng.choice([0, 0, 1 << 31, 1 << 29, 0xA0000000]):#x}"]
        elif r < 0.55:
            out += [as_el1, f"write CLUSTERPMSELR_EL1 {n}", f"write CLUSTERPMXEVCNTR_EL1 {near_wrap(rng, width):#x}"]
        elif r < 0.58 and has_cc:
            out += [as_el1, f"write CLUSTERPMCCNTR_EL1 {near_wrap(rng, 64 if rng.random() < 0.5 else 40):#x}"]
        elif r < 0.66:
            mask = rng.randrange(1 << counters) | (rng.choice([0, 1 << 31]) if has_cc else 0)
            reg = rng.choice(["CLUSTERPMCNTENSET_EL1", "CLUSTERPMCNTENCLR_EL1", "CLUSTERPMINTENSET_EL1",
                              "CLUSTERPMINTENCLR_EL1", "CLUSTERPMOVSCLR_EL1", "CLUSTERPMOVSCLR_EL1",
                              "CLUSTERPMOVSSET_EL1"])
            out += [as_el1, f"write {reg} {mask:#x}"]
        elif r < 0.70:
            pmcr = rng.choice([1, 1, 0, 1 | 0x200, 0x200, 1 | 0x10, 1 | 2, 1 | 4, 6])  # E, P, C, X, FZO
            if k != 2:
                pmcr &= ~0x200
            if k != 1:
                pmcr &= ~0x10
            out += [as_el1, f"write CLUSTERPMCR_EL1 {pmcr:#x}"]
        elif r < 0.74:
            out.append(f"workload cpu{cpu} " + " ".join(f"{key}={pick_rate(rng)}" for key in rng.sample(DSU_KEYS, 3)))
        elif r < 0.78:
            out.append(freq_statement(rng, rng.choice([f"dsu{k}", f"cpu{cpu}"])))
        elif r < 0.82:
            out.append(f"power cpu{cpu} {rng.choice(['run', 'run', 'run', 'wfi', 'off'])}")
        elif r < 0.85:
            out.append(f"security cpu{cpu} {rng.choice(['secure', 'nonsecure'])}")
        elif r < 0.87:
            out += [f"as cpu{cpu} el3", f"write CLUSTERPMMDCR_EL3 {rng.randrange(2)}"]
        elif r < 0.91:
            out += ["as debug", f"write dsu{k}.PMSSRR {rng.randrange(1 << counters):#x}", f"write dsu{k}.PMSSCR 1",
                    f"print dsu{k}.PMEVCNTSR{n}", f"print dsu{k}.PMOVSSR"]
        elif r < 0.96:
            event = rng.choice(["l3d_cache", "l3d_cache_rd", "bus_access", "bus_access_wr", "memory_error"])
            over = rng.choice(["", "", f" over {rng.randrange(1, 3000)}ps", f" over {rng.randrange(1, 100)}ns"])
            out.append(f"inject dsu{k} {event} {rng.choice([1, 2, 17, 1000, 65536])}{over}")
        else:
            out.append(f"wait irq dsu{k}_pmu_irq {rng.choice(['high', 'low'])} timeout {rng.randrange(1, 2000)}ns")
    return out


# cmn-diff.yaml: 3x2 mesh, default layout. XP (X,Y) is xp_X_Y; HN-Fs on port 1 of every XP but
# (0,0) and (2,1); the RN-I at (2,1) port 0; the HN-D's DN and HN-I at (0,0) port 0.
CMN_XPS = [f"xp_{x}_{y}" for y in range(2) for x in range(3)]
CMN_INPUTS = [0, 1, 2, 3, 4, 5, 6, 7, 0x10, 0x11, 0x12, 0x13, 0x20, 0x21, 0x22, 0x23, 0x3F]
CMN_HNF_EVENTS = [0x01, 0x02, 0x03, 0x05, 0x06, 0x0A, 0x0D, 0x0F, 0x0F, 0x0F]
CMN_RNI_EVENTS = [0x04, 0x05, 0x06]


def cmn_xp_event(rng):
    # [1:0] txflit_valid or txflit_stall, [4:2] interface E W N S P0 P1, [7:5] channel REQ RSP DAT
    return rng.choice([1, 1, 2]) | rng.randrange(6) << 2 | rng.choice([0, 1, 3]) << 5


def cmn_pmu_config(rng):
    cfg = 1 if rng.random() < 0.9 else 0                              # pmu_en
    cfg |= (2 if rng.random() < 0.2 else 0) | (4 if rng.random() < 0.2 else 0)  # 01/23_combined
    cfg |= rng.randrange(16) << 4                                     # pmevcnt_paired
    for n in range(4):
        cfg |= rng.randrange(8) << (16 + 4 * n) | rng.choice(CMN_INPUTS) << (32 + 8 * n)
    return cfg


def cmn_local_values(rng):
    # Four 16-bit local counters, each near its wrap (or, combined, a 32-bit near its wrap).
    v = 0
    for n in range(4):
        v |= ((1 << 16) - 1 - rng.choice([0, 1, 2, rng.randrange(3, 64), rng.randrange(64, 3000)])) << (16 * n)
    if rng.random() < 0.3:
        v = (v & ~0xFFFFFFFF) | near_wrap(rng, 32) if rng.random() < 0.5 else v
    return v


def cmn_setup(rng):
    out = ["as cpu0 el1"]
    for xp in CMN_XPS:
        out.append(f"write cmn0.{xp}.pmu_event_sel {sum(cmn_xp_event(rng) << (8 * k) for k in range(4)):#x}")
        for wp in range(4):
            cfg = rng.randrange(2) | rng.choice([0, 1, 3]) << 1 | (1 << 4 if rng.random() < 0.2 else 0)
            cfg |= (1 << 5 if rng.random() < 0.1 else 0) | (1 << 6 if wp % 2 == 0 and rng.random() < 0.2 else 0)
            mask = rng.choice([0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF, 0xFFFFFFE07FFFFFFF, 0xFFFFFFFFFFFF800F])
            out += [f"write cmn0.{xp}.por_dtm_wp{wp}_config {cfg:#x}",
                    f"write cmn0.{xp}.por_dtm_wp{wp}_val {rng.choice([0, 0x200000000, 0x8000000000]):#x}",
                    f"write cmn0.{xp}.por_dtm_wp{wp}_mask {mask:#x}"]
        out += [f"write cmn0.{xp}.por_dtm_pmu_config {cmn_pmu_config(rng):#x}",
                f"write cmn0.{xp}.por_dtm_pmevcnt {cmn_local_values(rng):#x}"]
    for h in range(4):
        sel = sum(rng.choice(CMN_HNF_EVENTS) << (8 * k) for k in range(4)) | rng.randrange(3) << 32
        out.append(f"write cmn0.hnf{h}.pmu_event_sel {sel:#x}")
    out.append(f"write cmn0.rni0.pmu_event_sel {sum(rng.choice(CMN_RNI_EVENTS) << (8 * k) for k in range(4)):#x}")
    for pair in ["ab", "cd", "ef", "gh"]:
        out.append(f"write cmn0.dtc0.por_dt_pmevcnt{pair} {near_wrap(rng, 32) << 32 | near_wrap(rng, 32):#x}")
    out += [f"write cmn0.dtc0.por_dt_pmccntr {near_wrap(rng, 40):#x}", "write cmn0.dtc0.por_dt_dtc_ctl 1",
            "write cmn0.dtc0.por_dt_pmcr 0x41"]
    return out


def cmn_scenario(rng, steps):
    out = ["platform " + os.path.join(HERE, "cmn-diff.yaml")] + cmn_setup(rng)
    clocks = ["cmn0", "cmn0", "cmn0", "cpu0"]
    for _ in range(steps):
        xp = rng.choice(CMN_XPS)
        r = rng.random()
        if r < 0.30:
            out.append(run_statement(rng, clocks))
        elif r < 0.48:
            reg = rng.choice([f"{xp}.por_dtm_pmevcnt"] * 4 + [f"{xp}.por_dtm_pmevcntsr", "dtc0.por_dt_pmccntr",
                             "dtc0.por_dt_pmovsr", "dtc0.por_dt_pmssr", "dtc0.por_dt_pmccntrsr"] +
                             [f"dtc0.por_dt_pmevcnt{p}" for p in ["ab", "cd", "ef", "gh"]] +
                             [f"dtc0.por_dt_pmevcntsr{p}" for p in ["ab", "cd", "ef", "gh"]])
            out += ["as cpu0 el1", f"print cmn0.{reg}"]
        elif r < 0.55:
            out += ["as cpu0 el1", f"write cmn0.{xp}.por_dtm_pmevcnt {cmn_local_values(rng):#x}"]
        elif r < 0.59:
            pair = rng.choice(["ab", "cd", "ef", "gh"])
            out += ["as cpu0 el1", f"write cmn0.dtc0.por_dt_pmevcnt{pair} {near_wrap(rng, 32) << 32 | near_wrap(rng, 32):#x}"]
        elif r < 0.62:
            out += ["as cpu0 el1", f"write cmn0.dtc0.por_dt_pmccntr {near_wrap(rng, 40):#x}"]
        elif r < 0.67:
            out += ["as cpu0 el1", f"write cmn0.{xp}.por_dtm_pmu_config {cmn_pmu_config(rng):#x}"]
        elif r < 0.71:
            pmcr = rng.choice([0x41, 0x41, 0x41, 0x40, 0x1, 0x0, 0x61])  # pmu_en, cntr_rst, ovfl_intr_en
            out += ["as cpu0 el1", f"write cmn0.dtc0.por_dt_pmcr {pmcr:#x}"]
        elif r < 0.73:
            out += ["as cpu0 el1", f"write cmn0.dtc0.por_dt_dtc_ctl {rng.choice([1, 1, 0])}"]
        elif r < 0.77:
            out += ["as cpu0 el1", f"write cmn0.dtc0.por_dt_pmovsr_clr {rng.randrange(0x200):#x}"]
        elif r < 0.81:
            out += ["as cpu0 el1", "write cmn0.dtc0.por_dt_pmsrr 1", "print cmn0.dtc0.por_dt_pmssr",
                    f"print cmn0.{xp}.por_dtm_pmevcntsr", f"print cmn0.dtc0.por_dt_pmevcntsr{rng.choice(['ab', 'cd', 'ef', 'gh'])}",
                    "print cmn0.dtc0.por_dt_pmccntrsr"]
        elif r < 0.84:
            if rng.random() < 0.5:
                out += ["as cpu0 el1", f"write cmn0.{xp}.pmu_event_sel {sum(cmn_xp_event(rng) << (8 * k) for k in range(4)):#x}"]
            else:
                sel = sum(rng.choice(CMN_HNF_EVENTS) << (8 * k) for k in range(4)) | rng.randrange(3) << 32
                out += ["as cpu0 el1", f"write cmn0.hnf{rng.randrange(4)}.pmu_event_sel {sel:#x}"]
        elif r < 0.88:
            out.append(f"freq cmn0 {rng.choice(['0.5GHz', '1GHz', '1.234567891GHz', '2GHz', '777.777777MHz', '1.414213562GHz'])}")
        elif r < 0.94:
            over = rng.choice(["", "", f" over {rng.randrange(1, 3000)}ps", f" over {rng.randrange(1, 200)}ns"])
            what = rng.choice([f"{xp} wp{rng.randrange(4)}", f"{xp} mxp_p1_dat_txflit_valid", f"{xp} 0x4a",
                               f"hnf{rng.randrange(4)} hnf_cache_miss", f"hnf{rng.randrange(4)} hnf_slc_sf_cache_access",
                               "rni0 rnid_txdat_flits"])
            out.append(f"inject cmn0.{what} {rng.choice([1, 2, 17, 1000, 65536])}{over}")
        elif r < 0.985:
            out.append(f"wait irq cmn0_pmu_irq {rng.choice(['high', 'low'])} timeout {rng.randrange(1, 3000)}ns")
        else:
            out.append(f"reset {rng.choice(['warm', 'cold'])}")
            out += cmn_setup(rng)
    return out


CSPMU = {  # cspmu-diff.yaml: unit -> (cpus, counters, counter width, has cycle counter)
    0: ([0, 1], 6, 48, True),
    1: ([1, 2], 4, 32, False),
}
CSPMU_EVENTS = [0x1, 0x2, 0x3, 0x3, 0x4, 0x5, 0x7]  # 0x7: no such event, counts nothing


def cspmu_scenario(rng, steps):
    clocks = ["cpu0", "cpu1", "cpu2", "pmu0", "pmu1"]
    out = ["platform " + os.path.join(HERE, "cspmu-diff.yaml"), "as cpu0 el1"]
    for k, (cpus, counters, width, has_cc) in CSPMU.items():  # every counter counting, interrupts on
        for n in range(counters):
            out += [f"write cspmu{k}.PMEVTYPER{n} {rng.choice(CSPMU_EVENTS):#x}",
                    f"write cspmu{k}.PMEVCNTR{n} {near_wrap(rng, width):#x}"]
        everything = (1 << counters) - 1 | ((1 << 31) if has_cc else 0)
        out += [f"write cspmu{k}.PMCNTENSET {everything:#x}", f"write cspmu{k}.PMINTENSET {everything:#x}",
                f"write cspmu{k}.PMCR 1"]
    for _ in range(steps):
        k = rng.randrange(2)
        cpus, counters, width, has_cc = CSPMU[k]
        u, n, r = f"cspmu{k}", rng.randrange(counters), rng.random()
        if r < 0.30:
            out.append(run_statement(rng, clocks))
        elif r < 0.45:
            out.append(rng.choice([f"print {u}.PMEVCNTR{n}", f"print {u}.PMOVSSET", f"print {u}.PMCCNTR"]))
        elif r < 0.52:
            out.append(f"write {u}.PMEVTYPER{n} {rng.choice(CSPMU_EVENTS):#x}")
        elif r < 0.60:
            out.append(f"write {u}.PMEVCNTR{n} {near_wrap(rng, width):#x}")
        elif r < 0.63 and has_cc:
            out.append(f"write {u}.PMCCNTR {near_wrap(rng, width):#x}")
        elif r < 0.71:
            mask = rng.randrange(1 << counters) | (rng.choice([0, 1 << 31]) if has_cc else 0)
            reg = rng.choice(["PMCNTENSET", "PMCNTENCLR", "PMINTENSET", "PMINTENCLR", "PMOVSCLR", "PMOVSCLR", "PMOVSSET"])
            out.append(f"write {u}.{reg} {mask:#x}")
        elif r < 0.75:
            out.append(f"write {u}.PMCR {rng.choice([1, 1, 0, 3, 5, 7, 6]):#x}")  # E, P, C
        elif r < 0.80:
            out.append(f"workload cpu{rng.choice(cpus)} inst={pick_rate(rng)} mem_stall={pick_rate(rng)}")
        elif r < 0.85:
            out.append(freq_statement(rng, rng.choice([f"pmu{k}", f"cpu{rng.choice(cpus)}"])))
        elif r < 0.89:
            out.append(f"power cpu{rng.choice(cpus)} {rng.choice(['run', 'run', 'wfi', 'off'])}")
        elif r < 0.96:
            over = rng.choice(["", "", f" over {rng.randrange(1, 3000)}ps", f" over {rng.randrange(1, 100)}ns"])
            event = rng.choice(["external", "inst_retired", "mem_stall"])
            out.append(f"inject {u} {event} {rng.choice([1, 2, 17, 1000, 65536])}{over}")
        else:
            out.append(f"wait irq {u}_irq {rng.choice(['high', 'low'])} timeout {rng.randrange(1, 2000)}ns")
    return out


SCENARIOS = {"amu": amu_scenario, "dsu": dsu_scenario, "cmn": cmn_scenario, "cspmu": cspmu_scenario}

# --------------------------------------------------------------------------- runs


def run_mode(pmusim, seq_path, log_path, reference):
    cmd = [pmusim, "run", "--quiet", "--log-json", log_path, seq_path] + (["--reference"] if reference else [])
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env=dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE"))
    records = [json.loads(line) for line in open(log_path)] if os.path.exists(log_path) else []
    return p.returncode, p.stderr, records


def describe(rec):
    cyc = f" (cpu cycle {rec['cpu_cycle']})" if "cpu_cycle" in rec else ""
    return f"line {rec.get('line', '?')}, time {rec['time_fs']} fs = {rec.get('time', '')}{cyc}"


def compare(seed, lines, fast, ref):
    """Returns None or a message naming the first divergence."""
    def key(r):
        return (r["time_fs"], r.get("op"), r.get("target"), r.get("outcome"), r.get("value"))
    fa = [r for r in fast[2] if r["op"] != "irq"]
    ra = [r for r in ref[2] if r["op"] != "irq"]
    for a, b in zip(fa, ra):
        if key(a) != key(b):
            stmt = lines[a["line"] - 1] if a.get("file", "").endswith(".seq") and 0 < a["line"] <= len(lines) else ""
            return (f"seed {seed}: first divergence at {describe(a)}: `{stmt.strip()}` {a['op']} {a['target']}: "
                    f"fast {a.get('outcome')} {a.get('value')} at {a['time_fs']} fs, reference {b.get('outcome')} "
                    f"{b.get('value')} at {b['time_fs']} fs ({b.get('target')})")
    if len(fa) != len(ra):
        return f"seed {seed}: fast made {len(fa)} accesses, reference {len(ra)}"
    fi = [(r["time_fs"], r["irq"], r["level"]) for r in fast[2] if r["op"] == "irq"]
    ri = [(r["time_fs"], r["irq"], r["level"]) for r in ref[2] if r["op"] == "irq"]
    for a, b in zip(fi, ri):
        if a != b:
            return (f"seed {seed}: first interrupt divergence: fast {a[1]} {a[2]} at {a[0]} fs, "
                    f"reference {b[1]} {b[2]} at {b[0]} fs")
    if len(fi) != len(ri):
        return f"seed {seed}: fast has {len(fi)} interrupt edges, reference {len(ri)}"
    if fast[0] != ref[0]:
        return f"seed {seed}: exit codes differ: fast {fast[0]} ({fast[1].strip()}), reference {ref[0]} ({ref[1].strip()})"
    if fast[0] not in (0, 1):
        return f"seed {seed}: the scenario did not run (exit {fast[0]}): {fast[1].strip()}"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pmusim")
    ap.add_argument("--unit", choices=sorted(SCENARIOS), required=True)
    ap.add_argument("--seeds", help="comma-separated seeds")
    ap.add_argument("--first", type=int, default=1, help="first seed of a range (with --count)")
    ap.add_argument("--count", type=int, default=0, help="number of seeds from --first")
    ap.add_argument("--steps", type=int, default=120, help="random statements per scenario")
    ap.add_argument("--keep", help="write the scenarios and logs into this directory")
    a = ap.parse_args()
    seeds = [int(s) for s in a.seeds.split(",")] if a.seeds else list(range(a.first, a.first + a.count))
    if not seeds:
        ap.error("give --seeds or --count")
    os.chdir(os.path.dirname(os.path.dirname(HERE)))  # the scenarios name their platform from the repository root
    work = a.keep or tempfile.mkdtemp(prefix="pmusim-diff-")
    os.makedirs(work, exist_ok=True)
    failures = 0
    accesses = edges = 0
    for seed in seeds:
        rng = random.Random(f"{a.unit}-{seed}")
        lines = SCENARIOS[a.unit](rng, a.steps)
        seq = os.path.join(work, f"{a.unit}-{seed}.seq")
        with open(seq, "w") as f:
            f.write(f"# differential scenario: unit {a.unit}, seed {seed}\n")
            f.write("\n".join(lines) + "\n")
        lines = open(seq).read().split("\n")
        fast = run_mode(a.pmusim, seq, seq + ".fast.jsonl", False)
        ref = run_mode(a.pmusim, seq, seq + ".reference.jsonl", True)
        problem = compare(seed, lines, fast, ref)
        accesses += sum(1 for r in fast[2] if r["op"] != "irq")
        edges += sum(1 for r in fast[2] if r["op"] == "irq")
        if problem:
            failures += 1
            print(f"FAIL {problem}\n  scenario: {seq}\n  rerun: {sys.argv[0]} {a.pmusim} --unit {a.unit} --seeds {seed}"
                  f" --steps {a.steps} --keep DIR")
    print(f"differential {a.unit}: {len(seeds)} seeds, {accesses} register accesses and {edges} interrupt edges "
          f"compared, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
