#!/usr/bin/env python3
"""JUnit on every exit, and many files in one call (docs/sequence-language.md, "JUnit" and
"Many files in one call"). Expected verdicts follow from each fixture's statements
(tests/outputs/many/), never from a previous run. Usage: check_junit.py PMUSIM"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from junit_shape import check_junit  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
ENV = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")


def pmusim(exe, *args, cwd):
    p = subprocess.run([exe, *args], cwd=cwd, env=ENV, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def cases(root):
    def verdict(c):
        v = [x for x in c if x.tag in ("failure", "error")]
        return (c.get("name"), v[0].tag if v else "pass", v[0].get("message") if v else "")
    return {s.get("name"): [verdict(c) for c in s.iter("testcase")] for s in root}


def masked(text):
    """JUnit's time attributes are host wall-clock seconds: the only text that differs between runs."""
    return re.sub(r'time="[0-9.]+"', 'time="-"', text)


def main():
    exe = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(here, "many"), os.path.join(tmp, "many"))
        junit = os.path.join(tmp, "junit.xml")

        # A parse error replaces a stale report, with an <error> naming file:line.
        open(junit, "w").write("<testsuites><testsuite name='stale' tests='5'/></testsuites>")
        rc, _, err = pmusim(exe, "run", "many/more/parse_error.seq", "--junit", junit, "-q", cwd=tmp)
        assert rc == 2, (rc, err)
        c = cases(check_junit(junit))
        assert list(c) == ["many/more/parse_error.seq"], c
        [(name, kind, message)] = c["many/more/parse_error.seq"]
        assert kind == "error" and message.startswith("many/more/parse_error.seq:2: "), (name, kind, message)

        # An unknown register is found before anything runs (docs/sequence-language.md, "Names"):
        # one <error> named after the file, its message at the line; nothing ran.
        rc, _, _ = pmusim(exe, "run", "many/more/unknown_register.seq", "--junit", junit, "-q", cwd=tmp)
        assert rc == 2, rc
        got = cases(check_junit(junit))["many/more/unknown_register.seq"]
        assert [k for _, k, _ in got] == ["error"], got
        assert got[0][0] == "many/more/unknown_register.seq" and "NO_SUCH_REGISTER_EL1" in got[0][2] \
            and got[0][2].startswith("many/more/unknown_register.seq:3: "), got

        # A missing file is an error too, with a report.
        rc, _, _ = pmusim(exe, "run", "many/none.seq", "--junit", junit, cwd=tmp)
        assert rc == 2 and cases(check_junit(junit))["many/none.seq"][0][1] == "error", rc

        # Many files: a folder expands to its .seq files, sorted; one testsuite per file in the
        # order given; the worst exit code; the same output whatever -j is.
        outs = []
        for jobs in ("1", "3"):
            rc, out, err = pmusim(exe, "run", "many/pass.seq", "many/fail.seq", "many/more", "-j", jobs,
                                  "--junit", junit, "-q", cwd=tmp)
            assert rc == 2, (jobs, rc, out, err)
            # AddressSanitizer's notes (a process id each) are the sanitizer build's, not pmusim's.
            err = "".join(l for l in err.splitlines(True) if not l.startswith("==") or "WARNING: ASan" not in l)
            outs.append((out, err, masked(open(junit).read())))
            root = check_junit(junit)
            c = cases(root)
            assert list(c) == ["many/pass.seq", "many/fail.seq", "many/more/parse_error.seq",
                               "many/more/unknown_register.seq"], list(c)
            assert [k for _, k, _ in c["many/pass.seq"]] == ["pass", "pass"], c["many/pass.seq"]
            assert [k for _, k, _ in c["many/fail.seq"]] == ["failure", "pass"], c["many/fail.seq"]
            assert c["many/fail.seq"][0][2].startswith("many/fail.seq:3: "), c["many/fail.seq"]
            assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("6", "1", "2"), root.attrib
            lines = out.splitlines()
            assert lines[-1] == "pmusim: 4 files: 1 passed, 1 failed, 2 errors", lines
            assert [l.split()[0] for l in lines if l.split()[0] in ("PASS", "FAIL", "ERROR")] == \
                ["PASS", "FAIL", "ERROR", "ERROR"], lines
        assert outs[0] == outs[1], "the output depends on -j"

        # Exit code of a many-file run is the worst: all passing gives 0, a failure 1.
        rc, out, _ = pmusim(exe, "run", "many/pass.seq", "many/pass.seq", "-j", "2", cwd=tmp)
        assert rc == 0 and out.splitlines()[-1] == "pmusim: 2 files: 2 passed, 0 failed, 0 errors", (rc, out)
        rc, _, _ = pmusim(exe, "run", "many/pass.seq", "many/fail.seq", cwd=tmp)
        assert rc == 1, rc
        # --log-json and --vcd describe one run.
        rc, _, err = pmusim(exe, "run", "many/pass.seq", "many/fail.seq", "--vcd", "w.vcd", cwd=tmp)
        assert rc == 2 and "single sequence file" in err, (rc, err)

        # serve writes the same reports: a refused line is an <error>, a failed check a <failure>.
        p = subprocess.run([exe, "serve", "--junit", junit, "--log-json", "log.jsonl", "--vcd", "w.vcd"], cwd=tmp,
                           env=ENV, input="as cpu0 el3\nwrite AMCNTENSET0_EL0 0x1\nread AMCNTENSET0_EL0 == 0x2\n"
                                          "read NOPE_EL1\n", capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p
        got = cases(check_junit(junit))["<stdin>"]
        assert [k for _, k, _ in got] == ["pass", "failure", "error"], got
        assert os.path.getsize(os.path.join(tmp, "log.jsonl")) > 0 and open(os.path.join(tmp, "w.vcd")).read().startswith("$timescale")
        leftovers = [f for f in os.listdir(tmp) if ".tmp-" in f]
        assert not leftovers, leftovers
        stable_names_and_times(exe, tmp)
    print("junit: 1 passed, 0 failed")


def stable_names_and_times(exe, tmp):
    """Names without line numbers, labels, --junit-testcases file, wall time and simulated time,
    the report folder made before anything runs, a report for a folder without .seq files."""
    body = ("as cpu0 el3\n# test: enable the cycle counter\nwrite AMCNTENSET0_EL0 0x1\n"
            "read AMCNTENSET0_EL0 == 0x1 mask 0x1\nrun 1us\nread AMCNTENSET0_EL0 == 0x1 mask 0x1\n"
            "read AMCNTENSET0_EL0 == 0x0 mask 0x1\n")
    a, b = os.path.join(tmp, "a.seq"), os.path.join(tmp, "b.seq")
    open(a, "w").write("platform arm-default\n" + body)
    open(b, "w").write("platform arm-default\n# a comment moves every line\n\n" + body)
    names = []
    for f in (a, b):
        report = os.path.join(tmp, "new", "folder", os.path.basename(f) + ".xml")  # folders made first
        rc, _, err = pmusim(exe, "run", f, "--junit", report, "-q", cwd=tmp)
        assert rc == 1, (rc, err)
        root = check_junit(report)
        names.append([n for n, _, _ in cases(root)[f]])
        suite = root.find("testsuite")
        sim = suite.find("properties/property[@name='simulated_seconds']").get("value")
        assert sim == "0.000001", sim  # `run 1us` and accesses without latency
        assert float(suite.get("time")) > 0, suite.attrib  # host seconds: a run takes some
    assert names[0] == names[1], names  # adding lines renames nothing
    assert names[0] == ["enable the cycle counter: write AMCNTENSET0_EL0 0x1",
                        "enable the cycle counter: read AMCNTENSET0_EL0 == 0x1 mask 0x1",
                        "enable the cycle counter: read AMCNTENSET0_EL0 == 0x1 mask 0x1 (2)",
                        "enable the cycle counter: read AMCNTENSET0_EL0 == 0x0 mask 0x1"], names[0]
    # One testcase per file: a failure with the failed expectation's message.
    report = os.path.join(tmp, "per_file.xml")
    rc, _, _ = pmusim(exe, "run", a, os.path.join(here, "many", "pass.seq"), "--junit", report,
                      "--junit-testcases", "file", "-q", cwd=tmp)
    c = cases(check_junit(report))
    [(name, kind, message)] = c[a]
    assert rc == 1 and name == a and kind == "failure" and "\n" not in message \
        and message.startswith(f"{a}:8: read AMCNTENSET0_EL0: expected 0x0 mask 0x1"), c
    assert [k for _, k, _ in c[os.path.join(here, "many", "pass.seq")]] == ["pass"], c
    # A folder without .seq files still gets a report with its error.
    empty = os.path.join(tmp, "empty")
    os.mkdir(empty)
    rc, _, err = pmusim(exe, "run", empty, "--junit", report, cwd=tmp)
    assert rc == 2 and [k for _, k, _ in cases(check_junit(report))[empty]] == ["error"], (rc, err)
    # A report that cannot be written is refused before anything runs.
    blocker = os.path.join(tmp, "blocker")
    open(blocker, "w").write("")
    rc, out, err = pmusim(exe, "run", a, "--junit", os.path.join(blocker, "r.xml"), cwd=tmp)
    assert rc == 2 and "--junit" in err and out == "", (rc, out, err)


if __name__ == "__main__":
    main()
