#!/usr/bin/env python3
"""Checks the sequence language's files, names and loops from the outside
(docs/sequence-language.md "Files, names and loops"):
  - every bad/*.seq exits with its `# expect-exit:` code and prints its `# expect-message:`
    (file:line, with the include/repeat chain) on stderr, and the JUnit file names the same place;
  - the JSON-lines log and JUnit name the included file and line of an access made there;
  - print32/print64 log the values the hand computation of imc_memory_names.seq expects;
  - serve refuses the file-only directives with ERR and goes on.
Run from the source directory: check_language.py PMUSIM"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = "tests/sequences/language"


def run(pmusim, *args, stdin=None):
    env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
    return subprocess.run([pmusim, *args], input=stdin, capture_output=True, text=True, env=env, timeout=60)


def directives(path):
    exit_code, messages = 0, []
    for line in open(path):
        if line.startswith("# expect-exit:"):
            exit_code = int(line.split(":", 1)[1])
        elif line.startswith("# expect-message:"):
            messages.append(line.split(":", 1)[1].strip())
    return exit_code, messages


def main():
    pmusim = sys.argv[1]
    problems = []
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        junit = os.path.join(tmp, "junit.xml")
        # 1. Bad input (and a failing check) at the right file:line, through includes and repeats.
        for path in sorted(glob.glob(f"{HERE}/bad/*.seq")):
            want_exit, messages = directives(path)
            if not messages:
                problems.append(f"{path}: no '# expect-message:' line")
                continue
            r = run(pmusim, "run", "--quiet", "--junit", junit, path)
            checked += 1
            if r.returncode != want_exit:
                problems.append(f"{path}: exit {r.returncode}, expected {want_exit}\n{r.stderr}")
            for m in messages:
                if m not in r.stderr:
                    problems.append(f"{path}: stderr lacks\n  {m}\ngot\n  {r.stderr.strip()}")
            # The JUnit report's message names the same place (the message's "file:line (origin)"
            # part); the testcase's name never holds a line number (stable across edits).
            m = re.match(r"^(\S+?:\d+(?: \([^)]*\))?): ", messages[0])
            if not m:
                continue
            where = m.group(1)
            cases = [c for c in ET.parse(junit).getroot().iter("testcase")]
            bad = [c.find("error") if c.find("error") is not None else c.find("failure") for c in cases
                   if c.find("error") is not None or c.find("failure") is not None]
            if not any(where in (b.get("message") or "") for b in bad):
                problems.append(f"{path}: no JUnit error/failure whose message names '{where}...': "
                                f"{[b.get('message') for b in bad]}")
            if any(re.search(r":\d+\b", c.get("name") or "") for c in cases):
                problems.append(f"{path}: a JUnit testcase name holds a line number: {[c.get('name') for c in cases]}")

        # 2. An access made in an included file: the JSON log's file/line are the included file's.
        log = os.path.join(tmp, "log.jsonl")
        r = run(pmusim, "run", "--quiet", "--log-json", log, "--junit", junit, f"{HERE}/bad/failing_check_in_include.seq")
        records = [json.loads(l) for l in open(log)]
        reads = [x for x in records if x.get("op") == "read" and x.get("address") == "0x2a000e04"]
        checked += 1
        if len(reads) != 1 or reads[0]["file"] != f"{HERE}/lib/failing_check.inc" or reads[0]["line"] != 3:
            problems.append(f"json log: expected one read of 0x2a000e04 at {HERE}/lib/failing_check.inc:3, got {reads}")

        # 3. Each repeat iteration is its own JUnit testcase: the statement's text, then (2), (3).
        r = run(pmusim, "run", "--quiet", "--junit", junit, f"{HERE}/dsu_include_let_repeat.seq")
        checked += 1
        names = [c.get("name") for c in ET.parse(junit).getroot().iter("testcase")]
        if r.returncode != 0:
            problems.append(f"dsu_include_let_repeat.seq: exit {r.returncode}\n{r.stderr}")
        want = ["expect irq dsu0 low", "expect irq dsu0 low (2)", "expect irq dsu0 low (3)"]
        for w in want:
            if w not in names:
                problems.append(f"junit: no testcase '{w}'")

        # 4. print32/print64 of memory: the values computed by hand in imc_memory_names.seq
        #    (3.2 GHz x 2 ms / 512 = 12500 = 0x30d4; 22.4M instructions / 512 = 43750 = 0xaae6).
        r = run(pmusim, "run", f"{HERE}/imc_memory_names.seq")
        checked += 1
        for line in ("cpu4 hv read64 0x10402018 = 0x30d4", "cpu4 hv read64 0x10402020 = 0xaae6",
                     "cpu4 hv read32 0x1040201c = 0x30d4"):
            if line not in r.stdout:
                problems.append(f"imc_memory_names.seq: stdout lacks '{line}'\n{r.stdout[-2000:]}")
        r = run(pmusim, "run", f"{HERE}/dsu_include_let_repeat.seq")
        for line in ("debug NS read64 0x2a000018 = 0x34", "debug NS read32 0x2a000e04 = 0x11"):
            if line not in r.stdout:
                problems.append(f"dsu_include_let_repeat.seq: stdout lacks '{line}'")

        # 5. serve: the directives are for files; the session goes on.
        r = run(pmusim, "serve", "--platform", "arm-default",
                stdin="let X = 1\nrepeat 2\nas debug\nread64 (0x2A000000 + 8 * 3)\n")
        checked += 1
        answers = r.stdout.splitlines()
        if len(answers) != 4 or not all(a.startswith("ERR") and "directive of sequence files" in a for a in answers[:2]) \
                or answers[2] != "OK" or answers[3] != "OK 0x0":
            problems.append(f"serve: unexpected answers {answers}")

    for p in problems:
        print(p, file=sys.stderr)
    print(f"sequence language: {checked - len(problems)} passed, {len(problems)} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
