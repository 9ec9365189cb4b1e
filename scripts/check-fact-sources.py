#!/usr/bin/env python3
"""Checks the facts files (tests/facts/*.tsv) against the source lines they cite.

Linux: every `linux:FILE@VERSION (TEXT)` citation is checked against Debian's linux-source-6.1
(--linux /usr/src/linux-source-6.1.tar.xz, installed by scripts/install-deps.sh; only the cited
files are extracted, once, into --cache): the file must exist, every macro the text names must be
defined or used in it (a `Sysreg`/`Field` line of arch/arm64/tools/sysreg must be there as cited),
and where the text gives the macro's value the fact's number must be in the macro's definition.
A Linux citation without @COMMIT or @vX.Y is an error. Files that Linux 6.1 does not have (the
CoreSight PMU driver arrived in 6.2) are checked against --linux-later (linux-source-6.12) when given,
else counted as not checkable here.

The ctest `facts:` cases compare the models with the facts files; this script closes the other
side: that each fact says what the cited line of TF-A, skiboot or cmn-tools says. It reads the
sources from local git clones at the commits the facts files name (nothing is downloaded):

    scripts/check-fact-sources.py --tfa ~/src/arm-trusted-firmware --skiboot ~/src/skiboot \
        --cmn-tools ~/src/cmn-tools

A clone may be bare. Facts citing other sources (Linux, the Arm ARM, TRMs) are counted as not
checked here; docs/facts.md says how those were checked. Exit 0 when every checked fact agrees,
1 when one does not (each printed with file:line, the fact and the cited text), 2 on bad usage.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tarfile

# The commits the facts were transcribed from (also in the header of every facts file).
COMMITS = {"tfa": "6a164dda7208", "skiboot": "ecebf4fb3d9c", "cmn-tools": "34baf88b0fe9"}
CITATION = re.compile(r"\b(tfa|skiboot|cmn-tools):([\w./-]+):(\d+)")
NUMBER = re.compile(r"\b(0x[0-9a-fA-F]+|\d+)(?:ull|ul|u|ll|l)?\b", re.IGNORECASE)
SYSREG = re.compile(r"\bS(\d)_(\d)_C(\d+)_C(\d+)_(\d)\b")


class Sources:
    def __init__(self, clones):
        self.clones, self.cache = clones, {}

    def lines(self, repo, path):
        key = (repo, path)
        if key not in self.cache:
            gitdir = self.clones[repo]
            text = subprocess.run(["git", "--git-dir", gitdir, "show", f"{COMMITS[repo]}:{path}"] if
                                  os.path.isdir(os.path.join(gitdir, "objects")) else
                                  ["git", "-C", gitdir, "show", f"{COMMITS[repo]}:{path}"],
                                  capture_output=True, text=True, check=True).stdout
            self.cache[key] = text.split("\n")
        return self.cache[key]


def numbers(text):
    return {int(n, 0) for n in NUMBER.findall(text)}


def contiguous_width(mask):
    if mask == 0:
        return None
    while mask & 1 == 0:
        mask >>= 1
    width = mask.bit_length()
    return width if mask == (1 << width) - 1 else None


def check_regdefs(fact, line):
    """cmn-tools regdefs: 'R <offset> <width> ...', 'F <lsb> <width> <name>', 'RESET <value> <mask>'."""
    words = line.split()
    kind, value = fact["kind"], fact["value"]
    if kind == "field" and words[:1] == ["F"]:
        return [int(words[1]), int(words[2])] == [int(v, 0) for v in value.split(",")]
    if kind == "offset" and words[:1] == ["R"]:
        return int(words[1], 0) == int(value, 0)
    if kind == "width" and words[:1] == ["R"]:
        return int(words[2], 0) == int(value, 0)
    if kind == "reset" and words[:1] == ["RESET"]:
        return int(words[1], 0) == int(value, 0)
    return False


def xscom_p9(macro, core, addr):
    # skiboot include/xscom.h XSCOM_ADDR_P9_EQ / XSCOM_ADDR_P9_EC, for a PCB address.
    if macro == "XSCOM_ADDR_P9_EQ":
        return ((((core) & 0x1C) + 0x40) << 22) | addr
    return ((((core) & 0x1F) + 0x20) << 24) | addr


def defined_values(text):
    """The values of the '#define NAME <constant expression>' lines in text (U(), UL(), ULL() and
    integer suffixes dropped; only numbers, shifts, | & + - ( ) are evaluated)."""
    values = set()
    for body in re.findall(r"#define\s+\w+\s+(.*?)(?=#define|/\*|$)", text):
        expr = re.sub(r"\bU?L?L?\(([^()]*)\)", r"(\1)", body.strip())
        expr = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)(?:ull|ul|u|ll|l)\b", r"\1", expr, flags=re.IGNORECASE)
        if expr and re.fullmatch(r"[0-9a-fA-FxX\s()|&+<>-]+", expr):
            try:
                values.add(int(eval(expr, {"__builtins__": {}})))
            except Exception:
                pass
    return values


def check_text(fact, text):
    """A header line: the fact's numbers must all be in the cited text."""
    kind, value = fact["kind"], fact["value"]
    found = numbers(text) | defined_values(text)
    if kind == "encoding":
        want = tuple(int(v, 0) for v in value.split(","))
        encodings = {tuple(int(g) for g in m) for m in SYSREG.findall(text)}
        return want in encodings or (len(want) == 5 and set(want) <= found)
    if kind == "field":
        lsb, width = (int(v, 0) for v in value.split(","))
        if width == 1 and (1 << lsb) in found:
            return True
        masks = {n for n in found if contiguous_width(n) == width and n & -n == 1 << lsb}
        if masks:
            return True
        if lsb not in found and not (lsb == 0 and width > 1):
            return False
        # A macro taking the field's value, '((x) << lsb)', names the position only: the width
        # is then the fact's other source (the next field's shift, the Arm ARM).
        if width == 1 or re.search(r"\(\s*\(?\s*(?:uint64_t\s*\)\s*)?x\s*\)?\s*<<\s*" + str(lsb) + r"\b", text):
            return True
        return (width in found or lsb + width - 1 in found or
                any(contiguous_width(n) == width for n in found) or
                any(contiguous_width(n) == width and n & (1 << lsb) for n in found))
    return int(value, 0) in found


