#!/usr/bin/env python3
"""The output rules of docs/reliability.md ("Outputs"), one case per class:
special files and `-` are written in place, symbolic links are followed, an output that is
one of the run's inputs is refused (exit 2, before any work, the input intact), temporary
files of dead runs are removed, and `simulate -o DIR` replaces the folder whole (no stale
samples, no foreign files lost). Usage: check_output_safety.py PMUSIM"""
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading

ENV = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEQ = "platform arm-default\nas cpu0 el3\nwrite CPTR_EL3 0\nread CPTR_EL3 == 0\n"
SCENARIO = """name: small
platform: arm-default
duration: 10us
{sample}
"""
SAMPLE = "sample:\n  every: 2us\n  counters: [\"dsu0.PMCCNTR\"]\n  jsonl: true\n"


def pmusim(*args, stdin=None, timeout=60):
    p = subprocess.run([PMUSIM, *args], capture_output=True, text=True, env=ENV, stdin=stdin, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def dead_pid():
    p = subprocess.Popen(["true"])
    p.wait()
    return p.pid


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)
    print("ok:", what)


def main():
    with tempfile.TemporaryDirectory() as d:
        seq = os.path.join(d, "in.seq")
        with open(seq, "w") as f:
            f.write(SEQ)

        # `-`: standard output, streaming.
        rc, out, err = pmusim("run", "-q", seq, "--log-json", "-")
        check(rc == 0 and '"target":"CPTR_EL3"' in out.replace(" ", ""), "--log-json - writes the log to stdout")
        check(not [n for n in os.listdir(d) if n.startswith("-")], "--log-json - creates no file named -")

        # A character device stays one.
        rc, out, err = pmusim("run", "-q", seq, "--log-json", "/dev/null", "--junit", "/dev/null")
        check(rc == 0 and stat.S_ISCHR(os.stat("/dev/null").st_mode), "/dev/null is written in place")

        # A FIFO is streamed into, not replaced.
        fifo = os.path.join(d, "log.fifo")
        os.mkfifo(fifo)
        got = []
        reader = threading.Thread(target=lambda: got.append(open(fifo).read()))
        reader.start()
        rc, out, err = pmusim("run", "-q", seq, "--log-json", fifo)
        reader.join(30)
        check(rc == 0 and stat.S_ISFIFO(os.stat(fifo).st_mode) and "CPTR_EL3" in got[0],
              "a FIFO output stays a FIFO and receives the log")

        # A symbolic link is followed: its target is replaced, the link stays.
        os.mkdir(os.path.join(d, "real"))
        target = os.path.join(d, "real", "log.jsonl")
        link = os.path.join(d, "link.jsonl")
        os.symlink(os.path.join("real", "log.jsonl"), link)  # dangling until the run writes it
        rc, out, err = pmusim("run", "-q", seq, "--log-json", link)
        check(rc == 0 and os.path.islink(link) and "CPTR_EL3" in open(target).read(),
              "a symbolic link's target is written, the link kept")

        # Outputs that are inputs: refused with exit 2 before any work, the input intact.
        plat = os.path.join(d, "plat.yaml")
        shutil.copy(os.path.join(ROOT, "platforms", "arm-default.yaml"), plat)
        plat_link = os.path.join(d, "plat-link.yaml")
        os.symlink("plat.yaml", plat_link)
        seq_on_plat = os.path.join(d, "on-plat.seq")
        with open(seq_on_plat, "w") as f:
            f.write("platform plat.yaml\n" + SEQ.split("\n", 1)[1])  # relative to the sequence's folder
        for args, victim in [(["run", seq, "--log-json", seq], seq),
                             (["run", seq, "--junit", os.path.join(d, ".", "in.seq")], seq),
                             (["run", seq_on_plat, "--vcd", plat], plat),
                             (["run", seq_on_plat, "--log-json", plat_link], plat)]:
            before = open(victim).read()
            rc, out, err = pmusim(*args)
            check(rc == 2 and "also an input" in err and open(victim).read() == before,
                  f"{' '.join(args[2:])}: refused, the input intact ({err.strip()[:90]})")
        scen = os.path.join(d, "s.yaml")
        with open(scen, "w") as f:
            f.write(SCENARIO.format(sample=SAMPLE))
        before = open(scen).read()
        rc, out, err = pmusim("simulate", scen, "-o", os.path.join(d, "out"), "--log-json", scen)
        check(rc == 2 and open(scen).read() == before and not os.path.exists(os.path.join(d, "out")),
              "simulate --log-json SCENARIO is refused before any output")

        # Temporary files of dead runs are removed by the next run writing the same name.
        log = os.path.join(d, "log.jsonl")
        stale = f"{log}.tmp-{dead_pid()}"
        open(stale, "w").write("half a log")
        rc, out, err = pmusim("run", "-q", seq, "--log-json", log)
        check(rc == 0 and not os.path.exists(stale) and os.path.exists(log), "a dead run's .tmp-PID file is removed")

        # simulate -o DIR: one consistent set.
        out_dir = os.path.join(d, "out")
        stale_dir = f"{out_dir}.tmp-{dead_pid()}"
        os.mkdir(stale_dir)
        rc, out, err = pmusim("simulate", scen, "-o", out_dir, "--no-progress")
        names = sorted(os.listdir(out_dir))
        check(rc == 0 and names == ["config.json", "samples.csv", "samples.jsonl", "stats.json"],
              f"simulate writes the whole set ({names})")
        check(not os.path.exists(stale_dir), "a dead run's output folder DIR.tmp-PID is removed")
        with open(scen, "w") as f:
            f.write(SCENARIO.format(sample=""))
        rc, out, err = pmusim("simulate", scen, "-o", out_dir, "--no-progress")
        names = sorted(os.listdir(out_dir))
        check(rc == 0 and names == ["config.json", "stats.json"], f"a re-run without sampling keeps no stale samples ({names})")
        check(not [n for n in os.listdir(d) if ".tmp-" in n], "no temporary folder is left beside DIR")
        rc, out, err = pmusim("simulate", scen, "-o", out_dir, "--no-progress", "--log-json",
                              os.path.join(out_dir, "access.jsonl"))
        check(rc == 0 and sorted(os.listdir(out_dir)) == ["access.jsonl", "config.json", "stats.json"],
              "a log written into the output folder is part of the set")
        open(os.path.join(out_dir, "notes.txt"), "w").write("mine")
        rc, out, err = pmusim("simulate", scen, "-o", out_dir, "--no-progress")
        check(rc == 2 and "notes.txt" in err and open(os.path.join(out_dir, "notes.txt")).read() == "mine",
              "a folder holding a file pmusim did not write is refused, the file kept")


if __name__ == "__main__":
    PMUSIM = sys.argv[1]
    main()
