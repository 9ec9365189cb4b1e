#!/usr/bin/env python3
"""Determinism and atomic outputs (docs/reliability.md).

1. Runs a representative sequence twice with every output (JSON log, JUnit, VCD, stdout) and
   requires byte-identical files, then compares each, normalized (the run's temporary folder and
   pmusim's version replaced by placeholders), with its committed golden copy in
   tests/determinism/golden/, printing a unified diff of what changed. A deliberate change to an
   output format or to the AMU/DSU behaviour changes them: review the diff, then --update.
2. A run whose output cannot be completed leaves no file under the output's name.
Usage: check_determinism.py PMUSIM [--update]"""
import difflib
import re
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
seq = os.path.join(here, "representative.seq")
platform = os.path.join(here, "platform.yaml")
golden = os.path.join(here, "golden")
outputs = ("log.jsonl", "junit.xml", "wave.vcd", "stdout.txt")


def run(pmusim, out):
    paths = {k: os.path.join(out, k) for k in outputs}
    with open(paths["stdout.txt"], "w") as stdout:
        rc = subprocess.call([pmusim, "run", "representative.seq", "--platform", "platform.yaml",
                              "--log-json", paths["log.jsonl"], "--junit", paths["junit.xml"], "--vcd", paths["wave.vcd"]],
                             stdout=stdout, stderr=subprocess.DEVNULL, cwd=here,
                             env=dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE"))
    return rc, paths


def content(path):
    """The file's bytes; JUnit's `time` attributes (host wall-clock seconds, docs/sequence-language.md
    "JUnit") masked: they are the only bytes that may differ between two runs."""
    data = open(path, "rb").read()
    return re.sub(rb'time="[0-9.]+"', b'time="-"', data) if path.endswith(".xml") else data


def normalized(path, out):
    """The output with what may differ between machines and releases but not between runs replaced:
    the output folder, pmusim's version, the VCD's date line."""
    text = content(path).decode("utf-8", errors="replace")
    text = text.replace(out, "<out>")
    text = re.sub(r"pmusim[ -]\d+\.\d+(?:\.\d+)?(?:[-+~][\w.]+)?", "pmusim <version>", text)
    text = re.sub(r"(\$date\b).*?(\$end)", r"\1 <date> \2", text, flags=re.S)
    return text


def compare(paths, out):
    """A unified diff per output that differs from its golden copy."""
    diffs = []
    for k in outputs:
        want_path = os.path.join(golden, k)
        want = open(want_path, encoding="utf-8").read() if os.path.exists(want_path) else ""
        got = normalized(paths[k], out)
        if got != want:
            diff = list(difflib.unified_diff(want.splitlines(True), got.splitlines(True), f"golden/{k}", f"this run/{k}"))
            diffs.append("".join(diff[:80]) + (f"... ({len(diff) - 80} more diff lines)\n" if len(diff) > 80 else ""))
    return diffs


def main():
    pmusim = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        rc, p = run(pmusim, a)
        assert rc == 1, f"exit {rc}, want 1 (the last expectation fails by design)"
        rc2, q = run(pmusim, b)
        for k in outputs:
            assert content(p[k]) == content(q[k]), f"{k} differs between two runs"
        leftovers = [f for d in (a, b) for f in os.listdir(d) if ".tmp-" in f]
        assert not leftovers, f"temporary output files left behind: {leftovers}"
        if "--update" in sys.argv:
            os.makedirs(golden, exist_ok=True)
            for k in outputs:
                with open(os.path.join(golden, k), "w", encoding="utf-8") as f:
                    f.write(normalized(p[k], a))
            print(f"determinism: golden outputs updated in {golden}")
            return
        diffs = compare(p, a)
        if diffs:
            sys.exit("determinism: the outputs differ from tests/determinism/golden/:\n" + "".join(diffs) +
                     f"If the change is intended, review the diff and run: {sys.argv[0]} {pmusim} --update")

        # An output that cannot be completed: the VCD's directory does not exist. The run must
        # fail with a clear message and leave nothing under any output's name.
        missing_dir = os.path.join(a, "no-such-dir", "wave.vcd")
        log = os.path.join(a, "partial.jsonl")
        r = subprocess.run([pmusim, "run", "representative.seq", "--platform", "platform.yaml", "--log-json", log,
                            "--vcd", missing_dir], cwd=here, capture_output=True, text=True,
                           env=dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE"))
        assert r.returncode == 2, (r.returncode, r.stderr)
        assert "wave.vcd" in r.stderr, r.stderr
        assert not any(".tmp-" in f for f in os.listdir(a)), os.listdir(a)
    print(f"determinism: outputs byte-identical across runs and equal to tests/determinism/golden/ "
          f"({', '.join(outputs)}); failed outputs leave no file")


if __name__ == "__main__":
    main()
