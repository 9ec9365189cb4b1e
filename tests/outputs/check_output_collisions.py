#!/usr/bin/env python3
"""Two writers, one place (docs/reliability.md "Classes of failure"):
  - two outputs of one run naming one file (`--log-json o.x --junit o.x`, also through `./`, a
    link or `..`) are refused before any work, exit 2, nothing written: one replaced the other;
  - two sweeps writing one -o folder: the second is refused (exit 2, naming the folder) while the
    first holds it, so no point is run twice at once, and no collision (simulate refusing a
    point folder in use, exit 2) is recorded as a point's result that every resume would keep.
Usage: check_output_collisions.py PMUSIM (run from the source tree)"""
import csv
import fcntl
import os
import subprocess
import sys
import tempfile

PMUSIM = os.path.abspath(sys.argv[1])
ENV = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
failures = []


def run(args, want_exit, want_texts, what, cwd=None):
    r = subprocess.run([PMUSIM] + args, capture_output=True, text=True, env=ENV, cwd=cwd, timeout=300,
                       stdin=subprocess.DEVNULL)
    out = r.stderr + r.stdout
    missing = [t for t in want_texts if t not in out]
    if r.returncode != want_exit or missing:
        failures.append(f"{what}: exit {r.returncode} (want {want_exit}), missing {missing}:\n{out[-800:]}")
    else:
        print(f"ok: {what}")
    return r


with tempfile.TemporaryDirectory() as d:
    seq = os.path.join(d, "a.seq")
    with open(seq, "w") as f:
        f.write("platform arm-default\nas cpu0 el3\nrun 1us\nread AMEVCNTR00_EL0 == 2000\n")
    os.mkdir(os.path.join(d, "sub"))
    os.symlink("o.x", os.path.join(d, "link.x"))
    same = [
        (["--log-json", "o.x", "--junit", "o.x"], "--log-json and --junit"),
        (["--junit", "o.x", "--vcd", "./o.x"], "--junit and --vcd"),
        (["--log-json", "o.x", "--vcd", "sub/../o.x"], "--log-json and --vcd"),
        (["--log-json", "link.x", "--junit", "o.x"], "--log-json and --junit"),
    ]
    for args, options in same:
        run(["run", "-q", seq, *args], 2, ["o.x", options + " name the same file"], f"run {' '.join(args)}", cwd=d)
        if os.path.exists(os.path.join(d, "o.x")):
            failures.append(f"run {' '.join(args)}: wrote o.x although refused")
            os.remove(os.path.join(d, "o.x"))
    r = subprocess.run([PMUSIM, "serve", "--log-json", "s.x", "--vcd", "s.x"], input="run 1 cycles\n", text=True,
                       capture_output=True, env=ENV, cwd=d, timeout=60)
    if r.returncode != 2 or "--log-json and --vcd name the same file" not in r.stderr or os.path.exists(
            os.path.join(d, "s.x")):
        failures.append(f"serve --log-json s.x --vcd s.x: exit {r.returncode}, {r.stderr[-400:]}")
    else:
        print("ok: serve --log-json s.x --vcd s.x")
    # Distinct names, and special files (streamed in place), are still fine.
    run(["run", "-q", seq, "--log-json", "o.jsonl", "--junit", "o.xml", "--vcd", "/dev/null"], 0, [],
        "distinct outputs", cwd=d)
    run(["run", "-q", seq, "--log-json", "/dev/null", "--vcd", "/dev/null"], 0, [], "two outputs to /dev/null", cwd=d)

    # Sweeps: while one holds the folder (here: this script, through the same flock the sweep
    # takes), another is refused before it removes or runs anything.
    scen = os.path.join(d, "s.yaml")
    with open(scen, "w") as f:
        f.write("name: s\nplatform: arm-default\nduration: 10us\nparams:\n  clk: 1GHz\nset:\n  clocks.dsu0.frequency: ${clk}\n")
    sweep = os.path.join(d, "sweep.yaml")
    with open(sweep, "w") as f:
        f.write("scenario: s.yaml\ngrid:\n  clk: [250MHz, 500MHz, 1GHz]\nstats: [dsu0.cycles]\n")
    out = os.path.join(d, "out")
    run(["sweep", sweep, "-o", out, "--no-progress"], 0, [], "a sweep")
    before = open(os.path.join(out, "results.csv")).read()
    fd = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    run(["sweep", sweep, "-o", out, "--no-progress", "--no-resume"], 2,
        [out, "another pmusim sweep is writing this output folder"], "a second sweep into a folder in use")
    os.close(fd)
    if not os.path.exists(os.path.join(out, "results.csv")) or open(os.path.join(out, "results.csv")).read() != before:
        failures.append("the refused sweep changed the first one's results.csv")
    # Two at once, for real: whichever comes second is refused, and every recorded point is a result.
    procs = [subprocess.Popen([PMUSIM, "sweep", sweep, "-o", os.path.join(d, "both"), "--no-progress", "-j", "2"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV) for _ in range(2)]
    results = [(p.wait(timeout=300), p.stderr.read()) for p in procs]
    codes = sorted(c for c, _ in results)
    if codes not in ([0, 0], [0, 2]) or any(c == 2 and "another pmusim sweep" not in e for c, e in results):
        failures.append(f"two sweeps at once: exits {codes}: {[e[-300:] for _, e in results]}")
    rows = list(csv.DictReader(open(os.path.join(d, "both", "results.csv"))))
    if [r["exit"] for r in rows] != ["0", "0", "0"]:
        failures.append(f"two sweeps at once: a point recorded as failed: {rows}")
    else:
        print(f"ok: two sweeps at once into one folder (exits {codes})")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("outputs: no two writers share a file or a sweep folder")
