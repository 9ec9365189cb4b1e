#!/usr/bin/env python3
"""The device tree `pmusim linux` generates for a platform, read back with fdtget (dtc's tools),
checked against the bindings of Linux 6.1 (Documentation/devicetree/bindings: arm/cpus.yaml,
arm/psci.yaml, timer/arm,arch_timer.yaml, interrupt-controller/arm,gic.yaml, serial/pl011.yaml,
perf/arm,dsu-pmu.yaml, perf/arm,cmn.yaml), the platform's own parameters (`pmusim --list-params`)
and, when the Linux kit is present, the `of:` aliases of Debian's arm_dsu_pmu.ko and arm-cmn.ko.
Then the blob goes back in with --dtb and --append: only /chosen's bootargs change.

  check_device_tree.py PMUSIM TINY_IMAGE WORKDIR [KIT_DIR]
"""
import os
import re
import subprocess
import sys

pmusim, image, work = sys.argv[1:4]
kit = sys.argv[4] if len(sys.argv) > 4 else ""
os.makedirs(work, exist_ok=True)
errors = []


def check(cond, what):
    if not cond:
        errors.append(what)


def fdtget(dtb, node, prop, kind="x"):
    r = subprocess.run(["fdtget", "-t", kind, dtb, node, prop], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        errors.append(f"{node} {prop}: missing ({r.stderr.strip()})")
        return None
    return r.stdout.split() if kind == "x" else r.stdout.strip()


def nodes(dtb, path):
    return subprocess.run(["fdtget", "-l", dtb, path], stdout=subprocess.PIPE, text=True, check=True).stdout.split()


def cells(dtb, node, prop):
    v = fdtget(dtb, node, prop)
    return [int(c, 16) for c in v] if v else []


params = {}
for line in subprocess.run([pmusim, "--list-params", "--platform", "arm-linux"], stdout=subprocess.PIPE, text=True,
                           check=True).stdout.splitlines():
    f = line.split()
    if len(f) >= 2:
        params[f[0]] = f[1]

initrd = os.path.join(work, "initrd.bin")
with open(initrd, "wb") as f:
    f.write(b"\x5a" * 123457)  # its size is what /chosen must span
dtb = os.path.join(work, "generated.dtb")
r = subprocess.run([pmusim, "linux", "--kernel", image, "--initrd", initrd, "--dtb-out", dtb, "--append", "loglevel=7"],
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
check(r.returncode == 0, f"pmusim linux exited {r.returncode}: {r.stdout[-2000:]}")

# Memory: the platform's DRAM, two cells each.
base, size = int(params["memory.dram.base"], 16), int(params["memory.dram.size"], 16)
check(cells(dtb, f"/memory@{base:x}", "reg") == [base >> 32, base & 0xffffffff, size >> 32, size & 0xffffffff],
      "memory reg is not the DRAM region")

# CPUs (arm/cpus.yaml): reg = MPIDR_EL1 affinity, DynamIQ layout Aff1 = core in the cluster.
cpu_nodes = [n for n in nodes(dtb, "/cpus") if n.startswith("cpu@")]
check(cpu_nodes == [f"cpu@{c << 8:x}" for c in range(4)], f"cpu nodes {cpu_nodes}, expected cpu@0, cpu@100, cpu@200, cpu@300")
phandles = []
for c, n in enumerate(cpu_nodes):
    check(cells(dtb, f"/cpus/{n}", "reg") == [c << 8], f"{n}: reg is not MPIDR Aff1 = {c}")
    check(fdtget(dtb, f"/cpus/{n}", "enable-method", "s") == "psci", f"{n}: enable-method is not psci")
    check(fdtget(dtb, f"/cpus/{n}", "device_type", "s") == "cpu", f"{n}: device_type")
    phandles.append(cells(dtb, f"/cpus/{n}", "phandle"))
check(cells(dtb, "/cpus", "#address-cells") == [1] and cells(dtb, "/cpus", "#size-cells") == [0], "/cpus cell sizes")

# Each CPU's clock (clock/fixed-clock.yaml) at the platform's frequency of that CPU's clock, and an
# OPP table (opp/opp-v2.yaml) with that one frequency: what cpufreq-dt needs for a policy
# (drivers/cpufreq/cpufreq-dt-platdev.c: cpu0 has operating-points-v2).
by_phandle = {}
for n in nodes(dtb, "/"):
    r = subprocess.run(["fdtget", "-t", "x", dtb, "/" + n, "phandle"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if r.returncode == 0:
        by_phandle[int(r.stdout.split()[0], 16)] = "/" + n
for c, n in enumerate(cpu_nodes):
    m = re.fullmatch(r"(\d+)([kMG]?)Hz", params.get(f"clocks.cpu{c}.frequency", ""))
    hz = int(m.group(1)) * {"": 1, "k": 10**3, "M": 10**6, "G": 10**9}[m.group(2)] if m else None
    check(hz, f"{n}: no frequency for clocks.cpu{c} in pmusim --list-params")
    clk = by_phandle.get((cells(dtb, f"/cpus/{n}", "clocks") or [0])[0])
    opp = by_phandle.get((cells(dtb, f"/cpus/{n}", "operating-points-v2") or [0])[0])
    check(clk and fdtget(dtb, clk, "compatible", "s") == "fixed-clock", f"{n}: clocks is no fixed-clock")
    check(opp and fdtget(dtb, opp, "compatible", "s") == "operating-points-v2", f"{n}: operating-points-v2 is no OPP table")
    if clk and opp:
        rate = cells(dtb, clk, "clock-frequency")
        check(hz is None or rate == [hz], f"{n}: clock-frequency {rate}, expected the platform's {hz}")
        entries = nodes(dtb, opp)
        check(len(entries) == 1 and cells(dtb, f"{opp}/{entries[0]}", "opp-hz") == [0, rate[0]],
              f"{n}: OPP table {entries}: expected one opp-hz of {rate}")

# PSCI (arm/psci.yaml)
check("arm,psci-0.2" in (fdtget(dtb, "/psci", "compatible", "s") or ""), "psci compatible lacks arm,psci-0.2")
check(fdtget(dtb, "/psci", "method", "s") in ("smc", "hvc"), "psci method is neither smc nor hvc")

# Timer (timer/arm,arch_timer.yaml): secure, non-secure, virtual, hypervisor PPIs = INTIDs 29 30 27 26.
t = cells(dtb, "/timer", "interrupts")
check([t[i] for i in range(0, 12, 3)] == [1] * 4 and [t[i] for i in range(1, 12, 3)] == [13, 14, 11, 10],
      f"timer interrupts {t}: expected PPIs 13 14 11 10")

# GIC (interrupt-controller/arm,gic.yaml)
gic = [n for n in nodes(dtb, "/") if n.startswith("interrupt-controller@")]
check(len(gic) == 1, "one interrupt-controller node")
if gic:
    check("arm,cortex-a15-gic" in fdtget(dtb, "/" + gic[0], "compatible", "s"), "GIC compatible")
    check(cells(dtb, "/" + gic[0], "#interrupt-cells") == [3], "GIC #interrupt-cells")
    check(len(cells(dtb, "/" + gic[0], "reg")) == 8, "GIC reg: distributor and CPU interface")

# PL011 (serial/pl011.yaml), and /chosen's stdout-path names it.
uart = [n for n in nodes(dtb, "/") if n.startswith("uart@")]
check(len(uart) == 1, "one uart node")
spis = []
if uart:
    check(fdtget(dtb, "/" + uart[0], "compatible", "s") == "arm,pl011 arm,primecell", "uart compatible")
    check(fdtget(dtb, "/" + uart[0], "clock-names", "s") == "uartclk apb_pclk", "uart clock-names")
    check(fdtget(dtb, "/chosen", "stdout-path", "s") == "/" + uart[0], "stdout-path is not the uart")
    spis.append(cells(dtb, "/" + uart[0], "interrupts"))

# DSU (perf/arm,dsu-pmu.yaml): compatible, one SPI, cpus = the cluster's CPU phandles.
dsu = [n for n in nodes(dtb, "/") if n.startswith("dsu-pmu")]
check(len(dsu) == 1, f"one dsu-pmu node, found {dsu}")
if dsu:
    check(fdtget(dtb, "/" + dsu[0], "compatible", "s") == "arm,dsu-pmu", "dsu compatible")
    check(cells(dtb, "/" + dsu[0], "cpus") == [p[0] for p in phandles], "dsu cpus are not the four CPU phandles")
    spis.append(cells(dtb, "/" + dsu[0], "interrupts"))

# CMN-600 (perf/arm,cmn.yaml): reg = PERIPHBASE + the 64 MiB configuration space, arm,root-node.
periph = int(params["units.cmn0.params.periphbase"], 16)
cmn = f"/pmu@{periph:x}"
check(fdtget(dtb, cmn, "compatible", "s") == "arm,cmn-600", "cmn compatible")
check(cells(dtb, cmn, "reg") == [periph >> 32, periph & 0xffffffff, 0, 64 << 20], "cmn reg")
check(cells(dtb, cmn, "arm,root-node") == [int(params["units.cmn0.params.root_node_offset"], 0)], "cmn arm,root-node")
spis.append(cells(dtb, cmn, "interrupts"))

for s in spis:
    check(len(s) == 3 and s[0] == 0 and s[2] == 4, f"interrupt {s} is not a level-high SPI")
check(len({tuple(s) for s in spis}) == len(spis), f"SPIs shared between devices: {spis}")

# /chosen: the initramfs range spans the file, on a 2 MiB boundary; bootargs with --append.
start = cells(dtb, "/chosen", "linux,initrd-start")
end = cells(dtb, "/chosen", "linux,initrd-end")
if start and end:
    s, e = start[0] << 32 | start[1], end[0] << 32 | end[1]
    check(e - s == 123457, f"initrd range {e - s} bytes, the file has 123457")
    check(s % (2 << 20) == 0 and base <= s and e <= base + size, "initrd not 2 MiB aligned inside DRAM")
bootargs = fdtget(dtb, "/chosen", "bootargs", "s") or ""
check("console=ttyAMA0" in bootargs and bootargs.endswith("loglevel=7"), f"bootargs {bootargs!r}")

# The drivers Debian ships bind to these compatibles (their modules' of: aliases).
if kit and os.path.exists(os.path.join(kit, "modules", "arm_dsu_pmu.ko")):
    for ko, compat in (("arm_dsu_pmu.ko", "arm,dsu-pmu"), ("arm-cmn.ko", "arm,cmn-600")):
        # The module's .modinfo strings, "alias=of:N*T*C<compatible>" (scripts/mod/file2alias.c).
        with open(os.path.join(kit, "modules", ko), "rb") as f:
            aliases = re.findall(rb"alias=of:N\*T\*C([^\0]*)\0", f.read())
        check(compat.encode() in aliases, f"{ko}: no of: alias for {compat} (aliases {aliases})")

# A user's blob replaces the generated one: /chosen gets the new bootargs, nothing else changes.
dtb2 = os.path.join(work, "user.dtb")
r = subprocess.run([pmusim, "linux", "--kernel", image, "--initrd", initrd, "--dtb", dtb, "--dtb-out", dtb2,
                    "--append", "quiet"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
check(r.returncode == 0, f"--dtb run exited {r.returncode}")
check(fdtget(dtb2, "/chosen", "bootargs", "s") == "quiet", "--dtb with --append: bootargs not replaced")
dts = lambda f: re.sub(r"bootargs = [^;]*;", "", subprocess.run(["dtc", "-I", "dtb", "-O", "dts", f], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout)
check(dts(dtb) == dts(dtb2), "--dtb changed more than bootargs")

# Arguments holding a quote, a backslash and a semicolon reach /chosen's bootargs byte for byte (dtc
# reads C escapes in a string literal, so the generated source must escape them; before, dtc
# refused the source and the run ended in a model error).
odd = 'x="a b;" y=\\z'
dtb3 = os.path.join(work, "odd-append.dtb")
r = subprocess.run([pmusim, "linux", "--kernel", image, "--initrd", initrd, "--dtb-out", dtb3, "--append", odd],
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
check(r.returncode == 0, f"--append {odd!r} exited {r.returncode}: {r.stdout[-300:]}")
got = fdtget(dtb3, "/chosen", "bootargs", "s") if r.returncode == 0 else ""
check((got or "").endswith(" " + odd), f"--append {odd!r}: bootargs {got!r}")

if errors:
    print("\n".join("check_device_tree: " + e for e in errors), file=sys.stderr)
    sys.exit(1)
print(f"check_device_tree: {dtb} matches the bindings and the platform")
