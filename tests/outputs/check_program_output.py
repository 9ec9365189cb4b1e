#!/usr/bin/env python3
"""Output as users expect (docs/sequence-language.md, "What goes where"; docs/firmware.md):
the firmware's own output on stdout even with -q, pmusim's diagnostics on stderr, the unit summary
only with --summary or after a failure, errors naming the ELF (never `<command line>:1:`), log
times that never go backwards around `exec`, and a CPU whose firmware exited is off (its AMU
stops and loses its state, as after PSCI CPU_OFF).
Usage: check_program_output.py PMUSIM ISS_ELF_DIR"""
import os
import re
import subprocess
import sys
import tempfile

ENV = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
SUMMARY = re.compile(r"^amu cpu0 \(AMUv1p1\): ", re.M)  # the first line of the unit summary
UNITS = {"fs": 1, "ps": 10**3, "ns": 10**6, "us": 10**9, "ms": 10**12, "s": 10**15}
failures = []


def run(*args, cwd=None):
    p = subprocess.run([*args], env=ENV, capture_output=True, text=True, timeout=60, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def check(ok, what, detail=""):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)
        if detail:
            print(detail)


def main():
    exe, elfs = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    passing, failing = os.path.join(elfs, "amu_count.elf"), os.path.join(elfs, "exit_status.elf")
    with tempfile.TemporaryDirectory() as tmp:
        # -q: stdout is exactly what the firmware printed (tests/iss/amu_count.S: "amu_count: ok").
        rc, out, err = run(exe, "firmware", "-q", passing)
        check(rc == 0 and out == "amu_count: ok\n", "-q keeps the firmware's own output, and only it", out + err)
        # Without -q: the log, the firmware's line, no unit summary.
        rc, out, err = run(exe, "firmware", passing)
        check(rc == 0 and "amu_count: ok\n" in out and not SUMMARY.search(out),
              "a passing run prints no unit summary", out)
        rc, out, err = run(exe, "firmware", "--summary", passing)
        check(rc == 0 and SUMMARY.search(out), "--summary prints every unit's counters", out)
        # A failure (exit status 3) prints the summary: what the counters were then.
        rc, out, err = run(exe, "firmware", failing)
        check(rc == 1 and SUMMARY.search(out) and "firmware exit status 3" in err,
              "a failed run prints the summary, and its failure on stderr", out + err)
        rc, out, err = run(exe, "firmware", "-q", failing)
        check(rc == 1 and not SUMMARY.search(out), "-q prints no summary even after a failure", out)
        # A malformed ELF: one clear error naming the file, on stderr; no summary.
        bad = os.path.join(tmp, "bad.elf")
        open(bad, "w").write("garbage\n")
        rc, out, err = run(exe, "firmware", "bad.elf", cwd=tmp)
        check(rc == 2 and "<command line>" not in err and "bad.elf: bad.elf" not in err
              and re.search(r"^(pmusim: )?bad\.elf: not an ELF", err, re.M) and not SUMMARY.search(out),
              "a malformed ELF: exit 2, the error names the file once, on stderr, no summary", out + err)
        # exec twice, then text: log times never go backwards, and cpu0 is off after its exit:
        # its AMU (which the firmware enabled, AMCNTENSET0_EL0 = 0xf) lost its state and counts nothing.
        seq = os.path.join(tmp, "mix.seq")
        open(seq, "w").write(f"""platform arm-default
run 100 cycles
exec cpu0 el3 secure {passing}
exec cpu4 el3 secure {passing}
as cpu0 el3
read AMCNTENSET0_EL0 == 0
run 1000 cycles of cpu4
read AMEVCNTR00_EL0 == 0
read AMEVCNTR01_EL0 == 0
""")
        rc, out, err = run(exe, "run", seq)
        times = [int(float(v) * UNITS[u]) for v, u in re.findall(r"^\[([0-9.]+) ?(fs|ps|ns|us|ms|s)\]", out, re.M)]
        check(len(times) >= 4 and times == sorted(times), f"log times never go backwards around exec: {times}", out)
        check(rc == 0, "an exited CPU is off: its AMU reads its reset state and does not count", out + err)
        # The UART's output is the program's too: on stdout with -q, and only it (issue 32 item 3).
        # tests/platforms/devices.yaml's uart0 with `output: stdout`; UARTCR 0x301 = UARTEN | TXE |
        # RXE (ARM DDI 0183 3.3.8), then "Hi\n" into UARTDR.
        platform = os.path.join(tmp, "uart.yaml")
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "platforms", "devices.yaml")
        text = open(source).read()
        check("params: { output: none }" in text, "devices.yaml's uart0 writes to `output: none` (the test edits it)")
        open(platform, "w").write(text.replace("params: { output: none }", "params: { output: stdout }"))
        uart = os.path.join(tmp, "uart.seq")
        open(uart, "w").write(f"platform {platform}\nas cpu0 el1\nwrite uart0.UARTCR 0x301\n"
                              "write uart0.UARTDR 0x48\nwrite uart0.UARTDR 0x69\nwrite uart0.UARTDR 0x0a\nrun 1us\n")
        rc, out, err = run(exe, "run", "-q", uart)
        check(rc == 0 and out == "Hi\n", "-q keeps the UART's output on stdout, and only it", out + err)
    if failures:
        sys.exit(f"{len(failures)} check(s) failed")


if __name__ == "__main__":
    main()
