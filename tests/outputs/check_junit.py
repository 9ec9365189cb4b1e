#!/usr/bin/env python3
"""JUnit on every exit, and many files in one call (docs/sequence-language.md, "JUnit" and
"Many files in one call"). Expected verdicts follow from each fixture's statements
(tests/outputs/many/), never from a previous run. Usage: check_junit.py PMUSIM"""
import os
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
    return {s.get("name"): [(c.get("name"), c[0].tag if len(c) else "pass", c[0].get("message") if len(c) else "")
                            for c in s] for s in root}


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

        # An unknown register found while running: the accesses before it are testcases, then
        # one <error> at its line; nothing after it ran.
        rc, _, _ = pmusim(exe, "run", "many/more/unknown_register.seq", "--junit", junit, "-q", cwd=tmp)
        assert rc == 2, rc
        got = cases(check_junit(junit))["many/more/unknown_register.seq"]
        assert [k for _, k, _ in got] == ["pass", "error"], got
        assert got[1][0].startswith("many/more/unknown_register.seq:3 ") and "NO_SUCH_REGISTER_EL1" in got[1][2], got

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
            outs.append((out, err, open(junit).read()))
            root = check_junit(junit)
            c = cases(root)
            assert list(c) == ["many/pass.seq", "many/fail.seq", "many/more/parse_error.seq",
                               "many/more/unknown_register.seq"], list(c)
            assert [k for _, k, _ in c["many/pass.seq"]] == ["pass", "pass"], c["many/pass.seq"]
            assert [k for _, k, _ in c["many/fail.seq"]] == ["failure", "pass"], c["many/fail.seq"]
            assert c["many/fail.seq"][0][2].startswith("many/fail.seq:3: "), c["many/fail.seq"]
            assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("7", "1", "2"), root.attrib
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
    print("junit: 1 passed, 0 failed")


if __name__ == "__main__":
    main()
