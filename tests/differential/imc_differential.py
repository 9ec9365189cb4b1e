#!/usr/bin/env python3
"""Differential tests of the POWER9 IMC: fast mode against the per-cycle reference mode.

The scenario generator for the `imc` unit, run by differential.py's machinery (same
runs, same comparison: every register and memory access in order, its instant, outcome
and value, and the exit codes). Kept in its own file so that the IMC, CMN and other
units can add generators without editing the same lines.

Platform tests/differential/imc-diff.yaml: one chip, cores 0 and 1 with two threads
each (cpu0..cpu3), a 20 us OCC tick and a 7 us core update period, so that a scenario
of a few hundred microseconds covers many nest postings, core/thread updates and trace
records. Scenarios mix, at random instants: nest start/pause/resume (OPAL) and clear
(debugfs imc_cmd), nest speed and run-mode changes (valid and invalid), injected nest
events (at once and spread), core DVFS, workload phases (instructions, MCS traffic),
power states, core IMC init/start/stop, thread LDBAR enable/disable, trace IMC with
CPMC loads near the wrap (both sampling selections: instructions and the 32 MHz
reference), warm resets, and memory reads of the nest postings, the control block, the
core and thread pages and the trace buffers.

Usage (docs/reference-mode.md):
  imc_differential.py PMUSIM --first 1 --count 4            # what CI runs
  imc_differential.py PMUSIM --first 100 --count 50 --steps 200 --keep /tmp/diff
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import differential  # noqa: E402

HOMER = 0x10000000
NEST = HOMER + 0x180000
CB = NEST + 0x3FC00
CB_COMMAND, CB_SPEED, CB_RUN_MODE = CB + 0x08, CB + 0x10, CB + 0x20
XSCOM = 0x000603FC00000000
CORE_PAGE = {0: 0x10400000, 1: 0x10402000}        # PDBAR of each core
THREAD_PAGE = {t: 0x10410000 + 0x2000 * t for t in range(4)}
TRACE_BUFFER = {t: 0x10500000 + 0x40000 * t for t in range(4)}
CORE_OF = {0: 0, 1: 0, 2: 1, 3: 1}
NEST_EVENTS = ["PM_PB_CYC", "PM_MCS01_128B_RD_DISP_PORT01", "PM_MCS01_128B_WR_DISP_PORT01",
               "PM_MCS01_64B_RD_DISP_PORT01"]
WORKLOAD_KEYS = ["mcs_read_64b", "mcs_read_128b", "mcs_write_128b"]


def xscom_offset(pcb):
    """skiboot hw/xscom.c xscom_addr() on POWER9: the MMIO offset of a PCB address is pcb << 3
    (the interleaved (pcb << 4 & ~0xff) | (pcb << 3 & 0x78) is POWER8 only)."""
    return pcb << 3


def trace_scom_address(core):
    return XSCOM + xscom_offset((((core & 0x1F) + 0x20) << 24) | 0x20010AA9)


def trace_scom(sampsel, period, cpmc1sel, cpmc2sel):
    """TRACE_IMC_SCOM as skiboot builds it: CPMC_LOAD = 0xFFFFFFFF - period (wraps after period + 1 events)."""
    return (sampsel << 62) | ((0xFFFFFFFF - period) << 30) | (cpmc1sel << 23) | (cpmc2sel << 16)


def run_statement(rng):
    r = rng.random()
    if r < 0.15:
        return f"run {rng.choice([0, 1, 2, 3])} cycles of {rng.choice(['core0', 'core1', 'nest', 'tb'])}"
    if r < 0.55:
        return f"run {rng.randrange(1, 3000)} cycles of {rng.choice(['core0', 'core1', 'nest', 'tb'])}"
    if r < 0.85:
        return f"run {rng.randrange(1, 8000)}ns"
    return f"run {rng.randrange(8, 40)}us"


def memory_reads(rng, thread):
    r = rng.random()
    if r < 0.35:  # nest postings: counters, group headers/trailers
        return [f"read64 {NEST + 8 * rng.choice([0, 0x10, 0x1A, 0x1B, 0x21, 0x22, 0x10 + rng.randrange(20)]):#x}"]
    if r < 0.45:
        return [f"read64 {rng.choice([CB, CB_COMMAND, CB_SPEED, CB_RUN_MODE]):#x}"]
    if r < 0.60:
        return [f"read64 {CORE_PAGE[CORE_OF[thread]] + 8 * rng.randrange(0x40):#x}"]
    if r < 0.75:
        return [f"read64 {THREAD_PAGE[thread] + 8 * rng.randrange(0x40):#x}"]
    slot = TRACE_BUFFER[thread] + 64 * rng.randrange(48)  # a whole record
    return [f"read64 {slot + 8 * w:#x}" for w in range(8)]


def imc_scenario(rng, steps):
    out = ["platform " + os.path.join(differential.HERE, "imc-diff.yaml")]
    for t in range(4):
        out.append(f"workload cpu{t} inst={differential.pick_rate(rng)} " +
                   " ".join(f"{k}=1/{rng.choice([8, 32, 64, 100])}" for k in WORKLOAD_KEYS))
    out += ["as cpu0 hv", "opal imc_counters_start nest cpu0"]
    for _ in range(steps):
        t = rng.randrange(4)
        core = CORE_OF[t]
        hv = f"as cpu{t} hv"
        r = rng.random()
        if r < 0.26:
            out.append(run_statement(rng))
        elif r < 0.44:
            out.append(hv)
            out += memory_reads(rng, t)
        elif r < 0.48:
            out += [hv, f"opal imc_counters_{rng.choice(['start', 'start', 'stop'])} nest cpu{t}"]
        elif r < 0.50:
            out += [hv, f"write64 {CB_COMMAND:#x} {rng.choice([1, 2, 3, 3])}"]  # debugfs imc_cmd
        elif r < 0.52:
            speed = rng.choice([0, 0, 1, 2, 3, 8, 0xB, 0xC])  # 0xC: bad speed
            out += [hv, f"write64 {CB_SPEED:#x} {speed}"]
        elif r < 0.53:
            out += [hv, f"write64 {CB_RUN_MODE:#x} {rng.choice([0, 0, 1, 2])}"]
        elif r < 0.58:
            over = rng.choice(["", f" over {rng.randrange(1, 5000)}ns", f" over {rng.randrange(1, 30)}us"])
            out.append(f"inject imc0.chip0 {rng.choice(NEST_EVENTS[1:])} {rng.choice([1, 255, 256, 1000, 65536])}{over}")
        elif r < 0.63:
            keys = " ".join(f"{k}=1/{rng.choice([4, 16, 50, 128])}" for k in rng.sample(WORKLOAD_KEYS, 2))
            out.append(f"workload cpu{t} inst={differential.pick_rate(rng)} {keys}")
        elif r < 0.66:
            out.append(f"freq core{core} {rng.choice(['0.7GHz', '1.1GHz', '1.3GHz', '0.777777777GHz', '1.414213562GHz'])}")
        elif r < 0.69:
            out.append(f"power cpu{t} {rng.choice(['run', 'run', 'wfi', 'off'])}")
        elif r < 0.73:
            out += [hv, f"opal imc_counters_init core {CORE_PAGE[core]:#x} cpu{t}",
                    f"opal imc_counters_start core cpu{t}"]
        elif r < 0.75:
            out += [hv, f"opal imc_counters_stop core cpu{t}"]
        elif r < 0.81:  # thread IMC: LDBAR enable/disable (accumulation mode)
            enable = rng.random() < 0.7
            out += [hv, f"write LDBAR {(1 << 63 if enable else 0) | THREAD_PAGE[t]:#x}", "print LDBAR"]
        elif r < 0.89:  # trace IMC with a CPMC load near the wrap
            period = rng.choice([0, 1, 2, 7, rng.randrange(8, 300), rng.randrange(300, 5000)])
            sampsel = rng.randrange(2)
            scom = trace_scom(sampsel, period, rng.choice([4, 2]) if sampsel == 0 else 4,
                              rng.choice([2, 2, 4]) if sampsel == 1 else 2)
            out += [hv, f"opal imc_counters_init trace 0 cpu{t}", f"write64 {trace_scom_address(core):#x} {scom:#x}",
                    f"read64 {trace_scom_address(core):#x}",
                    f"write LDBAR {(1 << 62) | TRACE_BUFFER[t]:#x}", f"opal imc_counters_start trace cpu{t}"]
        elif r < 0.92:
            out += [hv, f"opal imc_counters_stop trace cpu{t}", "write LDBAR 0"]
        elif r < 0.99:
            out += [hv] + memory_reads(rng, t)
        else:
            out.append("reset warm")
    # Read everything at the end: the nest block, every page, the first records of every buffer.
    out.append("as cpu0 hv")
    out += [f"read64 {NEST + 8 * w:#x}" for w in range(0x22)]
    for page in list(CORE_PAGE.values()) + list(THREAD_PAGE.values()):
        out += [f"read64 {page + 8 * w:#x}" for w in (3, 4, 0x1C, 0x1D, 0x1E)]
    for buf in TRACE_BUFFER.values():
        out += [f"read64 {buf + 8 * w:#x}" for w in range(16)]
    return out


if __name__ == "__main__":
    differential.SCENARIOS["imc"] = imc_scenario
    if "--unit" not in sys.argv:
        sys.argv[2:2] = ["--unit", "imc"]
    sys.exit(differential.main())
