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


def wanted(rel, with_perf):
    """Which files of the extracted packages go in: busybox, and for perf the perf binary and the
    shared libraries (not documentation, perl or python modules)."""
    if rel == "bin/busybox":
        return True
    if not with_perf:
        return False
    if rel.startswith("usr/bin/perf"):
        return True
    top = rel.split("/")
    if rel.startswith(("lib/", "usr/lib/")) and len(top) <= 4 and ".so" in top[-1]:
        return "/perl" not in rel and "/python" not in rel
    return False


def collect(root, with_perf):
    entries = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]):
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, root)
            if wanted(rel, with_perf):
                entries[rel] = full
    return entries


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
    perfs = sorted(r for r in files if r.startswith("usr/bin/perf_"))
    if perfs:
        cpio.entry("usr/bin/perf", stat.S_IFLNK | 0o777, os.path.basename(perfs[0]).encode())
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
