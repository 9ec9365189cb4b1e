#!/usr/bin/env python3
"""Manual pages (cmake/man.cmake): one per subcommand `pmusim --help` lists, titled
pmusim-SUBCOMMAND, and each example of a --help on a line of its own in the rendered page (help2man
fills indented lines into one paragraph unless cmake/make-man.sh keeps them apart).
Usage: check_man_pages.py PMUSIM MAN_DIR"""
import os
import re
import subprocess
import sys

ENV = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE", MANWIDTH="200", MAN_KEEP_FORMATTING="0")


def help_text(exe, *sub):
    return subprocess.run([exe, *sub, "--help"], env=ENV, capture_output=True, text=True, timeout=30).stdout


def examples(text):
    block = text.split("Examples:\n", 1)[1] if "Examples:\n" in text else ""
    return [l.strip() for l in block.splitlines() if l.startswith("  pmusim")]


def main():
    exe, man_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    top = help_text(exe)
    subs = re.findall(r"^  ([a-z][a-z-]+)\s{2,}", top.split("Subcommands:", 1)[1].split("Examples:", 1)[0], re.M)
    assert "run" in subs and "firmware" in subs, subs
    problems = []
    for sub in [None] + subs:
        page = os.path.join(man_dir, "pmusim.1" if sub is None else f"pmusim-{sub}.1")
        if not os.path.exists(page):
            problems.append(f"no manual page {os.path.basename(page)}")
            continue
        rendered = subprocess.run(["man", "-l", page], env=ENV, capture_output=True, text=True, timeout=30).stdout
        rendered = re.sub(r".\x08", "", rendered)  # overstrike bold/underline
        lines = [l.strip() for l in rendered.splitlines()]
        title = "PMUSIM" if sub is None else f"PMUSIM-{sub.upper()}"
        if not rendered.startswith(title + "(1)"):
            problems.append(f"{os.path.basename(page)}: title {rendered.splitlines()[0] if rendered else ''!r}, expected {title}(1)")
        for ex in examples(help_text(exe, *([sub] if sub else []))):
            plain = (lambda t: " ".join(re.sub(r"[`'\u2018\u2019]", "", t).split()))  # roff turns ` into quotes
            # help2man may set a long example's trailing comment on the next line: the command
            # itself must stand on a line of its own.
            if plain(ex) not in [plain(l) for l in lines] and plain(ex.split("#")[0]) not in [plain(l) for l in lines]:
                problems.append(f"{os.path.basename(page)}: the example {ex!r} is not a line of its own")
    for p in problems:
        print("FAIL:", p)
    print(f"man pages: {len(subs) + 1} checked, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
