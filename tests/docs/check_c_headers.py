#!/usr/bin/env python3
"""The generated C headers (docs/c-headers.md): one file per register table (--output-dir), the
all-in-one header and a platform's header (--platform, a built-in name or a YAML file) included
together in tests/docs/c_headers_together.c, compiled with gcc -std=c11 -Wall -Werror and run: the
values it checks come from Linux, the Arm ARM and the DSU reference, and a board with 7 DSU counters
must get banks of 7. Each header also compiles alone. Run from the source directory:
check_c_headers.py PMUSIM"""
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    pmusim = sys.argv[1]
    cc = shutil.which("gcc") or shutil.which("cc")
    problems, checked = [], 0
    env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
    with tempfile.TemporaryDirectory() as inc:
        subprocess.check_call([pmusim, "regs", "--format", "c-header", "--output-dir", inc], env=env)
        with open(os.path.join(inc, "pmusim_registers.h"), "w") as f:
            subprocess.check_call([pmusim, "regs", "--format", "c-header"], stdout=f, env=env)
        subprocess.check_call([pmusim, "regs", "--format", "c-header", "--platform", "arm-default", "--output-dir", inc],
                              env=env)
        with open(os.path.join(inc, "dsu7-board.h"), "w") as f:
            subprocess.check_call([pmusim, "regs", "--format", "c-header", "--platform", "tests/docs/dsu7-board.yaml"],
                                  stdout=f, env=env)
        headers = sorted(h for h in os.listdir(inc) if h.endswith(".h"))
        for h in headers:  # each alone
            checked += 1
            r = subprocess.run([cc, "-x", "c", "-std=c11", "-Wall", "-Werror", "-fsyntax-only", os.path.join(inc, h)],
                               capture_output=True, text=True)
            if r.returncode:
                problems.append(f"{h} does not compile alone:\n{r.stderr}")
        for board, defines in (("dsu7-board.h", ["-DBOARD_DSU7"]), ("arm-default.h", [])):
            checked += 1
            exe = os.path.join(inc, "together")
            r = subprocess.run([cc, "-std=c11", "-Wall", "-Werror", "-I", inc, f'-DBOARD_HEADER="{board}"', *defines,
                                "tests/docs/c_headers_together.c", "-o", exe], capture_output=True, text=True)
            if r.returncode:
                problems.append(f"c_headers_together.c with {board} does not compile:\n{r.stderr}")
                continue
            r = subprocess.run([exe], capture_output=True, text=True)
            if r.returncode:
                problems.append(f"c_headers_together.c with {board}: {r.stdout}")
        # Only the banks indexed by event counter follow `counters`: with 3 counters PMEVCNTR and
        # PMEVTYPER have 3, the 4 PMCIDR identification registers stay 4.
        checked += 1
        board3 = os.path.join(inc, "dsu3-board.yaml")
        with open(board3, "w") as f:
            f.write(open("tests/docs/dsu7-board.yaml").read().replace("counters: 7", "counters: 3"))
        text = subprocess.run([pmusim, "regs", "--format", "c-header", "--platform", board3], capture_output=True,
                              text=True, env=env).stdout
        for want in ("#define DSU0_PMEVCNTR_COUNT 3u", "#define DSU0_PMEVTYPER_COUNT 3u", "#define DSU0_PMCIDR_COUNT 4u"):
            if want not in text:
                problems.append(f"3-counter board: header lacks '{want}'")
        if "DSU0_PMEVCNTR3_ADDR" in text:
            problems.append("3-counter board: header has DSU0_PMEVCNTR3_ADDR")
        # --platform is for c-header only, and an unknown platform is bad input (exit 2).
        for args in (["--format", "markdown", "--platform", "arm-default"],
                     ["--format", "c-header", "--platform", "no-such-board"]):
            checked += 1
            r = subprocess.run([pmusim, "regs", *args], capture_output=True, text=True, env=env)
            if r.returncode != 2 or not r.stderr:
                problems.append(f"pmusim regs {' '.join(args)}: exit {r.returncode}, expected 2 with a message")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"c headers: {checked - len(problems)} passed, {len(problems)} failed ({len(headers)} headers)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
