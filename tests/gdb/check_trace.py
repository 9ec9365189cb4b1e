#!/usr/bin/env python3
"""`pmusim firmware --trace all=FILE` on tests/iss/traps.elf (docs/debugging.md): the trace shows
the MRS of AMEVCNTR00_EL0 at EL1 disassembled, its access refused as trap_el3, and the exception
to EL3 with its ESR and ELR. The expected ESR is computed here from the Arm ARM's field layout
(ESR_ELx, EC 0x18 "MSR, MRS or System instruction", as tests/unit/esr_oracle.h cites it), never
from pmusim's constants.

usage: check_trace.py PMUSIM NM ELF WORKDIR
"""
import json
import os
import re
import subprocess
import sys

pmusim, nm, elf, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
trace_file = os.path.join(work, "traps.trace.jsonl")

def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)

symbols = {}
for line in subprocess.run([nm, elf], stdout=subprocess.PIPE, text=True, check=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 3:
        symbols[parts[2]] = int(parts[0], 16)
trapping = symbols["trapping"]

r = subprocess.run([pmusim, "firmware", "-q", "--trace", "all=" + trace_file, elf], stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE, text=True, timeout=60)
if r.returncode != 0:
    fail(f"pmusim exited {r.returncode}: {r.stderr}")
records = [json.loads(l) for l in open(trace_file)]

# ESR_ELx: EC [31:26], IL [25], ISS [24:0]; ISS of EC 0x18: Op0 [21:20], Op2 [19:17], Op1 [16:14],
# CRn [13:10], Rt [9:5], CRm [4:1], Direction [0] (1: read). MRS X7, S3_3_C13_C4_0.
op0, op1, crn, crm, op2, rt = 3, 3, 13, 4, 0, 7
esr = (0x18 << 26) | (1 << 25) | (op0 << 20) | (op2 << 17) | (op1 << 14) | (crn << 10) | (rt << 5) | (crm << 1) | 1

insn = [x for x in records if x["kind"] == "insn" and int(x["pc"], 16) == trapping]
if len(insn) != 1:
    fail(f"expected one instruction record at trapping ({trapping:#x}), got {insn}")
if not re.match(r"mrs x7, ", insn[0]["disasm"]) or insn[0]["el"] != 1:
    fail(f"the MRS at EL1 is not disassembled as such: {insn[0]}")

# The access as the JSON access log records it (docs/logs.md): refused by the gate with a trap to
# EL3. The gate does not know the instruction's Rt: its syndrome has Rt = 0.
access = [x for x in records if x["kind"] == "sysreg" and x.get("pc") == hex(trapping)]
esr_rt0 = esr & ~(0x1f << 5)
if len(access) != 1 or access[0]["outcome"] not in ("trap_el3", "trap el3") or access[0]["encoding"] != "S3_3_C13_C4_0" \
        or access[0]["op"] != "read" or access[0].get("syndrome") != hex(esr_rt0):
    fail(f"expected one sysreg record: read S3_3_C13_C4_0 -> trap_el3 with syndrome {esr_rt0:#x}, got {access}")

exc = [x for x in records if x["kind"] == "exception" and x.get("elr") == hex(trapping)]
if len(exc) != 1:
    fail(f"expected one exception with ELR {trapping:#x}, got {exc}")
e = exc[0]
if e["esr"] != hex(esr) or e["from_el"] != 1 or e["target_el"] != 3 or "MRS" not in e["cause"]:
    fail(f"the TAM trap: expected ESR {esr:#x} from EL1 to EL3, cause MSR/MRS, got {e}")
if e["vector"] != hex(symbols["lower_sync"]):
    fail(f"the vector: expected lower_sync {symbols['lower_sync']:#x}, got {e['vector']}")
# The same access in the JSON access log of the same run (--log-json, docs/logs.md): the trace's
# sysreg record is the log's record plus `kind` and `cpu`, key for key (issue 32 item 2).
log_file = os.path.join(work, "traps.log.jsonl")
r = subprocess.run([pmusim, "firmware", "-q", "--trace", "sysreg=" + os.path.join(work, "traps.sysreg.jsonl"),
                    "--log-json", log_file, elf], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
if r.returncode != 0:
    fail(f"pmusim --log-json exited {r.returncode}: {r.stderr}")
logged = [x for x in map(json.loads, open(log_file)) if x.get("pc") == hex(trapping) and "encoding" in x]
traced = {k: v for k, v in access[0].items() if k not in ("kind", "cpu")}
if logged != [traced]:
    fail(f"the trace's sysreg record is not the access log's:\n  trace {traced}\n  log   {logged}")
# mmio: tests/gdb/gdb_session.S stores four 16-bit counters 1, 2, 3, 4 into the CMN register at
# 0x5000A220 with one 64-bit STR and loads it back: two records with address, op, size and value,
# each the access log's record plus `kind` and `cpu` (issue 32 item 2).
session_elf = os.path.join(work, "gdb_session.elf")
mmio_file, mmio_log = os.path.join(work, "session.mmio.jsonl"), os.path.join(work, "session.log.jsonl")
r = subprocess.run([pmusim, "firmware", "-q", "--trace", "mmio=" + mmio_file, "--log-json", mmio_log, session_elf],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
if r.returncode != 0:
    fail(f"pmusim --trace mmio exited {r.returncode}: {r.stderr}")
mmio = [json.loads(l) for l in open(mmio_file)]
want = [("write", "0x5000a220", 8, 0x0004000300020001), ("read", "0x5000a220", 8, 0x0004000300020001)]
got = [(x.get("op"), x.get("address"), x.get("size"), int(x.get("value", "0"), 16)) for x in mmio]
if [x.get("kind") for x in mmio] != ["mmio", "mmio"] or got != want:
    fail(f"--trace mmio: expected {want}, got {mmio}")
if [{k: v for k, v in x.items() if k not in ("kind", "cpu")} for x in mmio] != [json.loads(l) for l in open(mmio_log)]:
    fail("the trace's mmio records are not the access log's")
# Instruction records are in order, their times never go backwards.
times = [x["time_fs"] for x in records if x["kind"] == "insn"]
if times != sorted(times):
    fail("instruction times go backwards")
print(f"PASS: {len(records)} records; TAM trap ESR {esr:#x} ELR {trapping:#x} to EL3")
