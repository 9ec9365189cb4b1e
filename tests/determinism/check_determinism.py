#!/usr/bin/env python3
"""Determinism and atomic outputs (docs/reliability.md).

1. Runs a representative sequence twice with every output (JSON log, JUnit, VCD, stdout) and
   requires byte-identical files, then compares their SHA-256 with the committed golden hash
   (tests/determinism/expected.sha256). A deliberate change to an output format or to the AMU/DSU
   behaviour changes the hash: update it with --update after checking the new outputs.
2. A run whose output cannot be completed leaves no file under the output's name.
Usage: check_determinism.py PMUSIM [--update]"""
import hashlib
import re
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
seq = os.path.join(here, "representative.seq")
platform = os.path.join(here, "platform.yaml")
golden = os.path.join(here, "expected.sha256")
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


def digest(paths):
    h = hashlib.sha256()
    for k in outputs:
        data = content(paths[k])
        h.update(f"{k} {len(data)}\n".encode())
        h.update(data)
    return h.hexdigest()


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
        h = digest(p)
        if "--update" in sys.argv:
            open(golden, "w").write(h + "\n")
            print(f"determinism: golden hash updated to {h}")
            return
        want = open(golden).read().split()[0]
        if h != want:
            sys.exit(f"determinism: outputs hash {h}, committed {want}.\n"
                     f"If the change is intended, inspect the outputs and run: {sys.argv[0]} {pmusim} --update")

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
    print(f"determinism: outputs byte-identical across runs, hash {h} matches; failed outputs leave no file")


if __name__ == "__main__":
    main()
