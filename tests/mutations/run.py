#!/usr/bin/env python3
"""The mutation set (tests/mutations/mutations.tsv, docs/mutations.md): deliberate model breaks,
each a small patch that one named test must catch.

Two ways to build a mutant:
  --in-place BUILD   apply the patch to this source tree, rebuild BUILD incrementally (one object
                     and a link), run the test, revert, rebuild again so BUILD is pristine. CI's
                     ctest does this (RUN_SERIAL: no other test runs meanwhile). A patch that does
                     not apply (local edits to its file) is reported and nothing is touched; a run
                     killed midway is undone by the next one (BUILD/mutants-applied.patch).
  (default)          copy the tree to WORK/tree (later only changed files) and build it in
                     WORK/tree/build: the source tree is never touched, but the first build is a
                     full one (ccache with CCACHE_BASEDIR shares objects between such copies).
Before the first mutation, the named tests run unmutated and must pass (a test that fails anyway
proves nothing).

    run.py --list                 the set
    run.py 07 12                  these (by number or name)
    run.py --rotate 2             two chosen by today's date (CI: a different pair each day)
    run.py --all                  every mutation (about a build and a test each)
    run.py --check                every patch still applies to this tree (seconds; CI runs it every
                                  time, so a model change that moves a patch's lines fails the day
                                  it lands, not the day the rotation reaches that patch)

Exit 0 when every chosen mutation was caught, 1 when one survived (its test passed on the broken
model) or could not be applied (the patch no longer fits the model: update it), 2 on bad usage.
"""
import argparse
import functools
import datetime
import filecmp
import os
import re
import shutil
import signal
import subprocess
import sys

print = functools.partial(print, flush=True)  # progress shows under ctest and in logs
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
MANIFEST = os.path.join(HERE, "mutations.tsv")
SKIP_DIRS = {".git", "__pycache__"}


