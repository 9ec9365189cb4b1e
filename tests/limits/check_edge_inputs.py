#!/usr/bin/env python3
"""Crashes and false passes of docs/reliability.md ("Classes of failure"), one case per class:
a directory given as an input file, unbounded non-regular inputs, values at the edge of their type
(register latency, --shard), a scenario sequence still running at the scenario's end, `serve`
asked for another platform, and relative `platform` paths. Every case checks the exit code AND
the message (file:line where the input has lines). Usage: check_edge_inputs.py PMUSIM"""
import os
import subprocess
import sys
import tempfile
import time

PMUSIM = os.path.abspath(sys.argv[1])
ENV = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
failures = []


def run(args, want_exit, want_texts, what, stdin=None, cwd=None, timeout=60, input_text=None):
    start = time.monotonic()
    r = subprocess.run([PMUSIM] + args, capture_output=True, text=True, env=ENV, stdin=stdin, cwd=cwd,
                       timeout=timeout, input=input_text)
    out = r.stderr + r.stdout
    missing = [t for t in ([want_texts] if isinstance(want_texts, str) else want_texts) if t not in out]
    if r.returncode != want_exit or missing:
        failures.append(f"{what}: exit {r.returncode} (want {want_exit}), missing {missing}:\n{out[-800:]}")
    else:
        print(f"ok: {what} ({time.monotonic() - start:.1f} s)")
    return out


PLATFORM = """name: edge
arch: arm
clocks:
  - { name: const, frequency: 100MHz }
  - { name: c, frequency: 1GHz }
cpus:
  - { name: cpu0, clock: c, cluster: 0 }
firmware: { profile: none }
"""

