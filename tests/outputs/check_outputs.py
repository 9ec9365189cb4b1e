#!/usr/bin/env python3
"""Checks `pmusim run`'s --log-json, --junit and --vcd outputs, and that two runs
of the same inputs give byte-identical files. Usage: check_outputs.py PMUSIM SEQ"""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET


def run(pmusim, seq, out):
    paths = {k: os.path.join(out, k) for k in ("log.jsonl", "junit.xml", "wave.vcd", "stdout.txt")}
    with open(paths["stdout.txt"], "w") as stdout:
        rc = subprocess.call([pmusim, "run", seq, "--log-json", paths["log.jsonl"], "--junit", paths["junit.xml"],
                              "--vcd", paths["wave.vcd"]], stdout=stdout, stderr=subprocess.DEVNULL,
                             env={"SC_COPYRIGHT_MESSAGE": "DISABLE"})
    return rc, paths


def main():
    pmusim, seq = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        rc, p = run(pmusim, seq, a)
        assert rc == 1, f"exit {rc}, want 1 (one expectation fails)"
        records = [json.loads(line) for line in open(p["log.jsonl"])]
        user = [r for r in records if r.get("file") == seq]
        assert [r["op"] for r in user] == ["write", "read", "read", "read", "read"], user
        w = user[0]
        assert w["target"] == "CPTR_EL3" and w["value"] == "0x40000000" and w["outcome"] == "ok", w
        assert w["context"] == "cpu0 EL3 S" and w["encoding"] == "S3_6_C1_C1_2" and w["line"] == 4, w
        undef = user[2]
        assert undef["outcome"] == "undefined" and undef["syndrome"] == "0x2000000", undef
        assert user[3]["time_fs"] == 10**9 and user[3]["time"] == "1 us", user[3]
        assert user[4]["outcome"] == "error" and user[4]["address"] == "0x10", user[4]
        suite = ET.parse(p["junit.xml"]).getroot().find("testsuite")
        # A testcase per access statement (lines 4, 5, 7, 9, 10): line 9's fails.
        assert suite.get("tests") == "5" and suite.get("failures") == "1", ET.tostring(suite)
        failed = [c for c in suite.findall("testcase") if c.find("failure") is not None]
        # Named by the statement (no line number: stable), its message at file:line.
        assert len(failed) == 1 and failed[0].get("name") == "read CPTR_EL3 == 0x0", failed[0].get("name")
        assert ":9: " in failed[0].find("failure").get("message"), failed[0].find("failure").get("message")
        vcd = open(p["wave.vcd"]).read()
        assert vcd.startswith("$timescale 1 fs $end") and "$enddefinitions $end" in vcd, vcd[:200]
        assert "$scope module irq $end" in vcd and " dsu0_pmu_irq $end" in vcd, "interrupt lines are traced"
        # Determinism: a second run gives byte-identical outputs.
        rc2, q = run(pmusim, seq, b)
        for k in p:  # JUnit's time attributes are host wall-clock seconds: masked
            same = (lambda f: re.sub(rb'time="[0-9.]+"', b'time="-"', open(f, "rb").read()))
            assert same(p[k]) == same(q[k]), f"{k} differs between two runs"
    print("outputs: 1 passed, 0 failed")


if __name__ == "__main__":
    main()
