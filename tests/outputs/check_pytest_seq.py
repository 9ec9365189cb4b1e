#!/usr/bin/env python3
"""pytest collects *.seq files through pmusim's plugin (docs/python.md, "Sequence files"): each is
run as `pmusim run` (include/let/repeat work), `# expect-exit: N` is honoured, and a failure shows
FILE:LINE of the statement, never <stdin>.
Usage: check_pytest_seq.py PYTHON_WITH_PYTEST PMUSIM PYTHON_PACKAGE_DIR"""
import os
import subprocess
import sys
import tempfile


def main():
    python, exe, package = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "suite", "lib"))
        files = {
            "suite/lib/el3.inc": "as cpu0 el3\n",
            "suite/good.seq": "platform arm-default\ninclude lib/el3.inc\nlet M = 0x1\nrepeat 2\n"
                              "write AMCNTENSET0_EL0 M\nend\nread AMCNTENSET0_EL0 == M mask M\n",
            "suite/bad.seq": "platform arm-default\nas cpu0 el3\n\nread AMCNTENSET0_EL0 == 0x0 mask 0x1\n",
            "suite/must_fail.seq": "# expect-exit: 1\nplatform arm-default\nas cpu0 el3\n"
                                   "read AMCNTENSET0_EL0 == 0x0 mask 0x1\n",
        }
        for name, text in files.items():
            open(os.path.join(tmp, name), "w").write(text)
        env = dict(os.environ, PYTHONPATH=package, PYTHONDONTWRITEBYTECODE="1", SC_COPYRIGHT_MESSAGE="DISABLE")
        p = subprocess.run([python, "-m", "pytest", "-p", "no:cacheprovider", "-p", "pmusim.pytest_plugin",
                            f"--pmusim={exe}", "-rA", "suite"], cwd=tmp, env=env, capture_output=True, text=True,
                           timeout=120)
        out = p.stdout + p.stderr
        checks = [
            (p.returncode == 1, "pytest exits 1: one file failed"),
            ("collected 3 items" in out, "the three .seq files are collected (the .inc is not)"),
            ("PASSED suite/good.seq::good.seq" in out, "include/let/repeat run: good.seq passes"),
            ("PASSED suite/must_fail.seq::must_fail.seq" in out, "# expect-exit: 1 is honoured"),
            ("FAILED suite/bad.seq::bad.seq" in out, "bad.seq fails"),
            ("suite/bad.seq:4: read AMCNTENSET0_EL0: expected 0x0" in out, "the failure names FILE:LINE"),
            ("<stdin>" not in out, "nothing is replayed through serve"),
        ]
        bad = [what for ok, what in checks if not ok]
        for ok, what in checks:
            print(("ok: " if ok else "FAIL: ") + what)
        if bad:
            print(out)
            sys.exit(1)


if __name__ == "__main__":
    main()
