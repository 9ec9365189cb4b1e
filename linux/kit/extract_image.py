#!/usr/bin/env python3
"""Takes the uncompressed arm64 Image out of a Debian vmlinuz (linux/kit, docs/linux.md).

A vmlinuz is one of: a gzip stream of the Image (Debian bookworm), an EFI zboot image
(Linux drivers/firmware/efi/libstub/zboot-header.S: "MZ", "zimg" at offset 4, payload offset and
size as little-endian 32-bit words at 8 and 12, the compression name at 24), or already an Image
(Documentation/arm64/booting.rst: magic 0x644d5241 at offset 56). Exit 1 when it is none of them.
"""
import gzip
import lzma
import struct
import sys

IMAGE_MAGIC_OFFSET = 56
IMAGE_MAGIC = b"ARM\x64"


def decompress(kind, payload, path):
    if kind == "gzip":
        return gzip.decompress(payload)
    if kind in ("lzma", "xzkern", "xz"):
        return lzma.decompress(payload)
    if kind == "zstd22" or kind == "zstd":
        import subprocess
        return subprocess.run(["zstd", "-qdc"], input=payload, stdout=subprocess.PIPE, check=True).stdout
    sys.exit(f"{path}: EFI zboot payload compressed with '{kind}', which this kit cannot decompress")


def extract(data, path):
    if data[:2] == b"\x1f\x8b":
        return gzip.decompress(data)
    if data[:2] == b"MZ" and data[4:8] == b"zimg":
        offset, size = struct.unpack_from("<II", data, 8)
        kind = data[24:56].split(b"\0", 1)[0].decode("ascii", "replace")
        return decompress(kind, data[offset:offset + size], path)
    if data[IMAGE_MAGIC_OFFSET:IMAGE_MAGIC_OFFSET + 4] == IMAGE_MAGIC:
        return data
    sys.exit(f"{path}: neither gzip, EFI zboot nor an arm64 Image")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: extract_image.py VMLINUZ IMAGE")
    source, target = sys.argv[1], sys.argv[2]
    with open(source, "rb") as f:
        image = extract(f.read(), source)
    if image[IMAGE_MAGIC_OFFSET:IMAGE_MAGIC_OFFSET + 4] != IMAGE_MAGIC:
        sys.exit(f"{source}: the decompressed payload has no arm64 Image magic at offset 56")
    with open(target + ".tmp", "wb") as f:
        f.write(image)
    import os
    os.replace(target + ".tmp", target)


if __name__ == "__main__":
    main()
