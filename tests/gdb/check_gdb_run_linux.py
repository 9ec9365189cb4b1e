#!/usr/bin/env python3
"""`--gdb` on `pmusim run` (a sequence's exec statement) and on `pmusim linux` (issue 32 item 1,
docs/debugging.md): GDB in batch mode attaches to the held CPU, sees it as a thread at its entry
point, steps (linux: the Image header's branch to 0x40, then MOVZ), reads a general register,
writes and reads back an FP/SIMD register through the ISS, and continues to the end; pmusim exits 0
with the sequence's expectations passed / the kernel's PSCI SYSTEM_OFF.

usage: check_gdb_run_linux.py PMUSIM GDB ISS_ELF_DIR TINY_IMAGE_PY
Every wait is bounded; the port is the one the system picked (--gdb 0).
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gdb_harness import Stub  # noqa: E402

pmusim, gdb, elf_dir, tiny_image = sys.argv[1:5]
ENV = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
failures = []


def session(what, sim_args, gdb_args, expect, sim_expect, cwd):
    """pmusim SIM_ARGS held for GDB; GDB on gdb_args = (ELF or None, commands); the outputs checked."""
    stub = Stub([pmusim, *sim_args], env=ENV, cwd=cwd)
    g = stub.gdb(gdb, gdb_args[0], gdb_args[1])
    returncode, out, err = stub.finish(g)
    bad = [w for p, w in expect if not re.search(p, g)]
    bad += [w for p, w in sim_expect if not re.search(p, out + err)]
    if returncode != 0:
        bad.append(f"pmusim exited {returncode}, expected 0")
    if bad:
        failures.append(f"{what}: " + "; ".join(bad) + f"\n--- gdb:\n{g}\n--- pmusim:\n{out}{err}")
    else:
        print(f"ok: {what}")


with tempfile.TemporaryDirectory() as tmp:
    # pmusim run: the exec statement's firmware is held for GDB (tests/iss/exec_mix.seq runs
    # amu_count.elf on cpu0 at EL3, then reads AMCNTENSET0_EL0 == 0 once cpu0 is off).
    amu_count = os.path.join(elf_dir, "amu_count.elf")
    session("pmusim run --gdb: an exec statement's firmware",
            ["run", "--gdb", "0", "--gdb-wait", os.path.join(elf_dir, "exec_mix.seq")],
            (amu_count, ["info threads", "print/x $pc", "set $v1.d.u[1] = 0x1122334455667788", "print/x $v1.d.u[1]",
                           "print/x $fpsr", "continue"]),
            [(r"\* 1\s+Thread 1 \(cpu0 EL3 running firmware\)", "info threads lists cpu0 at EL3"),
             (r"\$1 = 0x80000000\b", "the PC at the ELF's entry (0x80000000, tests/iss/common.inc)"),
             (r"\$2 = 0x1122334455667788\b", "V1 written and read back through the ISS"),
             (r"\$3 = 0x0\b", "FPSR reads 0 out of reset"),
             (r"\[Inferior 1 \([^)]*\) exited normally\]", "continue runs the firmware to its pass")],
            [(r"amu_count\.elf passed", "the firmware passed"),
             (r"expectations: 2 passed, 0 failed", "the sequence's expectations passed after the firmware")],
            tmp)
    # pmusim linux: the minimal Image of tests/linux (header branch to 0x40, MOVZ, MOVK, SMC
    # SYSTEM_OFF), held before its first instruction.
    subprocess.run([sys.executable, tiny_image, os.path.join(tmp, "tiny.Image")], check=True)
    with open(os.path.join(tmp, "small.cpio"), "w") as f:
        f.write("not a cpio")
    session("pmusim linux --gdb: the kernel's boot CPU",
            ["linux", "--kernel", "tiny.Image", "--initrd", "small.cpio", "--gdb", "0", "--gdb-wait"],
            (None, ["set architecture aarch64", "info threads", "print/x $pc", "stepi", "print/x $pc", "stepi",
                  "print/x $x0", "set $v0.d.u[0] = 0xa5a5a5a5a5a5a5a5", "print/x $v0.d.u[0]", "continue"]),
            [(r"\* 1\s+Thread 1 \(cpu0 EL1 ", "info threads lists cpu0 at EL1 first"),
             (r"\$1 = 0x80000000\b", "the PC at the Image's load address"),
             (r"\$2 = 0x80000040\b", "one step takes the header's branch to code0 + 0x40"),
             (r"\$3 = 0x84000000\b", "the next step ran MOVZ x0, #0x8400, LSL #16"),
             (r"\$4 = 0xa5a5a5a5a5a5a5a5\b", "V0 written and read back through the ISS"),
             (r"\[Inferior 1 \([^)]*\) exited normally\]", "continue runs the kernel to SYSTEM_OFF")],
            [(r"PSCI SYSTEM_OFF", "the Image powered off")],
            tmp)

for f in failures:
    print("FAIL: " + f)
sys.exit(1 if failures else 0)