def check_skiboot_scom(fact, sources, cites):
    """imc_scom/imc_xscom facts: recompute from the cited macro and base address."""
    core = int(fact["reg"].split("@")[1])
    macro = "XSCOM_ADDR_P9_EQ" if "XSCOM_ADDR_P9_EQ" in fact["source"] else "XSCOM_ADDR_P9_EC"
    base = None
    for repo, path, line in cites:
        text = sources.lines(repo, path)[line - 1]
        if path == "include/xscom.h":
            # the macro's definition line must be the one cited
            if macro not in text:
                return False
            continue
        if path == "hw/xscom.c":
            continue
        vals = [n for n in numbers(text) if n > 0xFFFF]
        if vals:
            base = vals[0]
    if base is None:
        return False
    pcb = xscom_p9(macro, core, base)
    if fact["unit"] == "imc_scom":
        return pcb == int(fact["value"], 0)
    # hw/xscom.c xscom_addr: POWER9 (not proc_gen_p8) offset = pcb_addr << 3
    xscom = [l for l in sources.lines("skiboot", "hw/xscom.c") if "pcb_addr << 3)" in l and "|=" in l]
    return bool(xscom) and (pcb << 3) == int(fact["value"], 0)


def check_derived(fact, text, scom_facts):
    """Facts computed from several cited lines: True/False, or None when the fact is not one."""
    value = int(fact["value"], 0) if fact["kind"] != "encoding" and "," not in fact["value"] else None
    if fact["note"].startswith("n/a") and "does not exist" in text:
        return True  # the source says the register is absent, as the note does
    member = re.search(r"0x([0-9A-Fa-f]+) \+ 8 x (\d+)", fact["source"])
    if member:  # a be64 member of a packed struct: base + 8 x its index
        return int(member.group(1), 16) in numbers(text) and value == int(member.group(1), 16) + 8 * int(member.group(2))
    pcb = re.search(r"\(imc_scom (\w+@\d+)\)", fact["source"])
    if pcb:  # hw/xscom.c on POWER9: offset = pcb << 3, of the SCOM address fact named
        return "pcb_addr << 3" in text and scom_facts.get(pcb.group(1)) is not None and \
            value == scom_facts[pcb.group(1)] << 3
    if "TRACE_IMC_SCOM(" in text:  # hw/imc.c's TRACE_IMC_SCOM value from its macros and shifts
        args = [int(n, 0) for n in re.findall(r"#define IMC_TRACE_\w+\s+(0x[0-9a-fA-F]+|\d+)", text)]
        shifts = {m: int(n) for m, n in re.findall(r"#define TRACE_IMC_(\w+)\(x\)\s*\(\(uint64_t\)x << (\d+)\)", text)}
        load = re.search(r"TRACE_IMC_CPMC_LOAD\(x\)\s*\(\(0x([0-9a-f]+) - \(uint64_t\)x\) << (\d+)\)", text)
        if len(args) != 5 or not load or len(shifts) != 4:
            return False
        sampsel, cpmcload, cpmc1, cpmc2, buffsize = args  # in the order the source line cites them
        computed = (sampsel << shifts["SAMPLESEL"]) | ((int(load.group(1), 16) - cpmcload) << int(load.group(2))) | \
            (cpmc1 << shifts["CPMC1SEL"]) | (cpmc2 << shifts["CPMC2SEL"]) | (buffsize << shifts["BUFFERSIZE"])
        return computed == value
    return None


