#!/usr/bin/env python3
"""Absurd inputs are refused with a clear message and exit 2, never a crash, an out-of-memory or a
hang (docs/reliability.md "Limits"). Usage: check_limits.py PMUSIM"""
import os
import subprocess
import sys
import tempfile
import time

pmusim = sys.argv[1]
env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
failures = []


def run(args, want_exit, want_text, timeout=120, what=""):
    start = time.monotonic()
    r = subprocess.run([pmusim] + args, capture_output=True, text=True, env=env, timeout=timeout)
    took = time.monotonic() - start
    if r.returncode != want_exit or want_text not in r.stderr + r.stdout:
        failures.append(f"{what}: exit {r.returncode} (want {want_exit}), output without '{want_text}':\n"
                        f"{(r.stderr + r.stdout)[-600:]}")
    else:
        print(f"ok: {what} ({took:.1f} s)")
    return took


def write_in(folder, name, text):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def platform_with(cpus=2, frequency="2GHz", extra=""):
    text = "name: limits\narch: arm\nclocks:\n  - { name: const, frequency: 100MHz }\n"
    text += f"  - {{ name: c, frequency: {frequency} }}\ncpus:\n"
    for i in range(cpus):
        text += f"  - {{ name: cpu{i}, clock: c, cluster: 0 }}\n"
    return text + "firmware: { profile: none }\n" + extra


with tempfile.TemporaryDirectory() as d:
    def write(name, text):
        return write_in(d, name, text)

    ok_platform = write("ok.yaml", platform_with())
    # Simulated time: 2^64 fs (about 5.1 h) is the end of time.
    run(["run", write("t1.seq", "run 18446744073709551615 cycles of cpu0\n"), "--platform", ok_platform], 2,
        "the last instant pmusim can represent", what="run of 2^64-1 cycles")
    run(["run", write("t2.seq", "run 10000s\nrun 10000s\n"), "--platform", ok_platform], 2,
        "the last instant pmusim can represent", what="two runs of 10000 s")
    run(["run", write("t3.seq", "run 10000s\nwait irq dsu0_pmu_irq high timeout 10000s\n"), "--platform", "arm-default"], 2,
        "the last instant pmusim can represent", what="wait with a timeout beyond the end of time")
    run(["run", write("t4.seq", "freq cpu0 2000GHz\n"), "--platform", ok_platform], 2, "at most 1000GHz",
        what="freq beyond 1 THz")
    run(["run", write("t5.seq", "run 1 cycles\n"), "--platform", write("f.yaml", platform_with(frequency="5000GHz"))], 2,
        "at most 1000GHz", what="platform clock beyond 1 THz")
    run(["run", write("t6.seq", "run 1 cycles\n"), "--platform", write("cpus.yaml", platform_with(cpus=1025))], 2,
        "expected at most 1024", what="1025 CPUs")
    # A million CPUs: refused by the file size (a ~40 MB file), before yaml-cpp builds a tree.
    big = os.path.join(d, "million.yaml")
    with open(big, "w") as f:
        f.write(platform_with(cpus=0).replace("cpus:\n", "cpus:\n" + "  - { name: cpuN, clock: c, cluster: 0 }\n" * 1_000_000))
    run(["run", write("t7.seq", "run 1 cycles\n"), "--platform", big], 2, "platform file larger than", what="a million CPUs")
    # Deep nesting in YAML: yaml-cpp must not overflow the stack.
    run(["run", write("t8.seq", "run 1 cycles\n"), "--platform", write("deep.yaml", "name: " + "[" * 200000 + "\n")], 2,
        "deep.yaml", what="200000 nested YAML lists")
    # A sequence file beyond 256 MiB (sparse: no disk used).
    huge = os.path.join(d, "huge.seq")
    with open(huge, "w") as f:
        f.truncate(300 << 20)
    run(["run", huge, "--platform", ok_platform], 2, "sequence file larger than", what="300 MiB sequence file")
    # 10^6 lines parse in linear time: the last line is bad input, so nothing runs.
    lines = os.path.join(d, "lines.seq")
    with open(lines, "w") as f:
        f.write("as cpu0 el1\n" + "run 1 cycles of cpu0\n" * 999_998 + "bogus statement\n")
    took = run(["run", lines, "--platform", ok_platform], 2, ":1000000:", timeout=300, what="10^6-line sequence parse")
    if took > 120:
        failures.append(f"parsing 10^6 lines took {took:.1f} s")
    # Statements are held until the run ends, so their number is bounded whatever the lines' length
    # (short lines filling 256 MiB would be 44 million statements, about 10 GB).
    with open(lines, "w") as f:
        f.write("run 1ns\n" * 2_000_001)
    run(["run", lines, "--platform", ok_platform], 2, ":2000001: more than 2000000 statements", timeout=300,
        what="2*10^6 + 1 statements")


