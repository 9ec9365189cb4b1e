#!/usr/bin/env python3
"""Differential test of CMN-600 flows: counted from rate x time against issued request by request.

For each seed, a random CMN-600 platform with flows (docs/cmn.md "Flows": every requester of the
default layout sends one or two flows to random HN-Fs or the HN-I, random rates, miss shares,
memories, starts and stops) and a random Linux-style programming (every XP's four DTM counters on random XP
and node events, some paired to random DTC counters, counters preloaded near their wraps, overflow
interrupt on) is run twice: `-C cmn0.flow_mode=rate` and `-C cmn0.flow_mode=per-request` (the
traffic engine's transaction for every request). Every register read must give the same value at
the same instant and every interrupt edge must happen at the same instant: the JSON logs must be
identical. Then the hand-derived flow sequences (tests/sequences/cmn/flows_*.seq) must pass in the
per-request mode too (their fast-mode and reference-mode runs are sequence tests of their own).

Usage: cmn_flows_differential.py PMUSIM [--first N] [--count N] [--keep DIR]
"""
import argparse
import glob
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def platform_text(rng, mesh, scale):
    """A mesh x mesh default layout (docs/cmn.md): HN-D + SN-F at XP 0, RN-I + SN-F at the last XP,
    an RN-F and an HN-F at every other XP. Returns the YAML text."""
    n = mesh * mesh
    hnfs = [f"hnf{i}" for i in range(n - 2)]
    flows = []
    for i in range(1, n):
        x, y = i % mesh, i // mesh
        for _ in range(rng.choice([1, 1, 2])):
            to = rng.choice(hnfs + ["hni0"])
            op = rng.choice(["read", "write"])
            rate = rng.choice(["1/50", "1/64", "3/200", "1/37", "2/97", "1/101"])
            words = [f"{x},{y} p0", f"to={to}", f"op={op}", f"rate={rate}"]
            if to != "hni0":
                words.append("miss=" + rng.choice(["0", "1/4", "1/3", "2/5", "1"]))
                words.append(f"mem={rng.choice([0, 1])}")
            start = rng.randrange(0, 300) if rng.random() < 0.5 else 0
            if start:
                words.append(f"start={start}")
            if rng.random() < 0.3:  # a flow for a window of edges (start, stop]
                words.append(f"stop={start + rng.randrange(1, 20000)}")
            flows.append(" ".join(words))
    body = "\n".join("        " + f for f in flows)
    return f"""name: cmn-flows-diff
description: "random flows (tests/differential/cmn_flows_differential.py)"
arch: arm
clocks:
  - {{ name: cpu0, frequency: 2GHz }}
  - {{ name: cmn0, frequency: 1GHz }}
cpus:
  - {{ name: cpu0, clock: cpu0, cluster: 0 }}
firmware: {{ profile: none }}
units:
  - name: cmn0
    type: cmn600
    base: 0x40000000
    size: 64MiB
    clock: cmn0
    irq: cmn0_pmu_irq
    params:
      mesh_x: {mesh}
      mesh_y: {mesh}
      hop_latency: {rng.choice([1, 2, 3])}
      hnf_latency: {rng.choice([4, 8, 13])}
      snf_latency: {rng.choice([20, 40, 77])}
      flows: |
{body}
"""


# Node events per device kind (Linux arm-cmn.c@v6.1 names the same IDs): HN-F pocq_reqs_recvd,
# slc_sf_cache_access, cache_miss, cache_fill, mc_reqs, qos_pocq_occupancy; RN-I rxdat, txdat, txreq.
HNF_EVENTS = [0x05, 0x02, 0x01, 0x03, 0x0D, 0x0F]
RNI_EVENTS = [0x04, 0x05, 0x06]
HNI_EVENTS = [0x25, 0x26, 0x27, 0x29]