LINUX_CITATION = re.compile(r"\blinux:([\w./-]+?)(?:@([\w.]+))?(?=[\s(),;]|$)")
MACRO = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")
NOT_MACROS = {"UNVERIFIED"}


class LinuxTree:
    """The files of one Linux source tarball, extracted on demand into a cache folder. One pass
    over the xz stream (it can only be read from its start) extracts every wanted file and records
    the tarball's listing beside them, so that a later run asks the tarball again only for a file
    it has and that is not extracted yet."""

    def __init__(self, tarball, cache):
        self.tarball, self.cache = tarball, cache
        self.top = os.path.basename(tarball).split(".tar")[0]  # linux-source-6.1
        m = re.search(r"(\d+)\.(\d+)$", self.top)
        self.version = (int(m.group(1)), int(m.group(2))) if m else (0, 0)

    def prefetch(self, paths):
        root = os.path.join(self.cache, self.top)
        listing = os.path.join(self.cache, self.top + ".list")
        names = set(open(listing).read().split("\n")) if os.path.exists(listing) else None
        want = {f"{self.top}/{p}" for p in paths if not os.path.exists(os.path.join(root, p))}
        if names is not None:
            want &= names
        if not want or not self.tarball:
            return
        os.makedirs(self.cache, exist_ok=True)
        seen = []
        # xz decompresses in a process of its own, beside the reading of the stream.
        xz = subprocess.Popen(["xz", "-dc", self.tarball], stdout=subprocess.PIPE)
        with tarfile.open(fileobj=xz.stdout, mode="r|") as tar:
            for member in tar:
                seen.append(member.name)
                if member.name in want and member.isfile():
                    out = os.path.join(self.cache, member.name)
                    os.makedirs(os.path.dirname(out), exist_ok=True)
                    with open(out + ".tmp", "wb") as f:
                        f.write(tar.extractfile(member).read())
                    os.replace(out + ".tmp", out)  # a reader never sees half a file
        xz.stdout.close()
        if xz.wait() != 0:
            raise RuntimeError(f"xz -dc {self.tarball}: exit {xz.returncode}")
        if names is None:
            with open(listing + ".tmp", "w") as f:
                f.write("\n".join(seen))
            os.replace(listing + ".tmp", listing)

    def text(self, path):
        full = os.path.join(self.cache, self.top, path)
        return open(full, encoding="utf-8", errors="replace").read() if os.path.exists(full) else None


def linux_definition_lines(text, macro):
    return [l for l in text.split("\n") if re.match(r"\s*#\s*define\s+" + re.escape(macro) + r"\b", l)]