# Runs a command and prints its peak RSS. A small process of its own does the fork: Linux keeps the
# parent's peak in a child's ru_maxrss across exec, and this script holds megabytes of test inputs.
PEAK_RSS = """
import resource, subprocess, sys
code = subprocess.call(sys.argv[1:], stdout=sys.stderr)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024, code)
"""


def measured(args, cwd=None):
    """Exit code, output, seconds and peak RSS (bytes) of one pmusim run."""
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-c", PEAK_RSS, pmusim] + args, capture_output=True, text=True, env=env,
                       cwd=cwd)
    rss, code = (int(x) for x in r.stdout.split())
    return code, r.stderr, time.monotonic() - start, rss


sanitized = "ASAN_OPTIONS" in os.environ


def check_cost(what, args, input_bytes, max_seconds, max_bytes_per_input_byte, cwd=None):
    """A loader at its documented limit: it succeeds, within a time bound and with peak memory
    (above the bare process) a bounded multiple of its input (docs/reliability.md, "Limits")."""
    code, out, took, rss = measured(args, cwd)
    per_byte = max(0, rss - baseline_rss) / input_bytes
    if sanitized:  # AddressSanitizer: shadow memory and redzones, and several times slower
        per_byte, max_seconds = 0, max_seconds * 5
    if code != 0:
        failures.append(f"{what}: exit {code}:\n{out[-600:]}")
    elif took > max_seconds or per_byte > max_bytes_per_input_byte:
        failures.append(f"{what}: {took:.1f} s (bound {max_seconds}), {per_byte:.0f} bytes of memory per input byte "
                        f"(bound {max_bytes_per_input_byte})")
    else:
        print(f"ok: {what} ({took:.1f} s, {rss >> 20} MiB peak, {per_byte:.1f} bytes per input byte)")


