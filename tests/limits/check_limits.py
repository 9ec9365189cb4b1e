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


def platform_with(cpus=2, frequency="2GHz", extra=""):
    text = "name: limits\narch: arm\nclocks:\n  - { name: const, frequency: 100MHz }\n"
    text += f"  - {{ name: c, frequency: {frequency} }}\ncpus:\n"
    for i in range(cpus):
        text += f"  - {{ name: cpu{i}, clock: c, cluster: 0 }}\n"
    return text + "firmware: { profile: none }\n" + extra


with tempfile.TemporaryDirectory() as d:
    def write(name, text):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        return path

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

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("limits: all refused with a clear message")
