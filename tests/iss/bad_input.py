#!/usr/bin/env python3
"""Bad ELF files and bad runs: exit 2 with a message naming the reason (docs/firmware.md).

Variants are made from a good ELF by changing the fields the ELF-64 specification defines
(e_machine at offset 18, the program header table at e_phoff, p_paddr at +24 of a header)."""
import os, struct, subprocess, sys, tempfile

pmusim, good, forever, undefined, exception_loop = sys.argv[1:6]
data = open(good, "rb").read()
phoff = struct.unpack_from("<Q", data, 32)[0]
failures = []

def run(args, want_code, want_text):
    r = subprocess.run([pmusim] + args, capture_output=True, text=True, timeout=60)
    out = r.stdout + r.stderr
    if r.returncode != want_code or want_text not in out:
        failures.append(f"{args}: exit {r.returncode} (want {want_code}), output lacks {want_text!r}:\n{out[-600:]}")

with tempfile.TemporaryDirectory() as d:
    def variant(name, blob):
        path = os.path.join(d, name)
        open(path, "wb").write(blob)
        return path
    x86 = bytearray(data); struct.pack_into("<H", x86, 18, 62)          # EM_X86_64
    run(["firmware", variant("x86.elf", x86), "-q"], 2, "expected EM_AARCH64 (183)")
    run(["firmware", variant("truncated.elf", data[: phoff + 20]), "-q"], 2, "truncated")
    outside = bytearray(data); struct.pack_into("<Q", outside, phoff + 24, 0x1000)  # p_paddr of segment 0
    run(["firmware", variant("outside.elf", outside), "-q"], 2, "outside the platform's memory")
    two = bytearray(data)                                                  # a second header equal to the first
    two += data[phoff: phoff + 56]
    struct.pack_into("<Q", two, 32, len(data)); struct.pack_into("<H", two, 56, 2)
    two[len(data):] = data[phoff: phoff + 56] + data[phoff: phoff + 56]
    run(["firmware", variant("overlap.elf", bytes(two)), "-q"], 2, "overlaps another loadable segment")
    run(["firmware", os.path.join(d, "missing.elf"), "-q"], 2, "cannot read the ELF file")
    run(["firmware", forever, "-q", "--time-limit", "2us"], 2, "time limit")
    run(["firmware", undefined, "-q"], 2, "cannot be executed (UNDEFINED) and VBAR_EL3 is 0")
    run(["firmware", exception_loop, "-q"], 2, "exception loop")
if failures:
    print("\n".join(failures))
    sys.exit(1)
print("bad input: all refused with exit 2")