def check_linux(fact, trees):
    """(ok, why) for a fact citing Linux; ok None when no tree has the cited file."""
    cites = LINUX_CITATION.findall(fact["source"])
    if any(not version for _, version in cites):
        return False, "a Linux citation without @COMMIT or @vX.Y"
    cited = fact["source"]
    for path, version in cites:
        # A release names its tree (v6.12: linux-source-6.12); an older release or a commit is read
        # in the first tree that has the file (the macros a fact quotes outlive the commit); a release only in its own.
        release = re.fullmatch(r"v(\d+\.\d+)", version)
        if release:  # a release is read in its own tree only (v5.10's CMN_CHILD_NODE_ADDR is not 6.1's)
            candidates = [t for t in trees if t.version == tuple(map(int, release.group(1).split(".")))]
        else:
            candidates = trees
        text = next((t for t in (tree.text(path) for tree in candidates) if t is not None), None)
        if text is None:
            return None, f"{path}@{version} is in none of the Linux trees given"
        # The text of this citation: from the path to the next citation.
        start = cited.index("linux:" + path)
        nxt = cited.find("linux:", start + 6)
        words = cited[start:nxt if nxt > 0 else None]
        sysreg = re.search(r"Sysreg (\w+)((?: \d+){5})?", words)
        if sysreg:
            block = re.search(r"^Sysreg\s+" + sysreg.group(1) + r"\b" + (
                r"\s+" + r"\s+".join(sysreg.group(2).split()) if sysreg.group(2) else "") + r".*?^EndSysreg", text, re.M | re.S)
            if not block:
                return False, f"no 'Sysreg {sysreg.group(1)}{sysreg.group(2) or ''}' block in {path}"
            field = re.search(r"Field (\d+)(?::(\d+))? (\w+)", words)
            if field and not re.search(r"^\s*Field\s+" + field.group(1) + (r":" + field.group(2) if field.group(2) else "") +
                                       r"\s+" + field.group(3) + r"\b", block.group(0), re.M):
                return False, f"no 'Field {field.group(0)[6:]}' in Sysreg {sysreg.group(1)} of {path}"
            continue
        words = re.sub(r"linux:[\w./-]+(?:@[\w.]+)?", " ", words)  # the path itself names nothing
        macros = [m for m in MACRO.findall(words) if m not in NOT_MACROS and not m.startswith("_")]
        missing = [m for m in macros if not re.search(r"\b" + re.escape(m) + r"\b", text)]
        if missing and not release:
            # A commit after the trees' releases (the CoreSight PMU header of 04330be8dc7f names
            # macros 6.12 does not have): not checkable here, and counted as such.
            return None, f"{', '.join(missing)} not in {path} of the trees given (a later commit)"
        if missing:
            return False, f"{', '.join(missing)} not in {path}"
        functions = [f for f in re.findall(r"\b(arm_cspmu_\w+|arm_cmn_\w+|dsu_pmu_\w+|imc_\w+)\s*\(", words)]
        missing = [f for f in functions if not re.search(r"\b" + re.escape(f) + r"\b", text)]
        if missing:
            return False, f"{', '.join(missing)}() not in {path}"
        # A macro quoted with its value: the value must be the one its definition gives.
        for m in macros:
            given = re.search(re.escape(m) + r"\s+((?:BIT|GENMASK|GENMASK_ULL|sys_reg)\s*\([^)]*\)|(?:0x[0-9a-fA-F]+|\d+)\b)", words)
            defs = linux_definition_lines(text, m)
            if not given or not defs:
                continue
            quoted = given.group(1)
            definition = " ".join(defs)
            body = re.sub(r"^\s*#\s*define\s+" + re.escape(m) + r"(\([^)]*\))?", "", defs[0]).strip()
            norm = lambda t: re.sub(r"\s+", "", re.sub(r"/\*.*?\*/|//.*", "", t)).lower()
            if norm(quoted) in norm(body):
                continue
            expanded = body
            for _ in range(4):  # other macros of the file in the body: (DSU_PMU_MAX_HW_CNTRS - 1)
                for name in set(re.findall(r"\b[A-Z][A-Z0-9_]+\b", expanded)) - {"BIT", "GENMASK", "UL", "ULL", "U"}:
                    inner = linux_definition_lines(text, name)
                    if inner:
                        expanded = re.sub(r"\b" + name + r"\b", "(" + re.sub(r"^\s*#\s*define\s+\w+", "", inner[0]).strip() + ")", expanded)
            q = numbers(quoted) | defined_values("#define X " + quoted)
            d = numbers(body) | defined_values(definition) | defined_values("#define X " + expanded)
            if q and q <= d and not quoted.startswith("sys_reg"):
                continue  # the same value written another way (0x1f for (DSU_PMU_MAX_HW_CNTRS - 1))
            return False, f"{m} is quoted as '{quoted}', {path} defines it as '{body}'"
    return True, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfa", help="a clone of TF-A (else its facts are not checked)")
    ap.add_argument("--skiboot", help="a clone of skiboot (else its facts are not checked)")
    ap.add_argument("--cmn-tools", help="a clone of cmn-tools (else its facts are not checked)")
    ap.add_argument("--linux", help="Debian's linux-source-6.1 tarball (/usr/src/linux-source-6.1.tar.xz)")
    ap.add_argument("--linux-later", help="a later linux-source tarball, for files 6.1 lacks (arm_cspmu)")
    ap.add_argument("--cache", default="build/linux-sources", help="where the cited Linux files are extracted")
    ap.add_argument("--require-linux", action="store_true", help="fail unless every Linux citation was checked")
    ap.add_argument("--prefetch-only", action="store_true",
                    help="only extract the cited Linux files into --cache (ctest's fixture for the facts tests)")
    ap.add_argument("--min-linux-checked", type=int, default=0,
                    help="fail when fewer Linux citations than this were checked (coverage may only grow)")
    ap.add_argument("--facts", default=os.path.join(os.path.dirname(__file__), "..", "tests", "facts"))
    args = ap.parse_args()
    clones = {k: v for k, v in (("tfa", args.tfa), ("skiboot", args.skiboot), ("cmn-tools", args.cmn_tools)) if v}
    sources = Sources(clones)
    checked = unchecked = 0
    failures = []
    scom_facts = {}
    trees = [LinuxTree(t, args.cache) for t in (args.linux, args.linux_later) if t]
    if args.require_linux and not args.linux:
        print("check-fact-sources: --require-linux needs --linux (scripts/install-deps.sh installs linux-source-6.1)")
        return 2
    for t in trees:
        if t.tarball and not os.path.exists(t.tarball):
            print(f"check-fact-sources: {t.tarball} does not exist (scripts/install-deps.sh installs linux-source-6.1)")
            return 2
    linux_paths = set()
    for path in sorted(glob.glob(os.path.join(args.facts, "*.tsv"))):
        for row in open(path, encoding="utf-8"):
            linux_paths.update(p for p, _ in LINUX_CITATION.findall(row))
    for t in trees:
        t.prefetch(linux_paths)
    if args.prefetch_only:
        return 0
    linux = {"checked": 0, "elsewhere": 0}
    elsewhere = []  # the Linux citations no tree given can check, with why
    for path in sorted(glob.glob(os.path.join(args.facts, "*.tsv"))):
        for n, row in enumerate(open(path, encoding="utf-8"), 1):
            row = row.rstrip("\n")
            if not row or row.startswith("#"):
                continue
            cols = row.split("\t")
            if len(cols) != 7:
                print(f"{path}:{n}: expected 7 tab-separated columns", file=sys.stderr)
                return 2
            fact = dict(zip(["unit", "reg", "kind", "field", "value", "source", "note"], cols))
            if "linux:" in fact["source"] and trees:
                ok, why = check_linux(fact, trees)
                if ok is None:
                    linux["elsewhere"] += 1
                    elsewhere.append(f"{os.path.relpath(path)}:{n}: {fact['unit']} {fact['reg']} {fact['kind']} "
                                     f"{fact['field']}: {why}")
                else:
                    linux["checked"] += 1
                    if not ok:
                        failures.append(f"{os.path.relpath(path)}:{n}: {fact['unit']} {fact['reg']} {fact['kind']} "
                                        f"{fact['field']} = {fact['value']}: {why}; cited: {fact['source']}")
            cites = [(r, p, int(l)) for r, p, l in CITATION.findall(fact["source"])]
            cites = [c for c in cites if c[0] in clones]
            if not cites:
                unchecked += 1
                continue
            try:
                if fact["unit"] in ("imc_scom", "imc_xscom"):
                    ok = check_skiboot_scom(fact, sources, cites)
                    text = fact["source"]
                    if fact["unit"] == "imc_scom":
                        scom_facts[fact["reg"]] = int(fact["value"], 0)
                else:
                    text = " ".join(sources.lines(r, p)[l - 1] for r, p, l in cites)
                    derived = check_derived(fact, text, scom_facts)
                    if derived is not None:
                        ok = derived
                    elif cites[0][0] == "cmn-tools":
                        ok = check_regdefs(fact, text)
                    else:
                        ok = check_text(fact, text)
            except (subprocess.CalledProcessError, IndexError) as e:
                ok, text = False, f"cannot read the cited line ({e})"
            checked += 1
            if not ok:
                failures.append(f"{os.path.relpath(path)}:{n}: {fact['unit']} {fact['reg']} {fact['kind']} "
                                f"{fact['field']} = {fact['value']}; cited text: {text.strip()}")
    for f in failures:
        print(f)
    print(f"fact sources: {checked} checked against the cited TF-A/skiboot/cmn-tools line ({', '.join(clones) or 'no clone given'}), "
          f"{linux['checked']} Linux citations checked against {', '.join(os.path.basename(t.tarball) for t in trees) or 'no Linux tree'}"
          f" ({linux['elsewhere']} cite a release or file none of them has), {len(failures)} disagree, {unchecked} rows not checked here")
    if linux["checked"] < args.min_linux_checked:
        print(f"check-fact-sources: only {linux['checked']} Linux citations checked, at least {args.min_linux_checked} required")
        return 1
    if args.require_linux and linux["elsewhere"]:
        for e in elsewhere:
            print(e)
        print(f"check-fact-sources: {linux['elsewhere']} Linux citations cannot be checked against the trees given "
              "(--require-linux): cite a release a tree has, or the primary document instead")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
