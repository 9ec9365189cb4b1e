#!/usr/bin/env python3
"""GDB's memory reads and writes go through the CPU's MMU when it is on (docs/debugging.md,
"Memory"): GDB in batch mode against `pmusim firmware --el 1 --gdb 0 --gdb-wait` running
tests/gdb/gdb_mmu.S, whose header gives its mapping (VA 0x80200000 -> PA 0x80400000, read-only;
VA 0x80400000 -> PA 0x80400000, not executable; nothing from VA 0x80600000; TTBR1 the same).

With the MMU off an address reads the physical memory of that number; with it on, the VA reads
what its PA holds, which differs from what the VA's number holds physically; a read crossing into
another block is translated page by page; TTBR1 serves a VA with bit 55 set; an unmapped VA (also
one outside T0SZ's range) is an error in GDB for reads and writes, and pmusim goes on. GDB's writes
through the VAs reach the PAs (the firmware checks them and exits 0 only if it sees them, and that
the physical memory of the VA's number is untouched), and an instruction GDB writes through a
non-executable alias of code the firmware has already run is the one that runs next.

usage: check_gdb_mmu.py PMUSIM GDB NM ELF
"""
import re
import sys

from gdb_harness import Stub, fail, labelled_commands, labelled_sections, symbols as symbols_of

pmusim, gdb, nm, elf = sys.argv[1:5]

# The firmware's values (tests/gdb/gdb_mmu.S).
ident_value = 0x1DE7171E5A11A5E0
mapped_value = 0x0A11A5ED0B0E0F11
straddle_value = 0x5742ADD1E0000008
gdb_value_0 = 0x600D0000C0FFEE00
gdb_value_1 = 0x600D0001DEADBEEF
mov_x0_2 = 0xD2800040  # MOVZ X0, #2




symbols = symbols_of(nm, elf)

stub = Stub([pmusim, "firmware", "--el", "1", "--gdb", "0", "--gdb-wait", "--time-limit", "10ms", elf])

# (name, GDB command): each command's output is found after the marker `@@name`.
checks = [
    ("continue to mmu_off_stop", "continue"),
    ("off 0x80200000", "x/gx 0x80200000"),
    ("off 0x80400000", "x/gx 0x80400000"),
    ("continue to mmu_on_stop", "continue"),
    ("on 0x80200000", "x/gx 0x80200000"),
    ("on 0x80400000", "x/gx 0x80400000"),
    ("on ttbr1", "x/gx 0xffffff8080200000"),
    ("on straddle", "x/2gx 0x801ffff8"),
    ("on unmapped", "x/gx 0x80600000"),
    ("on unmapped ttbr1", "x/gx 0xffffff8080600000"),
    ("on outside t0sz", "x/gx 0x8000000000"),
    ("write unmapped", "set {unsigned long}0x80600008 = 1"),
    ("write alias", f"set {{unsigned long}}0x80200008 = {gdb_value_0:#x}"),
    ("write ttbr1", f"set {{unsigned long}}0xffffff8080200010 = {gdb_value_1:#x}"),
    ("write code", f"set {{unsigned int}}0x80400100 = {mov_x0_2:#x}"),
    ("read back", "x/3gx 0x80400000"),
    ("code back", "x/wx 0x80200100"),
    ("continue to the end", "continue"),
]
commands = labelled_commands([symbols['mmu_off_stop'], symbols['mmu_on_stop']], checks)
text = stub.gdb(gdb, elf, commands)
rc, out, err = stub.finish(text)

sections = labelled_sections(text)


def words(name):
    """The values `x` printed for check `name`, in order."""
    body = sections.get(name)
    if body is None:
        fail(f"no output for `{name}`", text, out, err)
    return [int(v, 16) for line in body.splitlines() if re.match(r"^0x[0-9a-f]+( <[^>]*>)?:", line)
            for v in re.findall(r"\t(0x[0-9a-f]+)", line)]


def expect(name, want, why):
    got = words(name)
    if got != want:
        fail(f"{why}: `{name}` read {[hex(v) for v in got]}, expected {[hex(v) for v in want]}", text, out, err)


def expect_error(name, address, why):
    body = sections.get(name, "")
    if f"Cannot access memory at address {address:#x}" not in body:
        fail(f"{why}: `{name}` gave no memory error for {address:#x}", text, out, err)


for name, where in (("continue to mmu_off_stop", "mmu_off_stop"), ("continue to mmu_on_stop", "mmu_on_stop")):
    if not re.search(rf"Breakpoint \d+, {symbols[where]:#018x} in {where} \(\)", sections.get(name, "")):
        fail(f"the firmware did not stop at {where}", text, out, err)
expect("off 0x80200000", [ident_value], "the MMU off: an address is physical")
expect("off 0x80400000", [mapped_value], "the MMU off: an address is physical")
expect("on 0x80200000", [mapped_value], "the MMU on: VA 0x80200000 reads its PA 0x80400000, not PA 0x80200000")
expect("on 0x80400000", [mapped_value], "the MMU on: the identity VA of PA 0x80400000")
expect("on ttbr1", [mapped_value], "a VA with bit 55 set goes through TTBR1_EL1")
expect("on straddle", [straddle_value, mapped_value], "a read across two blocks translates each page")
expect_error("on unmapped", 0x80600000, "an unmapped VA")
expect_error("on unmapped ttbr1", 0xFFFFFF8080600000, "an unmapped VA through TTBR1_EL1")
expect_error("on outside t0sz", 0x8000000000, "a VA outside TTBR0_EL1's 39-bit range")
expect_error("write unmapped", 0x80600008, "a write to an unmapped VA")
expect("read back", [mapped_value, gdb_value_0, gdb_value_1], "GDB's writes through the alias and TTBR1 read back at the PA")
expect("code back", [mov_x0_2], "GDB's instruction reads back through the executable alias")
if not re.search(r"\[Inferior 1 \([^)]*\) exited normally\]", sections.get("continue to the end", "")):
    fail("continue runs to the firmware's pass (exit 0): it saw GDB's writes at the PAs and ran GDB's instruction",
         text, out, err)
if rc != 0 or "gdb_mmu: pass" not in out:
    fail(f"pmusim exited {rc} without the pass line", text, out, err)
print(f"PASS: GDB's memory accesses through the MMU ({len(checks)} checks)")
