#!/usr/bin/env python3
"""Writes a minimal arm64 Image for the loader's tests: the 64-byte header of Linux
Documentation/arm64/booting.rst (code0 = a branch past the header, text_offset 0, image_size,
flags 0xa = little-endian, 4K pages, placed anywhere; magic 0x644d5241 at offset 56), then code
that calls PSCI SYSTEM_OFF (0x84000008, Arm DEN 0022D 5.1) over SMC; the words are GNU as's
(aarch64-linux-gnu-as 2.40). Optionally stores x0 (the DTB address) first at a known place.

  tiny_image.py OUT [--image-size N]
"""
import argparse
import struct

CODE = [
    0xd2b08000,  # mov  x0, #0x84000000
    0xf2800100,  # movk x0, #0x8           SYSTEM_OFF
    0xd4000003,  # smc  #0
    0x14000000,  # b    .
]

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--image-size", type=int, default=0x10000)
ap.add_argument("--magic", type=lambda v: int(v, 0), default=0x644D5241)
ap.add_argument("--big-endian", action="store_true", help="set flags bit 0 (kernel endianness)")
args = ap.parse_args()
header = struct.pack("<IIQQQQQQII", 0x14000010, 0, 0, args.image_size, 0xA | int(args.big_endian), 0, 0, 0, args.magic, 0)
body = b"".join(struct.pack("<I", w) for w in CODE)
with open(args.out, "wb") as f:
    f.write(header + body + b"\0" * (4096 - len(header) - len(body)))
