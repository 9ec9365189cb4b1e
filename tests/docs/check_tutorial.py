#!/usr/bin/env python3
"""Runs every command of docs/tutorial.md, as a reader would type them in a fresh clone.

Every fenced block whose info string is `sh` is a step. The HTML comment on the line right
before it (invisible on the rendered page) says what the step must do:

    <!-- test: exit=1 contains="1 failed" creates=out/tour/config.json -->
    <!-- test: skip="needs root: installs Debian packages" -->
    <!-- test: requires=matplotlib -->   (skipped, and said so, when that Python module is missing)

`exit` (default 0) is the exit code of the block run by `bash -e -o pipefail` (so the first
failing command ends it), `contains` (repeatable) a text its stdout or stderr must hold,
`creates` (repeatable) a file that must exist afterwards. A `sh` block without such a comment is
an error: no command in the tutorial goes untested by accident.

The steps run in order, in one temporary folder that looks like the clone after the build: the
source tree's folders linked in, and build/pmusim the binary under test. Afterwards the clone must
hold nothing new but `scratch/` (the tutorial's outputs go there), and every relative link of the
page must lead to an existing file and, with `#anchor`, to one of its headings.
Usage: check_tutorial.py TUTORIAL.md PMUSIM SOURCE_DIR"""
import importlib.util
import os
import re
import shlex
import subprocess
import sys
import tempfile

ENV = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")


def steps(markdown):
    lines = open(markdown).read().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if not m or not m.group(1):
            i += 1
            continue
        info, start = m.group(1), i
        j = i + 1
        while j < len(lines) and lines[j] != "```":
            j += 1
        body = "\n".join(lines[i + 1:j])
        if info == "sh":
            spec = lines[start - 1] if start else ""
            c = re.match(r"^<!-- test:(.*)-->\s*$", spec)
            if not c:
                raise SystemExit(f"{markdown}:{start + 1}: a sh block without a <!-- test: ... --> line before it")
            opts = {"exit": "0", "contains": [], "creates": []}
            for item in shlex.split(c.group(1)):
                key, _, value = item.partition("=")
                if key in ("contains", "creates"):
                    opts[key].append(value)
                elif key in ("exit", "skip", "requires"):
                    opts[key] = value
                else:
                    raise SystemExit(f"{markdown}:{start}: unknown test option {key!r}")
            out.append((start + 2, body, opts))
        i = j + 1
    return out


def github_anchor(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to '-'."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def broken_links(markdown):
    text = open(markdown).read()
    folder, problems = os.path.dirname(markdown), []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target):
            continue  # http:, https:, mailto:
        path, _, anchor = target.partition("#")
        file = os.path.normpath(os.path.join(folder, path)) if path else markdown
        if not os.path.exists(file):
            problems.append(f"link {target}: {os.path.relpath(file, folder)} does not exist")
            continue
        if anchor and file.endswith(".md"):
            headings = [github_anchor(h) for h in re.findall(r"^#+ (.*)$", open(file).read(), re.M)]
            if anchor not in headings:
                problems.append(f"link {target}: no heading with anchor #{anchor} in {os.path.basename(file)}")
    return problems


def fake_clone(source, pmusim, where):
    for name in os.listdir(source):
        if name not in ("build", ".git"):
            os.symlink(os.path.join(source, name), os.path.join(where, name))
    os.mkdir(os.path.join(where, "build"))
    os.symlink(pmusim, os.path.join(where, "build", "pmusim"))


def main():
    markdown, pmusim, source = (os.path.abspath(a) for a in sys.argv[1:4])
    passed = skipped = 0
    failures = []
    for problem in broken_links(markdown):
        failures.append(f"{os.path.relpath(markdown, source)}: {problem}")
        print(f"FAIL {problem}")
    with tempfile.TemporaryDirectory() as clone:
        fake_clone(source, pmusim, clone)
        before = set(os.listdir(clone))
        for line, body, opts in steps(markdown):
            where = f"{os.path.relpath(markdown, source)}:{line}"
            if "skip" in opts:
                print(f"SKIP {where}: {opts['skip']}")
                skipped += 1
                continue
            if "requires" in opts and importlib.util.find_spec(opts["requires"]) is None:
                print(f"SKIP {where}: Python module {opts['requires']} is not installed")
                skipped += 1
                continue
            p = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", body], cwd=clone, env=ENV,
                               capture_output=True, text=True, timeout=300)
            text = p.stdout + p.stderr
            problems = []
            if p.returncode != int(opts["exit"]):
                problems.append(f"exit {p.returncode}, expected {opts['exit']}")
            problems += [f"output lacks {c!r}" for c in opts["contains"] if c not in text]
            problems += [f"{f} was not created" for f in opts["creates"] if not os.path.exists(os.path.join(clone, f))]
            if problems:
                failures.append(f"{where}: {'; '.join(problems)}\n--- commands\n{body}\n--- output\n{text[-3000:]}")
                print(f"FAIL {where}: {'; '.join(problems)}")
            else:
                passed += 1
                print(f"ok   {where}")
        left = sorted(set(os.listdir(clone)) - before - {"scratch"})
        if left:
            failures.append(f"the tutorial left files in the clone (outside scratch/): {left}")
            print(f"FAIL files left in the clone: {left}")
    for f in failures:
        print(f, file=sys.stderr)
    print(f"tutorial: {passed} steps passed, {len(failures)} failed, {skipped} skipped")
    sys.exit(1 if failures or not passed else 0)


if __name__ == "__main__":
    main()