# Loaders at their limits (models/limits.h): each list is refused one past its bound at its key's
# line, and a file at the limit loads in bounded time and memory.
with tempfile.TemporaryDirectory() as d:
    def write(name, text):
        return write_in(d, name, text)

    one = write("one.seq", "run 1 cycles of cpu0\n")
    _, _, _, baseline_rss = measured(["run", one, "--platform", write("bare.yaml", platform_with())])

    def regions(n):
        return "memory:\n" + "".join(f"  - {{ name: m{i}, base: {0x100000000 + i * 0x10000:#x}, size: 4KiB }}\n"
                                       for i in range(n))

    def line_names(n):
        return "[" + ", ".join(f"line{i}" for i in range(n)) + "]"

    def clocks(n):
        return "".join(f"  - {{ name: k{i}, frequency: 1GHz }}\n" for i in range(n))

    def dsus(n):
        text = "name: limits\narch: arm\nclocks:\n  - { name: c, frequency: 2GHz }\ncpus:\n"
        text += "".join(f"  - {{ name: cpu{i}, clock: c, cluster: {i} }}\n" for i in range(min(n, 1024)))
        text += "firmware: { profile: none }\nunits:\n"
        return text + "".join(f"  - {{ name: dsu{i}, type: dsu_clusterpmu, base: {0x2A000000 + i * 0x10000:#x}, "
                              f"size: 0x10000, clock: c, cpus: [cpu{i % 1024}] }}\n" for i in range(n))

    too_many = [
        ("4097 memory regions", platform_with(extra=regions(4097)), "memory: 4097 memory regions; expected at most 4096"),
        ("4097 interrupt lines", platform_with(extra="irq_lines: " + line_names(4097) + "\n"),
         "irq_lines: 4097 interrupt lines; expected at most 4096"),
        ("a CPU listing 4097 interrupt lines",
         platform_with(cpus=1).replace("cluster: 0 }", "cluster: 0, irq: " + line_names(4097) + " }"),
         "cpus[0].irq: 4097 interrupt lines; expected at most 4096"),
        ("4097 clocks", platform_with().replace("clocks:\n", "clocks:\n" + clocks(4096)), "clocks: 4098 clocks; expected at most 4096"),
        ("1025 units", dsus(1025), "units: 1025 units; expected at most 1024"),
    ]
    for what, text, message in too_many:
        run(["run", one, "--platform", write("many.yaml", text)], 2, message, what=what)

    # At the limits. SystemC searches its object lists linearly, so the counts are what bounds the
    # time (80000 memory regions took 21 s, 4096 take 0.6 s); yaml-cpp's node tree is what bounds
    # the memory per byte of YAML.
    at = write("regions.yaml", platform_with(extra=regions(4096)))
    check_cost("4096 memory regions", ["run", one, "--platform", at], os.path.getsize(at), 20, 400)
    # As many CPUs as fit in 1 MiB, each listing all 4096 interrupt lines (4096 x ~25 lookups).
    lines = line_names(4096)
    text = platform_with(cpus=24, extra="irq_lines: " + lines + "\n").replace("cluster: 0 }", "cluster: 0, irq: " + lines + " }")
    at = write("irqs.yaml", text)
    check_cost(f"{len(text) >> 10} KiB of interrupt-line lists", ["run", one, "--platform", at], len(text), 20, 400)
    # 1024 DSU units on 1024 CPUs: each unit is a model of ~100 KB whatever its YAML, so the unit
    # count, not the file, bounds it (about 100 MB).
    at = write("dsus.yaml", dsus(1024))
    check_cost("1024 DSU units", ["run", one, "--platform", at], os.path.getsize(at), 30, 1000)
    # A scenario of 1 MiB of workload phases (about 14000), the scenario file limit.
    phases = "".join(f"  - {{ at: {i}ns, cpu: cpu{i % 8}, rates: {{ inst: 2, l3_access_rd: 1/10 }} }}\n" for i in range(14000))
    at = write("phases.yaml", "name: w\nplatform: arm-default\nduration: 100us\nworkload:\n" + phases)
    check_cost("14000 workload phases (1 MiB scenario)", ["simulate", at, "-o", os.path.join(d, "out-phases")],
               os.path.getsize(at), 30, 400)
    # An event stream of 200000 events (15 MB of JSON lines): the reader keeps the text once and the
    # events, not a second copy per line.
    write("events.jsonl", "".join(f'{{"time_fs": {i * 1000}, "unit": "dsu0", "event": "l3d_cache", "count": 1}}\n'
                                  for i in range(200000)))
    at = write("events.yaml", "name: e\nplatform: arm-default\nduration: 1ms\nevents:\n  - file: events.jsonl\n")
    check_cost("200000 replayed events", ["simulate", at, "-o", os.path.join(d, "out-events")],
               os.path.getsize(os.path.join(d, "events.jsonl")), 60, 8)
    # YAML files are read at most 1 MiB, from any file (a sweep file from /dev/zero included).
    run(["sweep", "/dev/zero"], 2, "larger than 1048576 bytes, the limit for a sweep file", what="a sweep file from /dev/zero")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("limits: all refused with a clear message")
