#!/usr/bin/env python3
"""`pmusim --help` and every subcommand's help end with examples, and the bash completion
(`pmusim completion bash`, installed as share/bash-completion/completions/pmusim) offers every
option each help lists, the subcommands, and the options the docs name (README, docs/logs.md).
Usage: check_help_completion.py PMUSIM"""
import os
import re
import subprocess
import sys
import tempfile

ENV = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
# Options the documentation promises per command (README.md, docs/logs.md, docs/whatif.md).
DOCUMENTED = {
    "": ["--list-params", "--list-unit-types", "--platform", "--version", "-C"],
    "run": ["-C", "--platform", "--log-json", "--junit", "--vcd", "-j", "--jobs", "--quiet", "--reference"],
    "serve": ["-C", "--platform", "--log-json", "--junit", "--vcd", "--reference"],
    "regs": ["--format", "--unit", "--output-dir"],
    "simulate": ["-C", "-o", "--set", "--log-json", "--no-progress"],
    "sweep": ["-C", "-j", "--shard", "-o"],
    "sweep merge": ["-o"],
    "plot": ["-o", "--opt"],
    "compare": ["-o", "--all"],
    "imc-dt": ["--platform", "--unit", "--avl-vector", "--linux-events"],
    "completion": [],
}


def help_text(exe, command):
    p = subprocess.run([exe, *command.split(), "--help"], env=ENV, capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, (command, p.returncode, p.stderr)
    return p.stdout


def listed_options(text):
    """The options a help lists, one list of aliases per option (`-j,--jobs`)."""
    section = text.split("Options:", 1)[1].split("Subcommands:", 1)[0].split("Examples:", 1)[0]
    return [m.group(1).split(",") for m in re.finditer(r"^  (-[^ ]+)", section, re.M)]


def complete(script, words):
    """What bash offers for the last word of `words` (COMP_WORDS) with the generated script."""
    line = " ".join(words)
    cmd = (f"source {script}; COMP_WORDS=({' '.join(repr(w) for w in words)}); "
           f"COMP_CWORD={len(words) - 1}; _pmusim; printf '%s\\n' \"${{COMPREPLY[@]}}\"")
    p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, (line, p.stderr)
    return set(p.stdout.split())


def main():
    exe = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "pmusim.bash")
        p = subprocess.run([exe, "completion", "bash"], env=ENV, capture_output=True, text=True, timeout=30)
        assert p.returncode == 0 and "complete -o filenames -F _pmusim pmusim" in p.stdout, p
        open(script, "w").write(p.stdout)
        top = complete(script, ["pmusim", ""])
        for sub in [c for c in DOCUMENTED if c and " " not in c]:
            assert sub in top, f"subcommand {sub} not completed: {sorted(top)}"
        for command, documented in DOCUMENTED.items():
            text = help_text(exe, command)
            examples = text.split("Examples:", 1)
            assert len(examples) == 2, f"`pmusim {command} --help` has no examples"
            assert re.search(r"^\s+(\S+ \| )?pmusim " + re.escape(command), examples[1], re.M) or \
                re.search(r"\| pmusim " + re.escape(command), examples[1]), (command, examples[1])
            groups = listed_options(text)
            options = [o for g in groups for o in g]
            for o in documented:
                assert o in options, f"`pmusim {command} --help` lacks {o}"
            offered = complete(script, ["pmusim", *command.split(), "-"])
            missing = [o for o in options if o not in offered]
            assert not missing, f"completion of `pmusim {command} -` lacks {missing}"
            # every option the help lists (but --help) appears, by one of its names, in an example
            used = set(re.findall(r"(?<![\w-])(--?[\w-]+)", examples[1]))
            unused = [g for g in groups if "--help" not in g and not used.intersection(g)]
            assert not unused, f"`pmusim {command} --help`: no example uses {unused}"
        # after a subcommand, words that are not options complete as files
        open(os.path.join(tmp, "a.seq"), "w").close()
        assert os.path.join(tmp, "a.seq") in complete(script, ["pmusim", "run", os.path.join(tmp, "a")])
    print("help and completion: 1 passed, 0 failed")


if __name__ == "__main__":
    main()
