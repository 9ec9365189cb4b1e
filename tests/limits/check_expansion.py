#!/usr/bin/env python3
"""What a file expands to is bounded, and long lines parse in linear time (docs/reliability.md
"Limits"): the size limits counted file bytes, so a short sequence repeating a long line, or a
scenario substituting a long ${} value many times, expanded to gigabytes and ended in
std::bad_alloc (exit 3); a 1.2 MB `let` line took a minute and a 160000-key `workload` statement
minutes, because each number's error context copied the whole line. Each case checks the exit
code, the message (file:line) and, for the parsing cases, a time bound.
Usage: check_expansion.py PMUSIM"""
import os
import subprocess
import sys
import tempfile
import time

PMUSIM = os.path.abspath(sys.argv[1])
ENV = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
# AddressSanitizer makes everything several times slower: the time bounds scale with it.
SLOWDOWN = 5 if "ASAN_OPTIONS" in os.environ else 1
failures = []


def run(args, want_exit, want_texts, what, max_seconds=60, input_text=None):
    start = time.monotonic()
    r = subprocess.run([PMUSIM] + args, capture_output=True, text=True, env=ENV, input=input_text,
                       timeout=max(120, 4 * max_seconds * SLOWDOWN))
    took = time.monotonic() - start
    out = r.stderr + r.stdout
    missing = [t for t in want_texts if t not in out]
    if r.returncode != want_exit or missing:
        failures.append(f"{what}: exit {r.returncode} (want {want_exit}), missing {missing}:\n{out[-800:]}")
    elif took > max_seconds * SLOWDOWN:
        failures.append(f"{what}: took {took:.1f} s, bound {max_seconds * SLOWDOWN} s")
    else:
        print(f"ok: {what} ({took:.1f} s)")
    return out


with tempfile.TemporaryDirectory() as d:
    def write(name, text):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    # 1. Expansion through an include: the repeat's own body is one short line, so only the bytes
    # spent line by line can stop it (a repeat of a long line directly is refused at once:
    # tests/sequences/language/bad/repeat_expands_too_many_bytes.seq). 10^6 x 10 KB would be 10 GB.
    write("long.inc", "echo " + "y" * 10000 + "\n")
    seq = write("include_long.seq", "platform arm-default\nrepeat 1000000\n  include long.inc\nend\n")
    run(["run", "-q", seq], 2, [f"{d}/long.inc:1 (included from {seq}:3, iteration ",
                               "the includes and repeats expand to more than 268435456 bytes"],
        "a repeated include of a 10 KB line", max_seconds=60)

    # 2. ${} substitution: a 1000-byte default used 2000 times in a 60 KB scenario is 2 MB of YAML.
    uses = "".join(f"  # ${{pad}} {i}\n" for i in range(2000))
    scen = write("subst.yaml", "name: s\nplatform: arm-default\nduration: 1us\nparams:\n  pad: " + "p" * 1000 +
                 "\ndescription: |\n" + uses)
    out = run(["simulate", scen, "-o", os.path.join(d, "subst-out")], 2,
              ["subst.yaml:", "${pad}: the text after substitution exceeds 1048576 bytes, the limit for a scenario file"],
              "${} substitution beyond the scenario limit")
    # Refused at the line of the use that crosses the bound: about 1048576 / 1015 uses in, line ~1040.
    line = out.split("subst.yaml:", 1)[-1].split(":", 1)[0]
    if not line.isdigit() or not 1000 < int(line) < 1100:
        failures.append(f"${{}} substitution: expected the refusal near line 1040 of subst.yaml, found '{line}'")
    # Below the bound it still works.
    scen = write("subst_ok.yaml", "name: s\nplatform: arm-default\nduration: 1us\nparams:\n  pad: " + "p" * 1000 +
                 "\ndescription: |\n" + "".join(f"  ${{pad}} {i}\n" for i in range(900)))
    run(["simulate", scen, "-o", os.path.join(d, "subst-ok-out"), "--no-progress"], 0, [],
        "${} substitution under the scenario limit")

    # 3. and 4. Long lines parse in linear time. On a shared machine wall times vary several-fold,
    # so each line is timed against one a tenth of its size in the same run: linear parsing gives
    # at most about 10x (less, with the process start in both), the old quadratic one over 50x.
    def timed(args, want_exit, want_texts, what):
        start = time.monotonic()
        run(args, want_exit, want_texts, what, max_seconds=120)
        return time.monotonic() - start

    def linear(what, make, want_exit, want_texts):
        small = timed(["run", "-q", make(10)], want_exit, want_texts(10), what(10))
        big = timed(["run", "-q", make(1)], want_exit, want_texts(1), what(1))
        if big > 20 * max(small, 0.2):
            failures.append(f"{what(1)}: {big:.1f} s, {big / small:.0f} times {what(10)} ({small:.1f} s): not linear")
        else:
            print(f"ok: {what(1)} in {big / small:.1f} times the time of a tenth of it")

    # A 1.8 MB `let`: 600000 terms; the value is checked by running that many cycles.
    def let_seq(div):
        n = 600000 // div
        return write(f"let{div}.seq", "platform arm-default\nlet n = " + " + ".join(["1"] * n) + "\nas cpu0 el3\n"
                     f"run n cycles of cpu0\nread AMEVCNTR00_EL0 == {n}\n")
    linear(lambda div: f"a let line of {600000 // div} terms", let_seq, 0, lambda div: [])

    # One workload statement with 160000 keys (1.7 MB): parsed (duplicates found with a set), then
    # refused at its first unknown key; a duplicate at the end is found as fast.
    def workload_seq(div, extra=""):
        keys = " ".join(f"k{i}=1/2" for i in range(160000 // div))
        return write(f"workload{div}{bool(extra)}.seq", "platform arm-default\nworkload cpu0 " + keys + extra + "\n")
    linear(lambda div: f"a workload statement of {160000 // div} keys", workload_seq, 2,
           lambda div: [":2: ", "unknown workload key 'k0'"])
    linear(lambda div: f"a duplicate key after {160000 // div} keys",
           lambda div: workload_seq(div, f" k{160000 // div - 1}=1"), 2,
           lambda div: [":2: ", f"duplicate key 'k{160000 // div - 1}'"])

    # 5. serve: lines of at most 64 KiB (a statement is at most a few KB); a line near the bound is
    # answered at once, a longer one ends the session with exit 2.
    near = "workload cpu0 " + " ".join(f"k{i}=1" for i in range(7000))
    assert len(near) < 65536
    out = run(["serve"], 0, ["ERR unknown workload key 'k0'", "OK"],
              f"serve: a {len(near) >> 10} KiB line", max_seconds=10, input_text=near + "\nrun 1 cycles\n")
    run(["serve"], 2, ["ERR <stdin>:2: line longer than 65536 bytes"], "serve: a line over 64 KiB",
        input_text="run 1 cycles\n" + "echo " + "z" * 70000 + "\nrun 1 cycles\n")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("expansion: bounded, and long lines parse in linear time")
