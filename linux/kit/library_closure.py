#!/usr/bin/env python3
"""Reads `apt-cache depends --recurse` output on stdin and prints the packages reachable from the
first one (printed as apt names them: NAME:arm64, or NAME for Architecture: all) through Depends/Pre-Depends edges to shared-library packages (lib*, zlib1g, gcc-*-base):
the libraries a dynamically linked program needs. The first alternative of an `A | B` group is
taken; virtual packages (<name>) are not followed (perl, python3: perf's scripting, not needed)."""
import re
import sys

LIBRARY = re.compile(r"^(lib|zlib1g$|gcc-\d+-base$)")


def main():
    graph, order, current, skip, headers = {}, [], None, False, set()
    for line in sys.stdin:
        if not line.strip():
            continue
        if not line.startswith(" "):
            current = line.strip().split(":")[0]
            graph.setdefault(current, [])
            headers.add(line.strip())
            order.append(current)
            skip = False
            continue
        m = re.match(r"^\s+(\|?)(Pre)?Depends: (\S+)", line)
        if not m or current is None:
            continue
        alternative, target = m.group(1) == "|", m.group(3)
        if skip:
            skip = alternative
            continue
        skip = alternative
        if not target.startswith("<"):
            graph[current].append(target.split(":")[0])
    if not order:
        sys.exit("library_closure: empty apt-cache output")
    seen, queue = [], [order[0]]
    while queue:
        p = queue.pop(0)
        if p in seen:
            continue
        seen.append(p)
        queue += [d for d in graph.get(p, []) if LIBRARY.match(d) and d not in seen]
    # As apt names them: NAME:arm64, or NAME alone for an Architecture: all package.
    print("\n".join(p + ":arm64" if p + ":arm64" in headers else p for p in seen))


if __name__ == "__main__":
    main()
