#!/usr/bin/env python3
"""-C KEY=VALUE parameter overrides (docs/platform-config.md, "Overrides on the command line"):
each command applies them (run, serve, simulate, sweep, --list-params), over a built-in platform
and a YAML file alike; they are recorded in the JSON log's header record, the JUnit properties
and simulate's config.json; a key the schema lacks, a value of the wrong type or out of range
is exit 2 with a message naming the -C argument and what was expected.

Expected values come from the specifications, not from pmusim:
- CLUSTERPMCR_EL1.N, bits [15:11], is the number of event counters (Arm DSU TRM; Linux
  drivers/perf/arm_dsu_pmu.c CLUSTERPMCR_N_SHIFT 11, CLUSTERPMCR_N_MASK 0x1f): 4 counters read
  as 0x2000 under mask 0xF800, 6 (the arm-default) as 0x3000.
- HAFGRTR_EL2 (op0=3 op1=4 CRn=3 CRm=1 op2=6) exists only with FEAT_FGT (Arm ARM D24.2.61):
  without it the access is UNDEFINED.
Usage: check_overrides.py PMUSIM"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ENV = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
checks = 0

SEQ = """platform arm-default
as cpu0 el1
read CLUSTERPMCR_EL1 == 0x2000 mask 0xF800   # N = 4: the counters -C gave
as cpu0 el2
read S3_4_C3_C1_6                             # HAFGRTR_EL2: ok only with FEAT_FGT
"""


def pmusim(exe, *args, stdin=None, cwd=None):
    return subprocess.run([exe, *args], env=ENV, capture_output=True, text=True, input=stdin, cwd=cwd, timeout=120)


def check(cond, what):
    global checks
    checks += 1
    assert cond, what


def refused(p, argument, *expected):
    """Exit 2 and a message naming the -C argument and what was expected."""
    check(p.returncode == 2, f"-C {argument}: exit {p.returncode}, want 2; {p.stderr}")
    check(f"-C {argument}:" in p.stderr, f"message does not name -C {argument}: {p.stderr}")
    for e in expected:
        check(e in p.stderr, f"-C {argument}: message lacks {e!r}: {p.stderr}")


def main():
    exe = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp()
    try:
        seq = os.path.join(tmp, "ov.seq")
        open(seq, "w").write(SEQ)
        C = ["-C", "dsu0.counters=4", "-C", "cpu0.features.fgt=true"]

        # --list-params shows the values the overrides give; full paths and short keys alike.
        p = pmusim(exe, "--list-params", "-C", "units.dsu0.params.counters=4", "-C", "cpu0.features.fgt=true")
        check(p.returncode == 0, p.stderr)
        rows = {l.split()[0]: l.split()[1] for l in p.stdout.splitlines()[2:] if l.strip() and not l.startswith(" ")}
        check(rows["units.dsu0.params.counters"] == "4" and rows["units.dsu1.params.counters"] == "6", rows)
        check(rows["cpus.cpu0.features.fgt"] == "true" and rows["cpus.cpu1.features.fgt"] == "false", rows)
        p = pmusim(exe, "--list-params", "-C", "cmn0.frequency=500MHz")  # cmn0 is a unit and a clock
        check("clocks.cmn0.frequency" in p.stdout and "500MHz" in p.stdout.split("clocks.cmn0.frequency")[1].split("\n")[0],
              p.stdout + p.stderr)

        # run: without overrides the sequence fails (6 counters, no FGT); with them it passes.
        p = pmusim(exe, "run", "--quiet", seq)
        check(p.returncode == 1, f"run without -C: exit {p.returncode}, want 1: {p.stdout}{p.stderr}")
        log, junit = os.path.join(tmp, "log.jsonl"), os.path.join(tmp, "junit.xml")
        p = pmusim(exe, "run", "--quiet", seq, *C, "--log-json", log, "--junit", junit)
        check(p.returncode == 0, f"run with -C: exit {p.returncode}: {p.stdout}{p.stderr}")
        header = json.loads(open(log).readline())
        check(header["op"] == "header" and header["platform"] == "arm-default", header)
        check(header["overrides"] == [
            {"argument": "dsu0.counters=4", "parameter": "units.dsu0.params.counters", "value": "4"},
            {"argument": "cpu0.features.fgt=true", "parameter": "cpus.cpu0.features.fgt", "value": "true"}], header)
        props = [(q.get("name"), q.get("value")) for q in ET.parse(junit).getroot().iter("property")
                 if q.get("name") != "simulated_seconds"]  # every suite and testcase has that one
        check(props == [("-C", "dsu0.counters=4"), ("-C", "cpu0.features.fgt=true")], props)
        # without -C, the log has no header record (outputs of runs without overrides unchanged)
        p = pmusim(exe, "run", "--quiet", seq, "--log-json", log)
        check(json.loads(open(log).readline())["op"] != "header", "header without overrides")

        # many files in one call: each child applies the overrides, each suite records them
        seq2 = os.path.join(tmp, "ov2.seq")
        shutil.copy(seq, seq2)
        p = pmusim(exe, "run", "--quiet", seq, seq2, "-j", "2", *C, "--junit", junit)
        check(p.returncode == 0, f"two files with -C: exit {p.returncode}: {p.stdout}{p.stderr}")
        suites = ET.parse(junit).getroot().findall("testsuite")
        check(len(suites) == 2 and all(len(s.findall("properties/property[@name='-C']")) == 2 for s in suites), ET.tostring(ET.parse(junit).getroot()))

        # a YAML platform file takes them too
        yaml_file = os.path.join(tmp, "board.yaml")
        shutil.copy(os.path.join(ROOT, "platforms", "arm-default.yaml"), yaml_file)
        p = pmusim(exe, "run", "--quiet", seq, "--platform", yaml_file, *C)
        check(p.returncode == 0, f"run on a YAML file with -C: exit {p.returncode}: {p.stdout}{p.stderr}")

        # serve
        p = pmusim(exe, "serve", *C, "--log-json", log, stdin="as cpu0 el1\nread CLUSTERPMCR_EL1\n")
        check(p.returncode == 0, p.stderr)
        check(json.loads(open(log).readline())["op"] == "header", "serve: no header record")
        answers = [l for l in p.stdout.splitlines() if "0x" in l]
        check(answers and int(answers[-1].split("0x")[1].split()[0], 16) & 0xF800 == 0x2000, p.stdout)

        # simulate: config.json records them and the platform listing shows their values
        out = os.path.join(tmp, "sim")
        p = pmusim(exe, "simulate", "scenarios/examples/tour.yaml", "-o", out, "--no-progress", *C, cwd=ROOT)
        check(p.returncode == 0, p.stderr)
        cfg = json.load(open(os.path.join(out, "config.json")))
        check([o["parameter"] for o in cfg["overrides"]] == ["units.dsu0.params.counters", "cpus.cpu0.features.fgt"], cfg["overrides"])
        check(cfg["platform_params"]["units.dsu0.params.counters"] == "4", cfg["platform_params"])
        p = pmusim(exe, "simulate", "scenarios/examples/tour.yaml", "-o", out, "--no-progress", cwd=ROOT)
        check(json.load(open(os.path.join(out, "config.json")))["overrides"] == [], "overrides without -C")

        # sweep: every point gets them; a bad one is refused before any point runs
        sweep = os.path.join(tmp, "sweep.yaml")
        open(sweep, "w").write("scenario: %s\ngrid:\n  set.clocks.const.frequency: [100MHz, 50MHz]\n"
                               % os.path.join(ROOT, "scenarios", "examples", "tour.yaml"))
        sw = os.path.join(tmp, "sw")
        p = pmusim(exe, "sweep", sweep, "-o", sw, "--no-progress", "-C", "dsu0.counters=4")
        check(p.returncode == 0, f"sweep with -C: exit {p.returncode}: {p.stderr}")
        for point in ("p00000", "p00001"):
            cfg = json.load(open(os.path.join(sw, "points", point, "config.json")))
            check(cfg["platform_params"]["units.dsu0.params.counters"] == "4", (point, cfg["overrides"]))
        p = pmusim(exe, "sweep", sweep, "-o", os.path.join(tmp, "sw2"), "--no-progress", "-C", "dsu0.counter=4")
        refused(p, "dsu0.counter=4", "counters")
        check(not os.path.exists(os.path.join(tmp, "sw2", "points")), "a point ran despite a bad -C")

        # bad overrides, in each command: unknown key, wrong type, out of range, malformed
        bad = [
            (["dsu0.countrs=4"], "dsu0.countrs=4", ["no parameter 'dsu0.countrs'", "counters"]),
            (["nosuch.key=1"], "nosuch.key=1", ["no parameter 'nosuch.key'"]),
            (["cpu0.features.fgt=maybe"], "cpu0.features.fgt=maybe", ["expected", "true or false", "maybe"]),
            (["dsu0.counters=many"], "dsu0.counters=many", ["expected an integer", "many"]),
            (["dsu0.counters=99"], "dsu0.counters=99", ["expected an integer in 1..31", "99"]),
            (["dsu0.variant=dsu-999"], "dsu0.variant=dsu-999", ["dsu-110"]),
            (["cmn0.frequency=fast"], "cmn0.frequency=fast", ["frequency"]),
            (["dsu0.counters"], "dsu0.counters", ["expected KEY=VALUE"]),
            # a value the unit itself refuses when it is built (a DSU-120 has at most 8 counters; TRM120)
            (["dsu0.variant=dsu-120", "dsu0.counters=12"], "dsu0.counters=12", ["DSU-120"]),
        ]
        for args, argument, expected in bad:
            cs = [a for x in args for a in ("-C", x)]
            refused(pmusim(exe, "run", "--quiet", seq, *cs, "--junit", junit), argument, *expected)
            errors = [e.get("message") for e in ET.parse(junit).getroot().iter("error")]
            check(errors and f"-C {argument}" in errors[0], f"junit error lacks the -C argument: {errors}")
            refused(pmusim(exe, "serve", *cs, stdin=""), argument, *expected)
            if "DSU-120" not in expected:  # --list-params builds no unit, so cannot see that one
                refused(pmusim(exe, "--list-params", *cs), argument, *expected[:1])
        # before the command, -C would apply to nothing: refused rather than dropped
        refused(pmusim(exe, "-C", "dsu0.counters=4", "run", seq), "dsu0.counters=4", "after the command")
        refused(pmusim(exe, "simulate", "scenarios/examples/tour.yaml", "-o", out, "--no-progress",
                       "-C", "dsu0.counters=99", cwd=ROOT), "dsu0.counters=99", "1..31")
    finally:
        shutil.rmtree(tmp)
    print(f"overrides: {checks} checks passed")


if __name__ == "__main__":
    main()
