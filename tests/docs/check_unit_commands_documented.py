#!/usr/bin/env python3
"""Every unit command and unit tool a registered unit type declares (models/unit_command.h,
models/unit_tool.h), as `pmusim --list-unit-types` lists them, is documented: a command in the
table of docs/sequence-language.md ("UNIT VERB ARGS") with its unit type, and a tool
(`pmusim NAME`) in README.md and in its unit's docs/*.md.
Usage: check_unit_commands_documented.py PMUSIM SOURCE_DIR"""
import os
import re
import subprocess
import sys


def main():
    exe, src = os.path.abspath(sys.argv[1]), sys.argv[2]
    env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
    out = subprocess.run([exe, "--list-unit-types"], env=env, capture_output=True, text=True, timeout=60,
                         check=True).stdout
    commands, tools, unit_type = [], [], None
    for line in out.splitlines():
        m = re.match(r"^(\w+): ", line)
        if m:
            unit_type = m.group(1)
            continue
        m = re.match(r"^  command: UNIT (\S+)", line)
        if m:
            commands.append((unit_type, m.group(1)))
        m = re.match(r"^  tool: pmusim (\S+)", line)
        if m:
            tools.append((unit_type, m.group(1)))
    assert commands and tools, f"--list-unit-types lists no command or no tool:\n{out}"
    lang = open(os.path.join(src, "docs/sequence-language.md")).read()
    readme = open(os.path.join(src, "README.md")).read()
    docs = {f: open(os.path.join(src, "docs", f)).read() for f in os.listdir(os.path.join(src, "docs"))
            if f.endswith(".md")}
    failures = []
    for unit_type, verb in commands:
        if not re.search(r"^\| `" + re.escape(unit_type) + r"` \| `" + re.escape(verb) + r"` \|", lang, re.M):
            failures.append(f"command {unit_type} {verb}: no row in the table of docs/sequence-language.md")
    for unit_type, name in tools:
        if f"pmusim {name}" not in readme:
            failures.append(f"tool {name} ({unit_type}): README.md does not show `pmusim {name}`")
        if not any(f"pmusim {name}" in text for text in docs.values()):
            failures.append(f"tool {name} ({unit_type}): no docs/*.md shows `pmusim {name}`")
    for f in failures:
        print("FAIL:", f)
    print(f"unit commands and tools documented: {len(commands) + len(tools) - len(failures)} passed, "
          f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
