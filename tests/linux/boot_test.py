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


def counter_deltas(run, counter, width):
    """The sum of the deltas the driver computed itself: each read minus the value the counter was
    last written with or read as, modulo its width (arm_dsu_pmu.c dsu_pmu_event_update,
    arm-cmn.c arm_cmn_event_read), and the enable/disable instants of that counter's run."""
    mask = (1 << width) - 1
    prev, total = None, 0
    for r in run.accesses(counter):
        v = int(r["value"], 16)
        if r["op"] == "write":
            prev = v
        elif prev is not None:
            total += (v - prev) & mask
            prev = v
    return total


def check_boot(run, cpus):
    # The AMU is a per-CPU feature: cpu_amu_enable prints "detected CPU%d: Activity Monitors Unit (AMU)"
    # on each CPU that has it (linux-6.1:arch/arm64/kernel/cpufeature.c:1905), behind the "CPU features: " prefix.
    for n in range(cpus):
        run.check(f"CPU features: detected CPU{n}: Activity Monitors Unit (AMU)" in run.console, f"no AMU detected line for CPU{n}")
    m = re.search(r"^pmusim-test: processors (\d+)$", run.console, re.M)
    run.check(m and int(m.group(1)) == cpus, f"/proc/cpuinfo processors {m and m.group(1)}, expected {cpus}")


def check_pmus(run, cpus):
    for pmu, events in (("arm_dsu_0", ["cycles", "bus_access", "l3d_cache"]),
                        ("arm_cmn_0", ["dtc_cycles", "hnf_cache_miss", "hnf_slc_sf_cache_access"])):
        run.check(re.search(rf"^pmusim-test: pmu {pmu}$", run.console, re.M), f"{pmu} not in /sys/bus/event_source/devices")
        for e in events:
            run.check(re.search(rf"^pmusim-test: {pmu} event {e}$", run.console, re.M), f"{pmu}: event {e} not listed")


def check_dsu_perf(run, cpus):
    counts = run.perf_counts()
    cycles = counts.get("arm_dsu_0/cycles/")
    if not run.check(cycles is not None, "perf printed no arm_dsu_0/cycles/ count"):
        return
    # The driver's own reads of the 64-bit cycle counter (DSU TRM: CLUSTERPMCCNTR_EL1).
    run.check(counter_deltas(run, "CLUSTERPMCCNTR_EL1", 64) == cycles,
              f"perf's {cycles} cycles != the sum of the driver's CLUSTERPMCCNTR_EL1 deltas")
    # The counter ran from the CLUSTERPMCNTENSET_EL1 write that set bit 31 to the CNTENCLR one.
    on = [r for r in run.accesses("CLUSTERPMCNTENSET_EL1", "write") if int(r["value"], 16) >> 31 & 1]
    off = [r for r in run.accesses("CLUSTERPMCNTENCLR_EL1", "write") if int(r["value"], 16) >> 31 & 1]
    if run.check(on and off, "no enable/disable of the cycle counter in the log"):
        expected = edges(off[-1]["time_fs"], DSU_HZ) - edges(on[0]["time_fs"], DSU_HZ)
        run.check(cycles == expected, f"perf's {cycles} DSU cycles != DSU clock x interval = {expected}")


def check_cmn_perf(run, cpus):
    counts = run.perf_counts()
    for event in ("arm_cmn_0/dtc_cycles/", "arm_cmn_0/hnf_cache_miss/"):
        run.check(counts.get(event, 0) > 0, f"perf printed no non-zero {event}")
    # DTC cycle counter: 40 bits (CMN-600 TRM por_dt_pmccntr), read by arm-cmn.c at each update.
    cyc = counts.get("arm_cmn_0/dtc_cycles/")
    if cyc is not None:
        run.check(counter_deltas(run, "por_dt_pmccntr", 40) == cyc,
                  f"perf's {cyc} DTC cycles != the sum of the driver's por_dt_pmccntr deltas")


def check_overflow(run, cpus):
    m = re.search(r"^pmusim-test: dsu irqs (\d+)$", run.console, re.M)
    run.check(m and int(m.group(1)) >= 1, "the DSU overflow interrupt was not counted in /proc/interrupts")
    clears = [r for r in run.accesses("CLUSTERPMOVSCLR_EL1", "write") if int(r["value"], 16)]
    run.check(clears, "the driver never cleared an overflow flag (dsu_pmu_handle_irq)")
    edges_high = [r for r in run.log if r.get("op") == "irq" and r.get("level") == "high"]
    run.check(edges_high, "no interrupt edge in the log")


def check_amu(run, cpus):
    # The kernel's own reads of the core-cycle counter (AMEVCNTR00_EL0, Arm ARM D17.6): each value
    # equals the CPU clock's edges at that instant (AMUv1p1 counts from reset, no offset).
    reads = run.accesses("AMEVCNTR00_EL0", "read")
    if run.check(reads, "the kernel never read AMEVCNTR00_EL0"):
        bad = [r for r in reads if int(r["value"], 16) != r.get("cpu_cycle")]
        run.check(not bad, f"{len(bad)} AMEVCNTR00_EL0 reads differ from the CPU's cycles at that instant")


CHECKS = {"boot": check_boot, "pmus": check_pmus, "dsu_perf": check_dsu_perf, "cmn_perf": check_cmn_perf,
          "overflow": check_overflow, "amu": check_amu}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name", choices=sorted(CHECKS))
    ap.add_argument("--pmusim", required=True)
    ap.add_argument("--kit", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cpus", type=int, default=4)
    ap.add_argument("--time-limit", default="20s")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    cpio = os.path.join(a.work, a.name + ".cpio")
    kit = subprocess.run([os.path.join(a.src, "..", "..", "scripts", "linux-kit.sh"), a.kit, "--script",
                          os.path.join(a.src, "guest", a.name + ".sh"), "--initrd-out", cpio],
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
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    with open(os.path.join(a.work, a.name + ".console"), "w") as f:
        f.write(r.stdout)
    records = []
    if os.path.exists(log):
        with open(log) as f:
            records = [json.loads(line) for line in f if line.strip()]
    run = Run(r.stdout, records)
    run.check(r.returncode == 0, f"pmusim linux exited {r.returncode} (0: PSCI SYSTEM_OFF)")
    run.check("pmusim-init: test exit 0" in r.stdout, "the guest test script did not exit 0")
    CHECKS[a.name](run, a.cpus)
    if run.errors:
        print(r.stdout[-6000:])
        print("\n".join("boot_test: " + e for e in run.errors), file=sys.stderr)
        return 1
    print(f"boot_test: {a.name} passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
