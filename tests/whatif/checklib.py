"""What every tests/whatif check script shares: the pmusim binary (argv[1]), a tally of checks
that keeps going after a failure so one run lists them all, and the closing summary line."""
import os
import subprocess
import sys

PMUSIM = os.path.abspath(sys.argv[1])
failures = []
_checks = 0


def check(cond, what):
    global _checks
    _checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args, **kw):
    """pmusim ARGS..., output captured as text."""
    return subprocess.run([PMUSIM, *args], capture_output=True, text=True, **kw)


def finish(label=""):
    prefix = f"{label}: " if label else ""
    print(f"{prefix}{_checks - len(failures)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)
