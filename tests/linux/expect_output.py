#!/usr/bin/env python3
"""Runs a command; passes when it exits with the expected code and its output (stdout and stderr
together) matches every --match regular expression.

  expect_output.py EXIT_CODE [--match REGEX]... -- COMMAND [ARGS...]
"""
import re
import subprocess
import sys


def main():
    args = sys.argv[1:]
    if "--" not in args:
        sys.exit("usage: expect_output.py EXIT_CODE [--match REGEX]... -- COMMAND [ARGS...]")
    split = args.index("--")
    head, command = args[:split], args[split + 1:]
    expected = int(head[0])
    patterns = [head[i + 1] for i in range(1, len(head) - 1) if head[i] == "--match"]
    r = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    failed = []
    if r.returncode != expected:
        failed.append(f"exit code {r.returncode}, expected {expected}")
    for p in patterns:
        if not re.search(p, r.stdout, re.MULTILINE):
            failed.append(f"no output line matches {p!r}")
    if failed:
        print(r.stdout[-4000:])
        print("expect_output: " + "; ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