def load():
    rows = []
    for n, line in enumerate(open(MANIFEST, encoding="utf-8"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.rstrip("\n").split("\t")
        if len(cols) != 4:
            sys.exit(f"{MANIFEST}:{n}: expected 4 tab-separated columns (patch, kind, test, what)")
        rows.append(dict(zip(("patch", "kind", "test", "what"), cols)))
    return rows


def sync_tree(source, tree):
    """Copy source to tree, writing only files whose content differs (mtimes of the others stay,
    so make rebuilds only what changed). Build folders and .git are left out."""
    for root, dirs, files in os.walk(source):
        rel = os.path.relpath(root, source)
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not (rel == "." and d.startswith("build"))]
        os.makedirs(os.path.join(tree, rel), exist_ok=True)
        for f in files:
            src, dst = os.path.join(root, f), os.path.join(tree, rel, f)
            if os.path.islink(src):
                continue
            if not os.path.exists(dst) or not filecmp.cmp(src, dst, shallow=False):
                shutil.copy2(src, dst)


def run(cmd, **kw):
    return subprocess.run(cmd, text=True, capture_output=True, **kw)


class Mutant:
    def __init__(self, work, jobs, in_place_build=None):
        self.work, self.jobs = work, jobs
        self.in_place = in_place_build is not None
        self.tree = SOURCE if self.in_place else os.path.join(work, "tree")
        self.build = os.path.abspath(in_place_build) if self.in_place else os.path.join(self.tree, "build")
        self.marker = os.path.join(self.build if self.in_place else work, "mutants-applied.patch")
        self.targets = set()
        self.env = dict(os.environ, CCACHE_BASEDIR=self.tree, CCACHE_NOHASHDIR="1",
                        CMAKE_CXX_COMPILER_LAUNCHER="ccache", CMAKE_C_COMPILER_LAUNCHER="ccache",
                        SC_COPYRIGHT_MESSAGE="DISABLE")

    def prepare(self):
        if self.in_place:
            self.env = dict(os.environ, SC_COPYRIGHT_MESSAGE="DISABLE")
            self.revert_leftover()
            return
        os.makedirs(self.work, exist_ok=True)
        self.revert_leftover()
        sync_tree(SOURCE, self.tree)
        if not os.path.exists(os.path.join(self.build, "CMakeCache.txt")):
            r = run(["cmake", "-S", self.tree, "-B", self.build, "-DCMAKE_BUILD_TYPE=Release"], env=self.env)
            if r.returncode:
                sys.exit(f"mutations: cannot configure the mutant tree:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")

    def revert_leftover(self):
        # A run killed between apply and revert leaves its patch recorded: undo it first.
        if os.path.exists(self.marker):
            run(["git", "apply", "-R", self.marker], cwd=self.tree)
            os.remove(self.marker)

    def target_of(self, test):
        return "pmusim_unit_tests" if test.startswith("unit:") else "pmusim"

    def build_for(self, test):
        self.targets.add(self.target_of(test))
        r = run(["nice", "cmake", "--build", self.build, "-j", str(self.jobs), "--target", self.target_of(test)], env=self.env)
        return r.returncode == 0, (r.stdout + r.stderr)[-3000:]

    def ctest(self, test):
        regex = "^" + re.escape(test) + "$"
        listed = run(["ctest", "--test-dir", self.build, "-N", "-R", regex], env=self.env)
        if not re.search(r"Total Tests: 1\b", listed.stdout):
            # unit tests are discovered when their binary is built: build it, then ask again
            return None, f"no ctest named '{test}' in the mutant build ({listed.stdout.strip().splitlines()[-1:]})"
        r = run(["ctest", "--test-dir", self.build, "-R", regex, "--output-on-failure", "--timeout", "900"], env=self.env)
        return r.returncode == 0, (r.stdout + r.stderr)[-3000:]

    def apply(self, patch):
        r = run(["git", "apply", patch], cwd=self.tree)
        if r.returncode:
            return False, r.stderr
        shutil.copy(patch, self.marker)
        return True, ""

    def revert(self, patch):
        run(["git", "apply", "-R", patch], cwd=self.tree)
        if os.path.exists(self.marker):
            os.remove(self.marker)

    def restore(self):
        """In place: rebuild what the mutants built, from the reverted sources (ccache hits)."""
        for target in sorted(self.targets):
            run(["nice", "cmake", "--build", self.build, "-j", str(self.jobs), "--target", target], env=self.env)


def choose(rows, args):
    if args.all:
        return rows
    if args.rotate:
        day = datetime.date.today().toordinal()
        start = (day * args.rotate) % len(rows)
        return [rows[(start + i) % len(rows)] for i in range(args.rotate)]
    picked = []
    for want in args.names:
        hit = [r for r in rows if r["patch"].startswith(want.zfill(2) + "-") or want in r["patch"]]
        if len(hit) != 1:
            sys.exit(f"mutations: '{want}' names {len(hit)} mutations (run.py --list)")
        picked += hit
    return picked


def check_all_apply(rows):
    """`git apply --check` of every patch: nothing is written to the tree."""
    stale = 0
    listed = {r["patch"] for r in rows}
    on_disk = {f for f in os.listdir(HERE) if f.endswith(".patch")}
    for f in sorted(on_disk - listed):
        print(f"UNLISTED {f}: a patch with no line in mutations.tsv")
        stale += 1
    for r in rows:
        patch = os.path.join(HERE, r["patch"])
        if not os.path.exists(patch):
            print(f"MISSING  {r['patch']}: listed in mutations.tsv, no such file")
            stale += 1
            continue
        res = run(["git", "apply", "--check", patch], cwd=SOURCE)
        if res.returncode:
            print(f"STALE    {r['patch']}: the patch no longer applies ({res.stderr.strip()})")
            stale += 1
    print(f"mutations: {len(rows) - stale} of {len(rows)} patches apply to this tree")
    return 1 if stale else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--rotate", type=int, default=0, metavar="N")
    ap.add_argument("--work", default=os.path.join(SOURCE, "build", "mutants"),
                    help="where the mutant tree and its build live (default build/mutants)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--in-place", metavar="BUILD", help="mutate this tree and rebuild BUILD (see above)")
    ap.add_argument("--check", action="store_true", help="only check that every patch applies")
    args = ap.parse_args()
    rows = load()
    if args.check:
        return check_all_apply(rows)
    if args.list:
        for r in rows:
            print(f"{r['patch']:40} {r['kind']:18} {r['test']}\n{'':40} {r['what']}")
        print(f"{len(rows)} mutations, {len({r['kind'] for r in rows})} kinds of rule")
        return 0
    chosen = choose(rows, args)
    if not chosen:
        ap.print_usage()
        return 2
    m = Mutant(os.path.abspath(args.work), args.jobs, args.in_place)
    m.prepare()
    # ctest's timeout sends SIGTERM: undo the patch before dying.
    def undo(signum, _frame):
        m.revert_leftover()
        sys.exit(128 + signum)
    signal.signal(signal.SIGTERM, undo)
    # The named tests must pass on the unmutated model first.
    for test in sorted({r["test"] for r in chosen}):
        ok, log = m.build_for(test)
        if not ok:
            print(f"mutations: the unmutated tree does not build:\n{log}")
            return 1
        passed, log = m.ctest(test)
        if not passed:
            print(f"mutations: '{test}' does not pass on the unmutated model, so it proves nothing:\n{log}")
            return 1
    survivors = 0
    for r in chosen:
        patch = os.path.join(HERE, r["patch"])
        applied, why = m.apply(patch)
        if not applied:
            print(f"STALE    {r['patch']}: the patch no longer applies ({why.strip()})")
            survivors += 1
            continue
        try:
            built, log = m.build_for(r["test"])
            if not built:
                print(f"STALE    {r['patch']}: the mutant does not build:\n{log}")
                survivors += 1
                continue
            passed, log = m.ctest(r["test"])
        finally:
            m.revert(patch)
        if passed is None:
            print(f"STALE    {r['patch']}: {log}")
            survivors += 1
        elif passed:
            print(f"SURVIVED {r['patch']} ({r['kind']}: {r['what']}): '{r['test']}' passed on the broken model")
            survivors += 1
        else:
            print(f"KILLED   {r['patch']} ({r['kind']}: {r['what']}) by '{r['test']}'")
    if m.in_place:
        m.restore()
    print(f"mutations: {len(chosen) - survivors} of {len(chosen)} caught by their named test")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
