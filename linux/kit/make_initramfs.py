#!/usr/bin/env python3
"""Writes the kit's uncompressed newc initramfs (Linux Documentation/driver-api/early-userspace/
buffer-format.rst: "070701" headers, 4-byte alignment, a TRAILER!!! entry), deterministically
(sorted entries, mtime 0, owner root), without root privileges.

/init (busybox sh) mounts proc, sysfs and devtmpfs, installs busybox's applets, loads the PMU
driver modules, runs /test.sh and powers the machine off (PSCI SYSTEM_OFF). The test script's exit
status is printed as 'pmusim-init: test exit N' so a harness can read it from the console.
"""
import argparse
import os
import stat
import sys

INIT = """#!/bin/busybox sh
/bin/busybox mkdir -p /proc /sys /dev /tmp /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in /lib/modules/pmusim/*.ko; do
  [ -e "$m" ] || continue
  insmod "$m" || echo "pmusim-init: insmod $m failed"
done
echo "pmusim-init: running /test.sh"
sh /test.sh
echo "pmusim-init: test exit $?"
sync
poweroff -f
"""

DEFAULT_TEST = """# No test script given: an interactive shell on the console.
exec sh
"""


class Newc:
    def __init__(self):
        self.out = bytearray()
        self.inode = 1

    def entry(self, name, mode, data=b""):
        name_bytes = name.encode() + b"\0"
        header = "070701" + "".join(f"{v:08X}" for v in (
            self.inode, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name_bytes), 0))
        self.inode += 1
        self.out += header.encode() + name_bytes
        self.out += b"\0" * (-len(self.out) % 4)
        self.out += data
        self.out += b"\0" * (-len(self.out) % 4)

    def trailer(self):
        self.inode = 0
        self.entry("TRAILER!!!", 0)


LIBRARY_DIRS = ("lib/aarch64-linux-gnu", "usr/lib/aarch64-linux-gnu", "lib", "usr/lib")


def elf_needs(path):
    """PT_INTERP and the DT_NEEDED names of an ELF64 little-endian file (ELF-64 Object File
    Format: program headers, the dynamic section's DT_NEEDED = 1 entries as offsets into DT_STRTAB
    = 5, an address mapped back to the file through the PT_LOAD segments)."""
    import struct
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        return None, []
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    loads, dynamic, interp = [], None, None
    for i in range(phnum):
        p_type, _, p_offset, p_vaddr, _, p_filesz, _, _ = struct.unpack_from("<IIQQQQQQ", data, phoff + i * phentsize)
        if p_type == 1:
            loads.append((p_vaddr, p_offset, p_filesz))
        elif p_type == 2:
            dynamic = (p_offset, p_filesz)
        elif p_type == 3:
            interp = data[p_offset:p_offset + p_filesz].split(b"\0")[0].decode()
    if not dynamic:
        return interp, []
    entries = [struct.unpack_from("<qQ", data, dynamic[0] + k) for k in range(0, dynamic[1], 16)]
    strtab = next((v for t, v in entries if t == 5), None)
    for vaddr, offset, size in loads:
        if strtab is not None and vaddr <= strtab < vaddr + size:
            strtab = strtab - vaddr + offset
            break
    names = []
    for t, v in entries:
        if t == 1 and strtab is not None:
            end = data.index(b"\0", strtab + v)
            names.append(data[strtab + v:end].decode())
    return interp, names


def resolve(root, rel):
    """The file a path in the tree names, following symbolic links inside the tree."""
    for _ in range(16):
        full = os.path.join(root, rel)
        if not os.path.islink(full):
            return rel
        target = os.readlink(full)
        rel = os.path.normpath(target.lstrip("/") if target.startswith("/") else os.path.join(os.path.dirname(rel), target))
    return rel


def closure(root, programs):
    """Every path (links and their targets) the programs need to run: the dynamic loader and the
    DT_NEEDED libraries, recursively, found in the multiarch library folders."""
    needed, queue = set(), list(programs)
    while queue:
        rel = queue.pop()
        if rel in needed:
            continue
        needed.add(rel)
        real = resolve(root, rel)
        if real != rel:
            queue.append(real)
            continue
        interp, libs = elf_needs(os.path.join(root, rel))
        if interp:
            queue.append(interp.lstrip("/"))
        for lib in libs:
            for d in LIBRARY_DIRS:
                if os.path.lexists(os.path.join(root, d, lib)):
                    queue.append(os.path.join(d, lib))
                    break
            else:
                sys.exit(f"make_initramfs: {rel} needs {lib}, which no extracted package provides")
    return needed


def collect(root, with_perf):
    programs = ["bin/busybox"] + (["usr/bin/perf"] if with_perf else [])
    for p in programs:
        if not os.path.exists(os.path.join(root, p)):
            sys.exit(f"make_initramfs: {root}/{p} is missing")
    return {rel: os.path.join(root, rel) for rel in closure(root, programs)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True, help="the extracted busybox/perf packages")
    ap.add_argument("--modules", required=True, help="folder of .ko files to insmod")
    ap.add_argument("--script", help="the test script /init runs")
    ap.add_argument("--out", required=True)
    ap.add_argument("--no-perf", action="store_true")
    args = ap.parse_args()

    files = collect(args.root, not args.no_perf)
    dirs = set()
    for rel in files:
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]))
    dirs |= {"lib", "lib/modules", "lib/modules/pmusim", "proc", "sys", "dev", "tmp", "usr", "usr/bin"}
    cpio = Newc()
    for d in sorted(dirs):
        cpio.entry(d, stat.S_IFDIR | 0o755)
    for rel in sorted(files):
        full = files[rel]
        if os.path.islink(full):
            cpio.entry(rel, stat.S_IFLNK | 0o777, os.readlink(full).encode())
        else:
            with open(full, "rb") as f:
                cpio.entry(rel, stat.S_IFREG | 0o755, f.read())
    for ko in sorted(os.listdir(args.modules)):
        if ko.endswith(".ko"):
            with open(os.path.join(args.modules, ko), "rb") as f:
                cpio.entry("lib/modules/pmusim/" + ko, stat.S_IFREG | 0o644, f.read())
    cpio.entry("init", stat.S_IFREG | 0o755, INIT.encode())
    if args.script:
        with open(args.script, "rb") as f:
            test = f.read()
    else:
        test = DEFAULT_TEST.encode()
    cpio.entry("test.sh", stat.S_IFREG | 0o755, test)
    cpio.trailer()
    tmp = args.out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(cpio.out)
    os.replace(tmp, args.out)


if __name__ == "__main__":
    sys.exit(main())
