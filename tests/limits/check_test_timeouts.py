#!/usr/bin/env python3
"""Every ctest test has a TIMEOUT (docs/reliability.md, "Tests that can pass while wrong"): a hang
must fail CI, not stall it. Usage: check_test_timeouts.py CTEST BUILD_DIR"""
import json
import subprocess
import sys

ctest, build = sys.argv[1], sys.argv[2]
listing = json.loads(subprocess.run([ctest, "--show-only=json-v1"], cwd=build, capture_output=True, text=True,
                                    check=True).stdout)
missing = []
for t in listing["tests"]:
    props = {p["name"]: p["value"] for p in t.get("properties", [])}
    if not props.get("TIMEOUT"):
        missing.append(t["name"])
print(f"{len(listing['tests'])} tests, {len(missing)} without a TIMEOUT")
for name in missing:
    print("  no TIMEOUT:", name)
sys.exit(1 if missing or not listing["tests"] else 0)
