#!/usr/bin/env python3
"""Bash completion of values (tb/cli_completion.cpp): the generated script, sourced in bash,
completes --platform with the built-in platforms, -C with parameter keys (KEY=), and options with a
fixed set of choices with those choices. Usage: check_completion_values.py PMUSIM"""
import os
import subprocess
import sys
import tempfile

ENV = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")


def complete(script, words, cwd):
    """COMPREPLY of _pmusim for the command line `words` (the last one being completed)."""
    line = " ".join(words)
    program = (f"source {script}\nCOMP_WORDS=({' '.join(repr(w) for w in words)})\n"
               f"COMP_CWORD={len(words) - 1}\nCOMP_LINE={line!r}\n_pmusim\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n")
    p = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=30, cwd=cwd)
    return set(p.stdout.split())


def main():
    exe = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "pmusim.bash")
        open(script, "w").write(subprocess.run([exe, "completion", "bash"], env=ENV, capture_output=True,
                                               text=True, timeout=30, check=True).stdout)
        open(os.path.join(tmp, "board.yaml"), "w").write("")  # a platform file completes too
        cases = [
            (["pmusim", "run", "x.seq", "--platform", ""], {"arm-default", "arm-linux", "power9-default", "board.yaml"},
             "platform names and *.yaml files"),
            (["pmusim", "run", "x.seq", "--platform", "pow"], {"power9-default"}, "a platform name's prefix"),
            (["pmusim", "run", "x.seq", "-C", "units.dsu0.params.coun"], {"units.dsu0.params.counters="},
             "a parameter key, as KEY="),
            (["pmusim", "--list-params", "-C", "clocks.cpu0.freq"], {"clocks.cpu0.frequency="}, "-C at the top level"),
            (["pmusim", "regs", "--format", ""], {"markdown", "c-header", "json"}, "--format's choices"),
            (["pmusim", "run", "x.seq", "--junit-testcases", "f"], {"file"}, "--junit-testcases's choices"),
            (["pmusim", "completion", ""], {"bash"}, "the shell"),
        ]
        problems = []
        for words, want, what in cases:
            got = complete(script, words, tmp) - {"pmusim.bash"}  # the folder's other file completes as a file
            ok = want <= got if what == "the shell" else got == want  # positionals also complete files
            print(("ok: " if ok else "FAIL: ") + f"{what}: {' '.join(words)!r} -> {sorted(got)[:8]}")
            if not ok:
                problems.append(what)
        sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