def sequence_text(rng, mesh, platform):
    n = mesh * mesh
    out = [f"platform {platform}", "as cpu0 el1", "write cmn0.dtc0.por_dt_dtc_ctl 1"]
    for i in range(n):
        x, y = i % mesh, i // mesh
        xp = f"cmn0.xp_{x}_{y}"
        sels, events = [], []
        for c in range(4):
            if rng.random() < 0.5:  # an XP event: txflit_valid on a random interface and channel
                events.append(1 | rng.randrange(6) << 2 | rng.randrange(4) << 5)
                sels.append(0x04 + c)
            else:  # output c of the device at port 0 or port 1
                port = rng.choice([0, 1]) if 0 < i < n - 1 else rng.choice([0, 1])
                sels.append(0x10 + (port << 4) + c)
                events.append(0)
        config = 1
        for c in range(4):
            config |= sels[c] << (32 + 8 * c)
            if rng.random() < 0.6:
                config |= 1 << (4 + c) | rng.randrange(8) << (16 + 4 * c)
        out.append(f"write {xp}.pmu_event_sel {sum(e << (8 * c) for c, e in enumerate(events)):#x}")
        out.append(f"write {xp}.por_dtm_pmu_config {config:#x}")
        preload = 0
        for c in range(4):
            preload |= (0xFFFF - rng.choice([0, 1, 5, 100, 3000, 40000])) << (16 * c)
        out.append(f"write {xp}.por_dtm_pmevcnt {preload:#x}")
    # Node event selectors: HN-Fs (p1 of the middle XPs), the RN-I (p0 of the last XP), the HN-I.
    for h in range(n - 2):
        sel = sum(rng.choice(HNF_EVENTS) << (8 * c) for c in range(4)) | rng.randrange(3) << 32
        out.append(f"write cmn0.hnf{h}.pmu_event_sel {sel:#x}")
    out.append(f"write cmn0.rni0.pmu_event_sel {sum(rng.choice(RNI_EVENTS) << (8 * c) for c in range(4)):#x}")
    out.append(f"write cmn0.hni0.pmu_event_sel {sum(rng.choice(HNI_EVENTS) << (8 * c) for c in range(4)):#x}")
    for pair in ["ab", "cd", "ef", "gh"]:
        out.append(f"write cmn0.dtc0.por_dt_pmevcnt{pair} {rng.choice([0, 0xFFFFFFFF_FFFFFFFE, 0x80000000_80000000]):#x}")
    out.append("write cmn0.dtc0.por_dt_pmcr 0x41")
    for _ in range(rng.randrange(4, 9)):
        out.append(f"run {rng.choice([1, 7, 64, 999, 5000, 20000, 65536])} cycles of cmn0")
        for i in rng.sample(range(n), min(n, 6)):
            out.append(f"read cmn0.xp_{i % mesh}_{i // mesh}.por_dtm_pmevcnt")
        for pair in ["ab", "cd", "ef", "gh"]:
            out.append(f"read cmn0.dtc0.por_dt_pmevcnt{pair}")
        out.append("read cmn0.dtc0.por_dt_pmovsr")
        if rng.random() < 0.3:
            out.append("write cmn0.dtc0.por_dt_pmovsr_clr 0x1ff")
    return "\n".join(out) + "\n"


def run(pmusim, seq, log, mode):
    cmd = [pmusim, "run", "--quiet", "--log-json", log, "-C", f"cmn0.flow_mode={mode}", seq]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pmusim")
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--count", type=int, default=4)
    ap.add_argument("--keep", help="keep the generated files in this folder")
    args = ap.parse_args()
    failures = 0
    work = args.keep or tempfile.mkdtemp(prefix="cmn-flows-diff-")
    os.makedirs(work, exist_ok=True)
    for seed in range(args.first, args.first + args.count):
        rng = random.Random(seed)
        mesh = rng.choice([3, 4, 6, 8])
        plat = os.path.join(work, f"flows-{seed}.yaml")
        seq = os.path.join(work, f"flows-{seed}.seq")
        with open(plat, "w") as f:
            f.write(platform_text(rng, mesh, 1))
        with open(seq, "w") as f:
            f.write(sequence_text(rng, mesh, plat))
        logs = {}
        for mode in ["rate", "per-request"]:
            log = os.path.join(work, f"flows-{seed}-{mode}.jsonl")
            code, text = run(args.pmusim, seq, log, mode)
            if code not in (0, 1):  # 1: a read without `==` never fails; anything else is an error
                print(f"seed {seed} ({mode}): exit {code}\n{text}")
                failures += 1
                break
            with open(log) as f:
                # The header names the override itself; everything after it must agree.
                logs[mode] = [line for line in f.read().splitlines() if not line.startswith('{"op":"header"')]
        if len(logs) < 2:
            continue
        a, b = logs["rate"], logs["per-request"]
        if a != b:
            for i, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    print(f"seed {seed} ({mesh}x{mesh}): first difference at log line {i + 1}\n  rate:        {x}\n"
                          f"  per-request: {y}")
                    break
            else:
                print(f"seed {seed}: logs of different lengths ({len(a)} / {len(b)})")
            failures += 1
        else:
            reads = sum(1 for line in a if '"read"' in line)
            print(f"seed {seed} ({mesh}x{mesh}): identical ({len(a)} log lines, {reads} reads)")
    # The hand-derived flow sequences in the per-request mode.
    for seq in sorted(glob.glob(os.path.join(ROOT, "tests", "sequences", "cmn", "flows_*.seq"))):
        code, text = run(args.pmusim, seq, os.devnull, "per-request")
        print(f"{os.path.relpath(seq, ROOT)} per-request: {'passed' if code == 0 else f'FAILED (exit {code})'}")
        if code != 0:
            print(text)
            failures += 1
    print("FAILED" if failures else "all identical")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