with tempfile.TemporaryDirectory() as d:
    def write(name, text):
        path = os.path.join(d, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    empty_dir = os.path.join(d, "a-folder")
    os.mkdir(empty_dir)

    # A directory given as a file: bad input, never read as an empty file (exit 0).
    # `run` takes folders of sequences (docs/logs.md): an empty one is bad input, not a pass.
    run(["run", "-q", empty_dir], 2, ["a-folder", "holds no .seq file"], "an empty folder as the sequences to run")
    run(["simulate", empty_dir, "-o", os.path.join(d, "o1")], 2, ["a-folder", "is a directory"],
        "a directory as the scenario file")
    # A sweep's scenario: the message said "no file" for a directory.
    sweep_dir = write("sweep-dir.yaml", "scenario: a-folder\ngrid:\n  x: [1, 2]\n")
    run(["sweep", sweep_dir, "-o", os.path.join(d, "sw-dir")], 2,
        ["sweep-dir.yaml:1", "scenario: '" + empty_dir + "' is a directory; expected a scenario file"],
        "a directory as a sweep's scenario")
    run(["sweep", write("sweep-none.yaml", "scenario: nothing.yaml\ngrid:\n  x: [1, 2]\n"), "-o", os.path.join(d, "sw-none")],
        2, ["sweep-none.yaml:1", "nothing.yaml' does not exist"], "a missing sweep scenario")
    scen = write("ev.yaml", "name: ev\nplatform: arm-default\nduration: 1ms\nevents:\n  - file: a-folder\n")
    run(["simulate", scen, "-o", os.path.join(d, "o2")], 2, ["ev.yaml:5", "is a directory"],
        "a directory as the event stream (named at its scenario line)")
    run(["run", "-q", write("dirplat.seq", "platform a-folder\nrun 1 cycles of cpu0\n")], 2,
        ["a-folder", "is a directory"], "a directory as the platform file")
    cat_plat = write("cat.yaml", open(os.path.join(os.path.dirname(__file__), "..", "platforms",
                                                   "imc-bad-catalog.yaml")).read()
                     .replace("imc-no-size.dts", empty_dir))
    run(["run", "-q", write("cat.seq", "run 1us\n"), "--platform", cat_plat], 2, ["a-folder", "is a directory"],
        "a directory as the IMC catalog")

    # A relative catalog path is read from the platform file's folder, whatever the current directory.
    mambo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "platforms", "imc-mambo.yaml")
    run(["imc-dt", "--platform", os.path.abspath(mambo)], 0, ["mcs01"], "an IMC catalog beside its platform, run from /",
        cwd="/")

    # A unit tool's options are read with the one value grammar (docs/values.md): a leading zero is
    # decimal, never octal, '_' separates digits, anything else is refused, exit 2. IBM bit 0 of the
    # vector (2^63) is skiboot's nest_pmus_p9[0], powerbus0.
    top = run(["imc-dt", "--avl-vector", "0x8000_0000_0000_0000"], 0, ["powerbus0@"], "imc-dt --avl-vector with '_'")
    run(["imc-dt", "--avl-vector", "09223372036854775808"], 0, [top], "imc-dt --avl-vector 0922...808 is 2^63")
    none = run(["imc-dt", "--avl-vector", "0"], 0, ["imc-counters"], "imc-dt --avl-vector 0")
    if "powerbus0@" in none:
        failures.append("imc-dt --avl-vector 0 still lists powerbus0")
    run(["imc-dt", "--avl-vector", "0x1_0000_0000_0000_0000"], 2,
        ["--avl-vector: expected an integer", "found '0x1_0000_0000_0000_0000'"], "imc-dt --avl-vector past 2^64")
    run(["imc-dt", "--unit", "imc7"], 2, ["power9-default.yaml", "no power9_imc unit named 'imc7'"],
        "imc-dt --unit naming no unit")

    # A JSON number beyond any type is an input error at its line, not a model error (exit 3).
    write("big.jsonl", '{"time_fs": 1e400, "unit": "dsu0", "event": "l3d_cache", "count": 1}\n')
    big = write("big.yaml", "name: big\nplatform: arm-default\nduration: 1ms\nevents:\n  - file: big.jsonl\n")
    run(["simulate", big, "-o", os.path.join(d, "o3")], 2, ["big.jsonl:1", "number overflow"],
        "an event time of 1e400 fs")

    # Non-regular inputs are read with a bound: /dev/zero is refused at the limit, not read forever.
    run(["run", "-q", "/dev/zero"], 2, ["/dev/zero", "larger than 268435456 bytes"], "run /dev/zero", timeout=120)
    with open("/dev/zero") as zero:
        run(["serve"], 2, ["<stdin>:1", "line longer than 65536 bytes"], "serve < /dev/zero", stdin=zero)

    # Values at the edge of their type.
    lat = write("lat.yaml", PLATFORM + "latency: { register_access: 18446744073709551615fs }\n")
    for q in ([], ["-q"]):
        run(["run", *q, write("lat.seq", "as cpu0 el3\nread SCR_EL3\n"), "--platform", lat], 2,
            ["lat.yaml:9", "latency.register_access", "at most 1s"], f"a register latency of 2^64-1 fs {q}")
    lat1 = write("lat1.yaml", PLATFORM + "latency: { register_access: 1s }\n")
    run(["run", "-q", write("lat1.seq", "run 18446s\nas cpu0 el3\nread SCR_EL3\n"), "--platform", lat1], 2,
        ["lat1.seq:3", "the last instant pmusim can represent"], "an access whose latency ends past 2^64 fs")
    # 2^64-1 cycles after time has passed: the clock's edge index wrapped and the run answered OK
    # with no time passing (tests/sequences/spine/run_cycles_past_end_of_time.seq in a file).
    out = run(["serve", "--platform", "arm-default"], 0, ["ERR", "the last instant pmusim can represent"],
              "serve: run 2^64-1 cycles after 1 us", input_text="run 1us\nrun 18446744073709551615 cycles of cpu0\n")
    if [l.split(" ", 1)[0] for l in out.splitlines() if l.startswith(("OK", "ERR"))] != ["OK", "ERR"]:
        failures.append(f"serve: run 2^64-1 cycles after 1 us: want OK then ERR:\n{out}")
    # Finite values a figure cannot draw (matplotlib's axis arithmetic overflows near 1e308) are
    # refused with the row and column, exit 2, not a traceback (exit 1); at 1e300 they are drawn.
    for name, text, want in (("huge_y", "point,f,exit,m\n0,1,0,1e308\n1,2,0,-1e308\n", "huge_y.csv:2: m: "),
                             ("huge_x", "point,f,exit,m\n0,-1e308,0,1\n1,1e308,0,2\n", "huge_x.csv:2: f: ")):
        run(["plot", "sweep", write(f"{name}.csv", text), "-o", os.path.join(d, f"{name}.svg"), "--opt", "x=f",
             "--opt", "y=m"], 2, [want, "expected a number of magnitude at most 1e+300"], f"plot sweep: {name} = ±1e308")
    run(["plot", "sweep", write("big_y.csv", "point,f,exit,m\n0,1,0,1e300\n1,2,0,-1e300\n"), "-o",
         os.path.join(d, "big_y.svg"), "--opt", "x=f", "--opt", "y=m"], 0, [], "plot sweep: ±1e300 is drawn")
    sweep = write("sweep.yaml", "scenario: ev.yaml\nparameters: {}\n")
    for shard in ["0/18446744073709551616", "0/99999999999999999999", "-1/4", "1/1", "0/0", "+0/2", "0/ 2"]:
        run(["sweep", sweep, "--shard", shard, "-o", os.path.join(d, "sw")], 2, [f"--shard {shard}", "0 <= K < N"],
            f"--shard {shard}")

    # A misspelled sweep parameter is refused before the first point runs, at its sweep line.
    write("p.yaml", "name: p\nplatform: arm-default\nduration: 1ms\nparams:\n  clk: 1GHz\n")
    typo = write("typo.yaml", "scenario: p.yaml\ngrid:\n  clk: [1GHz, 2GHz]\n  clck: [1, 2]\n")
    run(["sweep", typo, "-o", os.path.join(d, "typo-out")], 2, ["typo.yaml:4", "'clck' is not declared"],
        "a misspelled sweep parameter")
    if os.path.exists(os.path.join(d, "typo-out", "points")):
        failures.append("a misspelled sweep parameter: points ran before the refusal")

    # A scenario sequence still running at the scenario's end is bad input, not silently dropped.
    late = write("late.yaml", "name: late\nplatform: arm-default\nduration: 10us\nsequences:\n"
                 "  - at: 5us\n    text: |\n      run 10us\n      as cpu0 el3\n      read SCR_EL3 == 0x1234\n")
    run(["simulate", late, "-o", os.path.join(d, "late-out"), "--no-progress"], 2,
        ["late.yaml:7", "still running when the scenario ended at 10 us"], "a sequence running past the end")
    at_end = write("at_end.yaml", "name: at_end\nplatform: arm-default\nduration: 10us\nsequences:\n"
                   "  - at: 10us\n    text: |\n      as cpu0 el3\n      read SCR_EL3 == 0x1234\n")
    run(["simulate", at_end, "-o", os.path.join(d, "end-out"), "--no-progress"], 1, ["at_end.yaml:8", "0x1234"],
        "a sequence starting at the end runs (its failing expectation counts)")

    # serve cannot switch platforms: another one is ERR, its own is OK.
    out = run(["serve", "--platform", "arm-default"], 0, [], "serve: platform statements",
              input_text="platform arm-default\nplatform power9-default\nplatform nothing.yaml\n")
    answers = [line.split(" ", 1)[0] for line in out.strip().splitlines() if line.startswith(("OK", "ERR"))]
    if answers != ["OK", "ERR", "ERR"]:
        failures.append(f"serve platform answers {answers}, want OK ERR ERR:\n{out}")

    # Relative platform paths are read from the sequence file's folder, from any current directory.
    write("plats/p.yaml", PLATFORM)
    rel = write("seqs/rel.seq", "platform ../plats/p.yaml\nas cpu0 el3\nread SCR_EL3\n")
    run(["run", "-q", rel], 0, [], "a relative platform path, run from another folder", cwd="/")
    old = write("seqs/old.seq", "platform plats/p.yaml\nas cpu0 el3\nread SCR_EL3\n")
    run(["run", "-q", old], 2, ["old.seq:1", "relative paths are read from this file's folder",
                                "write it as '../plats/p.yaml'"], "the old form says how to write it", cwd=d)
    run(["run", "-q", old], 2, ["old.seq:1", "seqs/plats/p.yaml does not exist"], "a missing platform file", cwd="/")

    # Memory regions are pages reserved without backing: a 64 GiB DRAM costs what the run touches.
    # The run writes and reads back its first, a middle and its last bytes; its peak RSS stays far
    # below the region.
    big = PLATFORM + "memory:\n  - { name: dram, base: 0x1000000000, size: 64GiB, endianness: little }\n"
    write("plats/big.yaml", big)
    seq = write("seqs/big.seq", "platform ../plats/big.yaml\nas cpu0 el1 nonsecure\n"
                "write64 0x1000000000 0x1122334455667788\nread64 0x1000000000 == 0x1122334455667788\n"
                "write32 0x1800000000 0xcafe\nread32 0x1800000000 == 0xcafe\n"
                "write64 0x1FFFFFFFF8 0x8877665544332211\nread64 0x1FFFFFFFF8 == 0x8877665544332211\n"
                "read64 0x1FFFFFFFF0 == 0\n")
    child = subprocess.Popen([PMUSIM, "run", seq], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=ENV)
    out = child.stdout.read().decode(errors="replace")
    _, status, usage = os.wait4(child.pid, 0)
    peak_mib = usage.ru_maxrss / 1024
    if os.waitstatus_to_exitcode(status) != 0 or "expectations: 7 passed, 0 failed" not in out or peak_mib > 512:
        failures.append(f"a 64 GiB region: exit {os.waitstatus_to_exitcode(status)}, peak RSS {peak_mib:.0f} MiB "
                        f"(want 0, 7 passed, well under 512 MiB):\n{out[-800:]}")
    else:
        print(f"ok: a 64 GiB memory region, touched at three places (peak RSS {peak_mib:.0f} MiB)")
    # A region the host cannot reserve addresses for (2^63 bytes) is bad input at its line.
    huge = PLATFORM + "memory:\n  - { name: dram, base: 0x0, size: 0x8000000000000000, endianness: little }\n"
    write("plats/huge.yaml", huge)
    run(["run", "-q", write("seqs/huge.seq", "platform ../plats/huge.yaml\nrun 1 cycles of cpu0\n")], 2,
        ["huge.yaml:10", "cannot reserve", "memory dram"], "a region the host cannot reserve")

    # POWER9 platform mistakes are bad input at their line (they ended as exit 3 "model error" when
    # the OPAL profile's first write missed the HOMER, or the bus refused a window): each chip's
    # 4 MiB HOMER image in one big-endian memory region, chips' images apart, XSCOM windows inside
    # 2^64 and apart from every other window.
    p9 = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "platforms",
                           "power9-default.yaml")).read()
    homer_line = "  - { name: homer, base: 0x10000000, size: 4MiB, endianness: big }\n"
    params = "params: { chips: 1, homer_base: 0x10000000, core_update_period: 1ms }"
    assert homer_line in p9 and params in p9, "platforms/power9-default.yaml changed: update this test"
    mistakes = [
        ("p9-no-homer", p9.replace(homer_line, ""), ["units[0].params.homer_base", "chip 0's HOMER image",
                                                      "not inside one memory region"]),
        ("p9-small-homer", p9.replace("size: 4MiB, endianness: big", "size: 1MiB, endianness: big"),
         ["chip 0's HOMER image (4 MiB at 0x10000000) is not inside one memory region"]),
        ("p9-little-homer", p9.replace("size: 4MiB, endianness: big", "size: 4MiB, endianness: little"),
         ["in memory region 'homer'", "expected endianness: big"]),
        ("p9-two-chips-one-homer", p9.replace("chips: 1,", "chips: 2,"), ["chip 1's HOMER image (4 MiB at 0x10400000)"]),
        ("p9-stride-0", p9.replace("chips: 1,", "chips: 2, homer_stride: 0,"),
         ["units[0].params.homer_stride", "expected at least 0x400000 with 2 chips"]),
        ("p9-homer-wrap", p9.replace("homer_base: 0x10000000", "homer_base: 0xFFFFFFFFFFC00000"),
         ["4 MiB at 0xffffffffffc00000"]),
        ("p9-xscom-wrap", p9.replace(params, params[:-2] + ", xscom_base: 0xFFFFFFFF00000000 }"),
         ["unit imc0: window imc0.xscom0 at 0xffffffff00000000", "would end past 2^64"]),
        ("p9-xscom-overlap", p9.replace(homer_line, homer_line + "  - { name: xs, base: 0x603FC00000000, size: 1MiB, "
                                        "endianness: big }\n"),
         ["unit imc0: window imc0.xscom0", "overlaps xs", "expected windows apart"]),
    ]
    for name, text, texts in mistakes:
        path = write(f"plats/{name}.yaml", text)
        line = next(i + 1 for i, l in enumerate(text.splitlines()) if "params: { chips" in l) \
            if "xscom" not in name else next(i + 1 for i, l in enumerate(text.splitlines()) if "- name: imc0" in l)
        run(["run", "-q", write(f"seqs/{name}.seq", f"platform ../plats/{name}.yaml\nrun 1us\n")], 2,
            [f"{name}.yaml:{line}: "] + texts, f"POWER9 mistake {name}")

    # Periods of 1 fs: the work a scenario creates is bounded (10^6 samples, 10^6 runs of one
    # repeated sequence), refused at the period's line before anything runs.
    head = "name: tiny\nplatform: arm-default\nduration: 1ms\n"
    tiny = [
        ("sample-every", head + "sample:\n  every: 1fs\n", ["tiny-sample-every.yaml:5", "sample.every: 1 fs over 1 ms",
                                                           "more than 1000000 samples"]),
        ("sample-cycles", head + "sample:\n  clock: cpu0\n  every_cycles: 1\n",
         ["tiny-sample-cycles.yaml:6", "sample.every_cycles: 1 cycles of cpu0 over 1 ms", "more than 1000000 samples"]),
        ("sequence-every", head + "sequences:\n  - every: 1fs\n    text: |\n      run 1 cycles of cpu0\n",
         ["tiny-sequence-every.yaml:5", "sequences[0].every: 1 fs from 0 s to the end (1 ms)",
          "more than 1000000: expected a longer period or a count"]),
    ]
    for name, text, texts in tiny:
        path = write(f"tiny-{name}.yaml", text)
        run(["simulate", path, "-o", os.path.join(d, f"tiny-{name}-out"), "--no-progress"], 2, texts,
            f"a period of 1 fs: {name}")
    for param, text in (("occ_tick", p9.replace(params, params[:-2] + ", occ_tick: 1fs }")),
                        ("core_update_period", p9.replace("core_update_period: 1ms", "core_update_period: 1fs"))):
        write(f"plats/p9-{param}.yaml", text)
        line = next(i + 1 for i, l in enumerate(text.splitlines()) if "params: { chips" in l)
        run(["run", "-q", write(f"seqs/p9-{param}.seq", f"platform ../plats/p9-{param}.yaml\nrun 1us\n")], 2,
            [f"p9-{param}.yaml:{line}: units[0].params.{param}", "expected a duration of at least 1us"],
            f"a period of 1 fs: IMC {param}")
    # At the bound and with a count, they run.
    ok = write("tiny-ok.yaml", head + "sample:\n  every: 1us\nsequences:\n  - every: 1fs\n    count: 3\n"
               "    text: |\n      run 1 cycles of cpu0\n")
    run(["simulate", ok, "-o", os.path.join(d, "tiny-ok-out"), "--no-progress"], 0, [], "1000 samples and 3 runs")

if failures:
    print("\n\n".join(failures))
    sys.exit(1)
print("edge inputs: all refused or run as documented")
