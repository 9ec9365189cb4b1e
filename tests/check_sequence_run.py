#!/usr/bin/env python3
"""Runs one test sequence (`pmusim run --quiet [ARGS] FILE`) and checks what its header promises:

  # expect-exit: N                  the exit code (0 when absent)
  # expect-error: WHERE: TEXT       exit 2: the one error names WHERE (`7` = this file's line 7,
                                    or `name.yaml:8` for a line of another file) and contains TEXT
  # expect-fail: N [N ...]          exit 1: exactly these lines of this file report a failed expectation
  # expect-message: TEXT            (instead of the two above, for messages whose place runs through
                                    includes and repeats) the output holds TEXT, the whole message
                                    with its place, as tests/sequences/language/check_language.py reads it

A negative test without its message fails: a test expecting exit 2 passed even when its earlier
expectations failed or another line was the bad one (docs/reliability.md "Classes of failure").
An exit-2 test must show no failed expectation besides its error.
Usage: check_sequence_run.py PMUSIM FILE [PMUSIM ARGS...]"""
import os
import re
import subprocess
import sys

pmusim, seq = sys.argv[1], sys.argv[2]
extra = sys.argv[3:]
header = open(seq).read().splitlines()
want_exit = 0
errors, fails, whole = [], None, []
for line in header:
    if m := re.match(r"# expect-exit: (\d+)", line):
        want_exit = int(m.group(1))
    elif m := re.match(r"# expect-error: ([^ ]+?): (.+)", line):
        errors.append((m.group(1), m.group(2).strip()))
    elif m := re.match(r"# expect-fail: ([\d ]+)$", line):
        fails = sorted(int(n) for n in m.group(1).split())
    elif m := re.match(r"# expect-message: (.+)", line):
        whole.append(m.group(1).strip())

r = subprocess.run([pmusim, "run", "--quiet", *extra, seq], capture_output=True, text=True,
                   env=dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE"))
out = r.stdout + r.stderr
problems = []
if r.returncode != want_exit:
    problems.append(f"exit {r.returncode}, expected {want_exit}")
# Every message naming a place: `[pmusim: ]FILE:LINE: text`.
# A place reached through includes or repeats carries its origin: `FILE:LINE (included from ...): text`.
messages = [m for m in re.findall(r"^(?:pmusim: )?(\S+?):(\d+)(?: \([^\n]*?\))?: (.*)$", out, re.M)]
own = [(int(n), text) for f, n, text in messages if os.path.abspath(f) == os.path.abspath(seq)]
if whole and want_exit in (1, 2):
    for text in whole:
        if text not in out.replace(os.getcwd() + "/", ""):  # places as the checkout names them
            problems.append(f"expected the message '{text}'")
    if want_exit == 2 and len(messages) > 1:
        problems.append(f"expected exactly one message (the error), found {len(messages)}")
elif want_exit == 2:
    if len(errors) != 1:
        problems.append("an expect-exit: 2 test needs one `# expect-error: WHERE: TEXT` line")
    elif len(messages) != 1:
        problems.append(f"expected exactly one message (the error), found {len(messages)}")
    else:
        where, text = errors[0]
        f, n, said = messages[0]
        place = n if where.isdigit() else f"{os.path.basename(f)}:{n}"
        if (where.isdigit() and os.path.abspath(f) != os.path.abspath(seq)) or place != where or text not in said:
            problems.append(f"expected the error at {where} containing '{text}'")
elif want_exit == 1:
    if fails is None:
        problems.append("an expect-exit: 1 test needs a `# expect-fail: LINE ...` line")
    elif sorted(n for n, _ in own) != fails or len(own) != len(messages):
        problems.append(f"expected failed expectations at lines {fails}, found {[(f, n) for f, n, _ in messages]}")
if problems:
    print(out[-3000:])
    print(f"check_sequence_run: {seq}: " + "; ".join(problems))
    sys.exit(1)
