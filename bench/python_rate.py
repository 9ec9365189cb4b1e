#!/usr/bin/env python3
"""Round trip and batched rate of the Python client (python/pmusim) over `pmusim serve`.
Usage: PYTHONPATH=python python3 bench/python_rate.py build/pmusim [N]
Prints the mean time of one read sent alone (a round trip: write, serve executes, answer read)
and per read when N reads travel in one batch; each the best of three rounds (docs/performance.md)."""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import pmusim  # noqa: E402


def serve_cpu_s(session):
    """CPU seconds (user + system) the serve process used so far (/proc/PID/stat fields 14 and 15)."""
    with open(f"/proc/{session.proc.pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else None
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    with pmusim.Session(pmusim=binary) as s:
        s.use(el=1)
        s.read("CLUSTERPMCR_EL1")  # start-up and the `as` out of the way
        rounds = {"single": [], "batched": []}
        for _ in range(3):
            for kind in rounds:
                wall, own, serve = time.perf_counter(), time.process_time(), serve_cpu_s(s)
                if kind == "single":
                    for _ in range(n):
                        s.read("CLUSTERPMCR_EL1")
                else:
                    with s.batch():
                        for _ in range(n):
                            s.read("CLUSTERPMCR_EL1")
                rounds[kind].append(((time.perf_counter() - wall) / n, (time.process_time() - own) / n,
                                     (serve_cpu_s(s) - serve) / n))
    for kind, label in (("single", "round trip (one read per call)"),
                        ("batched", f"batched ({n} reads per batch, {pmusim.Session.CHUNK_STATEMENTS} per write)")):
        wall, own, serve = min(rounds[kind])
        print(f"python {label}: {wall * 1e6:.1f} us per read wall; CPU per read: "
              f"python {own * 1e6:.1f} us, serve {serve * 1e6:.1f} us")


if __name__ == "__main__":
    main()
