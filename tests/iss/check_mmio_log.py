#!/usr/bin/env python3
"""Runs mmio_in_block.elf, mmio_first_access.elf or mmio_group.elf (fast, then --reference) and checks its access
log: exactly the memory-mapped accesses the program makes, each once, at the PC of its instruction
and at the CPU cycle of that instruction (code from 0x80000000, one cycle per instruction; in
straight-line code the instruction at PC p starts at cycle (p - 0x80000000) / 4), and the 64-bit LDRs and STR as one access each
(size 8 in the log) with the whole 64-bit value (CMN-600 periph_id_0/1: part_0 0x34 [7:0], part_1 4 [35:32] and the
JEP106 bits [39:36] 0xB: Linux 6.1 drivers/perf/arm-cmn.c CMN_CFGM_PID0_PART_0 GENMASK_ULL(7, 0),
CMN_CFGM_PID1_PART_1 GENMASK_ULL(35, 32); cmn-tools data/regdefs/cmn600.regdefs:3886 RESET 0xb400000034).
mmio_group.elf runs on arm-default with plain memory added just below the dsu0 frame and cmn0
(group_platform below)."""
import json, subprocess, sys, tempfile, os

pmusim, elf = sys.argv[1], sys.argv[2]
base = 0x80000000
# (op, address, pc, value, size in bytes, CPU cycle): PCs are the instructions' places in the program.
def straight(op, address, index, value, size):
    return (op, address, base + index * 4, value, size, index)
expected_by_program = {
    "mmio_in_block": [
        straight("write", 0x2A000C00, 6, 0x3, 4),         # str w4, [x3, #0xC00]
        straight("read", 0x2A000C00, 8, 0x3, 4),          # ldr w5, [x3, #0xC00]
        straight("read", 0x2A000C00, 11, 0x3, 4),         # ldr w7, [x6], #0x20
        straight("read", 0x50000008, 13, 0xB400000034, 8),  # ldr x9, [x8]: one 8-byte access
        straight("read", 0x50000000, 15, None, 8),        # ldr x10, [x8, #-8]: node_info (low 16 bits 2)
        straight("write", 0x5000A220, 19, 0x0004000300020001, 8),  # str x14, [x13]: one 8-byte access
        straight("read", 0x5000A220, 21, 0x0004000300020001, 8),   # ldr x15, [x13]
        straight("read", 0x50000000, 22, None, 8),        # ldp x16, x17, [x8, #-8]: node_info
        straight("read", 0x50000008, 22, 0xB400000034, 8),  # and periph_id_0/1, each one 8-byte access
    ],
    "mmio_first_access": [
        straight("write", 0x2A000C00, 6, 0x3, 4),         # str w4, [x3, #0xC00]: first of its run
        straight("read", 0x2A000C00, 8, 0x3, 4),          # ldr w5, [x3, #0xC00]: an access point
        ("read", 0x2A000C00, base + 14 * 4, 0x3, 4, 14 + 7 * 2),  # ldr w7, [x6] in the third iteration
    ],
    "mmio_group": [
        straight("write", 0x2A000C00, 8, 0x3, 4),         # str w4, [x5, #0xC10]: third of its group
        straight("read", 0x2A000C00, 10, 0x3, 4),         # ldr w6, [x5, #0xC10]: fourth
        straight("read", 0x2A000C00, 15, 0x3, 4),         # ldr w8, [x5, #0xC00]: after the base was written
        straight("read", 0x50000000, 20, None, 8),        # ldp x16, x17, [x5, #8]: second of its group
        straight("read", 0x50000008, 20, 0xB400000034, 8),
    ],
}

def group_platform(directory):
    """arm-default with 64 KiB of plain memory ending where the dsu0 frame and cmn0 begin."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "platforms", "arm-default.yaml")
    dram = "  - { name: dram, base: 0x80000000, size: 16MiB, endianness: little }\n"
    text = open(source).read()
    assert dram in text, "platforms/arm-default.yaml: its dram line changed"
    text = text.replace(dram, dram + "  - { name: below_dsu0, base: 0x29FF0000, size: 64KiB, endianness: little }\n"
                              "  - { name: below_cmn0, base: 0x4FFF0000, size: 64KiB, endianness: little }\n")
    path = os.path.join(directory, "mmio_group.yaml")
    open(path, "w").write(text)
    return ["--platform", path]

program = os.path.splitext(os.path.basename(elf))[0]
expected = expected_by_program[program]
failures = 0
for mode in ([], ["--reference"]):
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "log.jsonl")
        platform = group_platform(d) if program == "mmio_group" else []
        r = subprocess.run([pmusim, "firmware", "-q", elf, "--log-json", log] + platform + mode)
        if r.returncode != 0:
            print(f"{mode}: pmusim exited {r.returncode} (the program's own checks failed: see its exit status)")
            failures += 1
            continue
        got = [json.loads(l) for l in open(log) if '"address"' in l]
        if len(got) != len(expected):
            print(f"{mode}: {len(got)} memory-mapped accesses logged, expected {len(expected)}:")
            for g in got:
                print("  ", g)
            failures += 1
            continue
        for g, (op, addr, pc, value, size, cycle) in zip(got, expected):
            ok = (g["op"] == op and int(g["address"], 16) == addr and int(g["pc"], 16) == pc and g.get("size") == size
                  and g["cpu_cycle"] == cycle
                  and (value is None or int(g["value"], 16) == value)
                  and (value is not None or int(g["value"], 16) & 0xFFFF == 2))
            if not ok:
                print(f"{mode}: expected {op} {addr:#x} ({size} bytes) at pc {pc:#x} cycle {cycle} value "
                      f"{value if value is None else hex(value)}, logged {g}")
                failures += 1
sys.exit(1 if failures else 0)
