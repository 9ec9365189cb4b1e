#!/usr/bin/env python3
"""GDB's memory reads follow the CPU's translation regime (docs/debugging.md "Memory",
docs/firmware.md "What the ISS leaves out"): at EL3 they are flat, VA = PA, even while EL1's MMU is
on; at EL1 they go through EL1's tables. GDB in batch mode against `pmusim firmware --gdb 0
--gdb-wait` running tests/iss/el_regime.S, whose EL1 tables map the VA of its data page to a decoy
page (and the VA of EL3's code to a page of zeros):
  - stopped at el3_smc (EL3, taken from EL1 with its MMU on): the data page reads the magic word
    (what its PA holds), EL3's code reads its instruction words (not the zero page);
  - stopped at poll (EL1, MMU on): the same VA reads the decoy word.
Then the firmware runs to its pass.

usage: check_gdb_el_regime.py PMUSIM GDB NM ELF
"""
import re
import sys

from gdb_harness import Stub, fail, labelled_commands, labelled_sections, symbols as symbols_of

pmusim, gdb, nm, elf = sys.argv[1:5]
MAGIC, DECOY = 0x3E13E13E, 0xDEC0DEC0  # tests/iss/el_regime.S
ADR_X21 = 0x10  # `adr x21, data_page`: ADR's fixed bits [28:24] = 0b10000 (Arm ARM C6.2.11)

symbols = symbols_of(nm, elf)
stub = Stub([pmusim, "firmware", "--gdb", "0", "--gdb-wait", "--time-limit", "1ms", elf])
checks = [
    ("continue to el3_smc", "continue"),
    ("el3 data", f"x/wx {symbols['data_page']:#x}"),
    ("el3 code", f"x/wx {symbols['el3_smc']:#x}"),
    ("el3 currentel", "p/x $cpsr"),
    ("continue to poll", "continue"),
    ("el1 data", f"x/wx {symbols['data_page']:#x}"),
    ("delete", "delete"),
    ("continue to the end", "continue"),
]
commands = labelled_commands([symbols['el3_smc'], symbols['poll']], checks)
text = stub.gdb(gdb, elf, commands)
rc, out, err = stub.finish(text)

sections = labelled_sections(text)


def word(name):
    m = re.search(r"^0x[0-9a-f]+( <[^>]*>)?:\s+(0x[0-9a-f]+)", sections.get(name, ""), re.M)
    if not m:
        fail(f"no word read for `{name}`", text, out, err)
    return int(m.group(2), 16)


for name, where in (("continue to el3_smc", "el3_smc"), ("continue to poll", "poll")):
    if not re.search(rf"Breakpoint \d+, {symbols[where]:#018x} in {where} \(\)", sections.get(name, "")):
        fail(f"the firmware did not stop at {where}", text, out, err)
m = re.search(r"= (0x[0-9a-f]+)", sections.get("el3 currentel", ""))
if not m or (int(m.group(1), 16) >> 2) & 3 != 3:
    fail("the stop at el3_smc is not at EL3 (PSTATE.EL [3:2])", text, out, err)
if word("el3 data") != MAGIC:
    fail(f"at EL3 the data page reads {word('el3 data'):#x}, not what its PA holds ({MAGIC:#x})", text, out, err)
if (word("el3 code") >> 24) & 0x1F != ADR_X21 or word("el3 code") & 0x1F != 21:
    fail(f"at EL3 el3_smc reads {word('el3 code'):#x}, not its ADR X21 (EL1's zero page?)", text, out, err)
if word("el1 data") != DECOY:
    fail(f"at EL1 the data page's VA reads {word('el1 data'):#x}, not the decoy its tables map ({DECOY:#x})", text, out, err)
if not re.search(r"\[Inferior 1 \([^)]*\) exited normally\]", sections.get("continue to the end", "")):
    fail("the firmware did not run to its pass", text, out, err)
if rc != 0:
    fail(f"pmusim exited {rc}", text, out, err)
print("PASS: GDB reads flat at EL3 and through EL1's tables at EL1")
