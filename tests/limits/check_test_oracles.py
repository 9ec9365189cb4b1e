#!/usr/bin/env python3
"""A test's expected values do not come from the code under test (docs/reliability.md, "Classes of
failure"). The models' own constants and encoders -- the namespaces ctl, amu_field, dsu_field,
cmn_field and esr, the constants of namespace imc, and sysreg_trap_syndrome() -- may appear in the
unit tests only as the thing a check examines: the left operand of a CHECK/REQUIRE comparison
(`CHECK(sysreg_trap_syndrome(e, false) == 0x6230F409u)`). Anywhere else (an expected value, an
oracle, a value written to set a scenario up) the test takes the number from tests/facts
(tests/unit/facts.h), from the tests' own encoder (tests/unit/esr_oracle.h) or from a cited
literal. tests/unit/test_facts.cpp, which compares those constants with the facts, is the one
exception.

The constants are read from the model headers, so a constant added there is covered at once, and
so is the `NAME_field` namespace of a new unit folder's header (cspmu_field of cspmu/arm_cspmu.h).
Usage: check_test_oracles.py SOURCE_DIR     (--self-test: check the checker on lines it must
flag and lines it must pass)"""
import pathlib
import re
import sys

# Namespaces whose every member is a model constant: header, namespace.
CONSTANT_NAMESPACES = [
    ("models/cpu_controls.h", "ctl"),
    ("models/access_context.h", "esr"),
    ("amu/amu.h", "amu_field"),
    ("dsu_clusterpmu/dsu_clusterpmu.h", "dsu_field"),
    ("cmn/cmn600.h", "cmn_field"),
    ("cmn/cmn_traffic.h", "chi"),  # the CHI opcodes the model's generators issue
]
# Namespaces that hold functions under test besides constants: only their constexpr constants count.
CONSTANT_MEMBERS = [("imc/imc.h", "imc")]
MODEL_ENCODERS = ["sysreg_trap_syndrome"]
# Namespaces whose free functions compute addresses or register values the way the model does
# (imc::scom_pdbar(), imc::xscom_offset(), imc::trace_scom_value()): read from the header.
ENCODER_NAMESPACES = [("imc/imc.h", "imc")]


def free_functions(body):
    """Functions declared at the top level of a namespace body (not members: those are indented)."""
    return set(re.findall(r"^(?:const\s+)?[\w:<>]+[&*]?\s+(\w+)\s*\([^;{]*\)\s*;", body, re.MULTILINE))
EXEMPT = {"test_facts.cpp"}


def namespace_body(text, name):
    """The text of every `namespace NAME {` block (to its matching brace)."""
    bodies = []
    for m in re.finditer(r"\bnamespace\s+" + re.escape(name) + r"\s*\{", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        bodies.append(text[m.end():i - 1])
    return bodies


def constexpr_names(body):
    names = set()
    for m in re.finditer(r"\bconstexpr\s+[\w:]+\s+([^;(]+?)\s*;", body):  # constexpr T a = 1, b = 2;
        for part in re.split(r",(?![^(]*\))", m.group(1)):
            n = re.match(r"\s*(\w+)\s*=", part)
            if n:
                names.add(n.group(1))
    return names


def unit_field_namespaces(source):
    """Every `namespace NAME_field` of a unit folder's headers (a folder with a register.cpp,
    docs/extending.md), so that a new unit's field constants are covered without an edit here."""
    found = []
    for registration in sorted(source.glob("*/register.cpp")):
        for header in sorted(registration.parent.glob("*.h")):
            for m in re.finditer(r"\bnamespace\s+(\w+_field)\s*\{", header.read_text()):
                entry = (str(header.relative_to(source)), m.group(1))
                if entry not in CONSTANT_NAMESPACES and entry not in found:
                    found.append(entry)
    return found


def model_namespaces(source):
    return [ns for _, ns in CONSTANT_NAMESPACES + unit_field_namespaces(source)]


def model_patterns(source):
    pats = []
    for header, ns in CONSTANT_NAMESPACES + unit_field_namespaces(source):
        text = (source / header).read_text()
        if not namespace_body(text, ns):
            sys.exit(f"check_test_oracles: {header} has no namespace {ns} (update this checker)")
        pats.append((re.compile(r"\b" + ns + r"::\w+"), f"{ns}:: (a constant of {header})"))
    for header, ns in CONSTANT_MEMBERS:
        names = set().union(*[constexpr_names(b) for b in namespace_body((source / header).read_text(), ns)])
        if not names:
            sys.exit(f"check_test_oracles: no constexpr constant found in namespace {ns} of {header}")
        for n in sorted(names):
            # imc::NAME or NAME alone (tests say `using namespace pmusim::imc`); not a member `.NAME`.
            pats.append((re.compile(r"(?:\b" + ns + r"::|(?<![\w.>:]))" + n + r"\b"), f"{n} (a constant of {header})"))
    for f in MODEL_ENCODERS:
        pats.append((re.compile(r"\b" + f + r"\s*\("), f"{f}() (the model's encoder)"))
    for header, ns in ENCODER_NAMESPACES:
        names = set().union(*[free_functions(b) for b in namespace_body((source / header).read_text(), ns)])
        names = {n for n in names if not n.endswith("table") and not n.startswith("read_")}  # the tables: table_layout_uses()
        if not names:
            sys.exit(f"check_test_oracles: no function found in namespace {ns} of {header}")
        for n in sorted(names):
            pats.append((re.compile(r"(?:\b" + ns + r"::|(?<![\w.>:]))" + n + r"\s*\("), f"{ns}::{n}() (the model's encoder)"))
    return pats


def code_only(line):
    """The line without string and character literals and without its // comment."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(?:\\.|[^'\\])*'", "''", line)
    return line.split("//", 1)[0]


def subject_span(code):
    """Where the examined value of `CHECK(x == y)`-like checks is: the span of x, or None."""
    m = re.match(r"\s*(?:CHECK|REQUIRE|CHECK_FALSE|REQUIRE_FALSE)\s*\(", code)
    if not m:
        return None
    depth, i = 0, m.end()
    while i < len(code):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return (m.end(), i)  # CHECK(x) with no comparison: x is the subject
            depth -= 1
        elif depth == 0 and code.startswith(("==", "!="), i):
            return (m.end(), i)
        i += 1
    return None


def subject_is_model_term(code, span, patterns):
    """The subject of a check is the model's constant or encoder itself (`ctl::hcr_tidcp`,
    `sysreg_trap_syndrome(e, false)`, `scom_pdbar(4)`), not an expression that mixes one into
    the value examined (`(v & ctl::hcr_tidcp_mask)`, `v >> dsu_field::pmcr_n`): there the constant
    shapes what is compared and a wrong constant moves the examined value and the oracle together."""
    subject = code[span[0]:span[1]].strip()
    while subject.startswith("(") and subject.endswith(")") and balanced(subject[1:-1]):
        subject = subject[1:-1].strip()
    subject = subject.lstrip("*").strip()
    for pat, _ in patterns:
        m = pat.match(subject)
        if not m:
            continue
        rest = subject[m.end():].strip()
        if not rest:
            return True
        if m.group(0).rstrip().endswith("(") or rest.startswith("("):  # an encoder call: its arguments
            call = rest if rest.startswith("(") else "(" + rest
            if balanced_call_end(call) == len(call):
                return True
    return False


def balanced(text):
    depth = 0
    for c in text:
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth < 0:
            return False
    return depth == 0


def balanced_call_end(call):
    depth = 0
    for i, c in enumerate(call):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth == 0:
            return i + 1
    return -1


# Reading a field's position, offset or reset value out of the model's own register table
# (`table()->fields`, `t.find("R")->reset`, `for (auto& f : r->fields) ... f.lsb`) takes the
# layout under test as the expected value. A name bound to the table (or to one of its registers
# or fields) may have its layout read only where a check examines it, or returned by a getter
# that a check examines.
TABLE_SOURCE = re.compile(r"\w*table\s*\(\s*\)|(?:\.|->)fields\b|\bfind_field\s*\(|\bregister_def\b|\bfield_def\b")
# The addresses a test visits (`*def.offset`, `def.width / 8`) are not oracles: the facts test
# checks every register's offset and width against its source. Positions and reset values are.
LAYOUT = r"(?:\.|->)(?:lsb|mask\s*\(|bit\s*\(|reset)\b"


def table_layout_uses(lines):
    out, bound = [], set()
    for number, raw in lines:
        code = code_only(raw)
        if re.match(r"\s*(?:TEST_CASE|TEST_CASE_METHOD|SECTION)\s*\(|^\S.*\)\s*\{\s*$|^}", code):
            bound = set() if re.match(r"\s*TEST_CASE|^\S", code) else bound
        if TABLE_SOURCE.search(code):
            for m in re.finditer(r"(?:auto|register_def|field_def|const\s+\w+)\s*[*&]*\s*(\w+)\s*(?:=|:)", code):
                bound.add(m.group(1))
        span = subject_span(code)
        if re.match(r"\s*(?:return\b|if\s*\(.*\)\s*return\b)", code):
            continue  # a getter: what it returns is examined where it is called
        uses = [m for m in re.finditer(r"\b(\w+)\s*" + LAYOUT, code) if m.group(1) in bound]
        uses += list(re.finditer(r"\w*table\s*\(\s*\)[^;]*?" + LAYOUT, code))
        message = re.search(r"fmt::format\s*\(|<<\s*\"", code)
        for m in uses:
            if span and span[0] <= m.start() < span[1]:
                continue
            if message and message.start() < m.start():
                continue  # printed in a failure message, not compared
            if re.match(r"\s*for\s*\(", code) and re.search(r"(?:\.|->)fields\s*\)", code[m.start():]):
                continue  # iterating the table's fields to examine each
            out.append((number, "the model's register table layout (table()->fields, .lsb, .mask(), ->reset)",
                        raw.strip()))
            break
    return out


def namespace_escapes(lines, namespaces):
    """`namespace df = pmusim::dsu_field;` and `using namespace pmusim::dsu_field;` (or `using
    dsu_field::pmcr_e;`) let a constant be written without the name the patterns look for."""
    out = []
    names = "|".join(re.escape(n) for n in namespaces)
    alias = re.compile(r"\bnamespace\s+(\w+)\s*=\s*(?:::)?(?:pmusim::)?(" + names + r")\s*;")
    using = re.compile(r"\busing\s+(?:namespace\s+)?(?:::)?(?:pmusim::)?(" + names + r")\b")
    for number, raw in lines:
        code = code_only(raw)
        m = alias.search(code)
        if m:
            out.append((number, f"a namespace alias ({m.group(1)} = {m.group(2)}) of the model's constants", raw.strip()))
        m = using.search(code)
        if m:
            out.append((number, f"using {m.group(1)} (the model's constants without their namespace)", raw.strip()))
    return out


def violations(lines, patterns, namespaces=()):
    out = []
    for number, raw in lines:
        code = code_only(raw)
        span = subject_span(code)
        pure = span is not None and subject_is_model_term(code, span, patterns)
        for pat, what in patterns:
            for m in pat.finditer(code):
                if span and span[0] <= m.start() < span[1]:
                    if pure:
                        continue
                    out.append((number, what + " inside the examined expression (it shapes the value compared)",
                                raw.strip()))
                    continue
                out.append((number, what, raw.strip()))
    return out + namespace_escapes(lines, namespaces) + table_layout_uses(lines)


# The tests that examine the tables themselves (the generated C headers and register docs, the
# `regs` command's options): for them the model's tables are the subject, not an oracle.
PYTHON_TABLE_SUBJECTS = {"tests/docs/check_c_headers.py", "tests/docs/check_register_docs.py",
                         "tests/cli/check_help_completion.py", "tests/cli/check_completion_values.py",
                         "tests/limits/check_test_oracles.py"}
MODEL_FOLDERS = ("models/", "amu/", "dsu_clusterpmu/", "cmn/", "imc/", "cspmu/", "include/pmusim/", "tb/", "vp/", "embed/")


def python_violations(lines):
    """A Python test that asks pmusim for its own tables (`pmusim regs`, docs/registers/, the
    generated C headers) takes the layout under test as its expected value."""
    out = []
    for number, raw in lines:
        code = re.sub(r"#.*", "", raw)
        if re.search(r"""["']regs["']""", code) or "docs/registers" in code or "c-header" in code:
            out.append((number, "the model's register tables (pmusim regs, docs/registers, generated headers)", raw.strip()))
    return out


def firmware_violations(lines, here):
    """Firmware is the real software's stand-in: it takes its numbers from its own headers (written
    from Linux, TF-A and the Arm ARM), never from a model header or a header generated from the
    model's tables (`pmusim regs --format c-header`)."""
    out = []
    for number, raw in lines:
        m = re.match(r"\s*#\s*include\s*[\"<]([^\">]+)[\">]", raw)
        if not m:
            continue
        name = m.group(1)
        local = (here / name).exists() or (here / "lib" / name).exists() or (here.parent / name).exists() and here.name == "lib"
        if name.startswith(MODEL_FOLDERS) or name.startswith("pmusim") or ("\"" in raw and not local):
            out.append((number, "a header of the model or generated from its tables", raw.strip()))
    return out


def sequence_violations(lines):
    """A sequence's expected values are its own literals: including a file generated from the
    model's tables (docs/registers/, a build folder) would make them the model's."""
    out = []
    for number, raw in lines:
        code = raw.split("#", 1)[0]
        if re.match(r"\s*include\b", code) and re.search(r"docs/registers|\bbuild[^/]*/|regs", code):
            out.append((number, "a sequence included from the model's generated tables", raw.strip()))
    return out


def scanned_files(source):
    """Every test-side source: C/C++ tests (tests/, fuzz/), firmware (C), Python and sequences."""
    cpp = [p for d in ("tests", "fuzz") for p in (source / d).rglob("*") if p.suffix in (".cpp", ".h", ".hpp")]
    cpp = [p for p in cpp if p.name not in EXEMPT and "corpus" not in p.parts and "regressions" not in p.parts]
    firmware = [p for p in (source / "firmware").rglob("*") if p.suffix in (".c", ".h")] if (source / "firmware").is_dir() else []
    python = [p for d in ("tests", "python", "examples") if (source / d).is_dir() for p in (source / d).rglob("*.py")]
    python = [p for p in python if str(p.relative_to(source)) not in PYTHON_TABLE_SUBJECTS and "__pycache__" not in p.parts]
    seqs = [p for d in ("tests", "examples") if (source / d).is_dir() for p in (source / d).rglob("*.seq")]
    return sorted(cpp), sorted(firmware), sorted(python), sorted(seqs)


def scan(source):
    patterns, namespaces = model_patterns(source), model_namespaces(source)
    cpp, firmware, python, seqs = scanned_files(source)
    found = []
    for path in cpp + firmware:
        lines = list(enumerate(path.read_text(errors="replace").splitlines(), 1))
        found += [(path.relative_to(source), *v) for v in violations(lines, patterns, namespaces)]
    for path in firmware:
        lines = list(enumerate(path.read_text(errors="replace").splitlines(), 1))
        found += [(path.relative_to(source), *v) for v in firmware_violations(lines, path.parent)]
    for path in python:
        lines = list(enumerate(path.read_text(errors="replace").splitlines(), 1))
        found += [(path.relative_to(source), *v) for v in python_violations(lines)]
    for path in seqs:
        lines = list(enumerate(path.read_text(errors="replace").splitlines(), 1))
        found += [(path.relative_to(source), *v) for v in sequence_violations(lines)]
    counts = dict(cpp=len(cpp), firmware=len(firmware), python=len(python), sequences=len(seqs))
    return found, counts, len(patterns)


# --plant NAME: each hole the checker closes, planted in a copy of the tree; the check must fail
# on it and name the planted file (tests/limits/oracle_holes.cmake registers one ctest per hole).
PLANTS = {
    "namespace-alias": ("tests/unit/planted.cpp",
                        "namespace df = pmusim::dsu_field;\nconst uint64_t want = 1ULL << df::pmcr_e;\n"),
    "using-namespace": ("tests/unit/planted.cpp",
                        "using namespace pmusim::dsu_field;\nconst uint64_t want = 1ULL << pmcr_e;\n"),
    "using-declaration": ("tests/unit/planted.cpp", "using pmusim::ctl::hcr_tidcp;\n"),
    "constant-in-checked-expression": ("tests/unit/planted.cpp",
                                       "CHECK((hcr & (1ULL << ctl::hcr_tidcp)) == 0);\n"),
    "constant-in-checked-shift": ("tests/unit/planted.cpp",
                                  "CHECK((pmcr >> dsu_field::pmcr_n & 0x1f) == 6);\n"),
    "imc-scom-function": ("tests/unit/planted.cpp",
                          "write_scom(chip, imc::scom_pdbar(core), pdbar);\nCHECK(read_xscom(imc::xscom_offset(imc::scom_trace(0))) == 1);\n"),
    "chi-opcode": ("tests/unit/planted.cpp", "req.opcode = chi::req_read_shared;\n"),
    "table-fields": ("tests/unit/planted.cpp",
                     "const register_def& r = *dsu_table().find(\"CLUSTERPMCR_EL1\");\n"
                     "for (const auto& f : r.fields) if (f.name == \"N\") n_lsb = f.lsb;\n"
                     "write(\"CLUSTERPMCR_EL1\", 1ULL << r.fields[0].lsb);\n"),
    "table-reset": ("tests/unit/planted.cpp",
                    "CHECK(read(\"PMCR\") == amu_table().find(\"AMCFGR_EL0\")->reset);\n"),
    "whatif-test": ("tests/whatif/planted.cpp", "const uint64_t e = 1ULL << ctl::hcr_tidcp;\n"),
    "fuzz-invariant": ("fuzz/planted.cpp", "if (v != (1ULL << dsu_field::pmcr_e)) abort();\n"),
    "firmware-model-header": ("firmware/planted.c", "#include \"dsu_clusterpmu/dsu_clusterpmu.h\"\n"),
    "firmware-generated-header": ("firmware/planted.c", "#include \"pmusim_registers.h\"\n"),
    "python-regs": ("tests/planted_test.py",
                    "import subprocess\nlayout = subprocess.check_output([pmusim, 'regs', '--format', 'json'])\n"),
    "python-register-docs": ("python/planted.py", "open('docs/registers/dsu_clusterpmu.md').read()\n"),
    "sequence-generated-include": ("tests/sequences/planted.seq", "include ../../docs/registers/dsu.seq\n"),
}


def plant(source, name):
    import shutil
    import tempfile
    rel, text = PLANTS[name]
    with tempfile.TemporaryDirectory() as tmp:
        copy = pathlib.Path(tmp)
        for d in ("tests", "fuzz", "firmware", "python", "examples"):
            if (source / d).is_dir():
                shutil.copytree(source / d, copy / d, ignore=shutil.ignore_patterns("corpus", "regressions", "__pycache__"))
        for header, _ in CONSTANT_NAMESPACES + CONSTANT_MEMBERS + ENCODER_NAMESPACES + unit_field_namespaces(source):
            (copy / header).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source / header, copy / header)
        for registration in source.glob("*/register.cpp"):
            (copy / registration.relative_to(source)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(registration, copy / registration.relative_to(source))
        baseline = {(str(p), n) for p, n, *_ in scan(copy)[0]}
        (copy / rel).parent.mkdir(parents=True, exist_ok=True)
        (copy / rel).write_text(text)
        new = [f for f in scan(copy)[0] if (str(f[0]), f[1]) not in baseline]
    hits = [f for f in new if str(f[0]) == rel]
    for path, number, what, line in hits:
        print(f"planted {name}: {path}:{number}: {what}: {line}")
    if not hits:
        print(f"planted {name}: the check did NOT flag {rel}:\n{text}")
        return False
    return True


def self_test(source):
    """Lines the checker must pass: a constant or encoder as the whole examined value, a fact as
    the expected one, comments, members of the same name."""
    patterns, namespaces = model_patterns(source), model_namespaces(source)
    must_pass = [
        "CHECK(sysreg_trap_syndrome(*def->sysreg, false) == 0x62303C0Bu);",
        "CHECK(skiboot_trace_scom == facts::fact_number(\"imc_const\", \"skiboot_trace_scom\", \"value\"));",
        "CHECK(tb2 == (tb1 & facts::fact_number(\"imc_const\", \"trace_tb_mask\", \"value\"))); // IMC_TRACE_RECORD_TB1_MASK",
        "// sysreg_trap_syndrome(e) is the model's; ctl::hcr_tidcp too",
        "uint64_t base = options.xscom_default_base;",
        "CHECK(scom_pdbar(4) == 0x1101220B);",
        "CHECK(*pcb_of_offset(xscom_offset(pcb)) == pcb);",
        "CHECK(t.find(\"AMCFGR_EL0\")->reset == 0x01003F03u);",
        "using namespace pmusim;",
    ]
    bad = [l for l in must_pass if violations([(0, l)], patterns, namespaces)]
    for l in bad:
        print("self-test: flagged a line it must pass:", l)
    print(f"self-test: {len(must_pass)} lines to pass, {len(bad)} wrong; each hole: --plant NAME")
    return not bad


def main():
    if "--self-test" in sys.argv:
        args0 = [a for a in sys.argv[1:] if not a.startswith("--")]
        sys.exit(0 if self_test(pathlib.Path(args0[0] if args0 else pathlib.Path(__file__).resolve().parents[2])) else 1)
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    source = pathlib.Path(args[0] if args else pathlib.Path(__file__).resolve().parents[2])
    if "--plant" in sys.argv:
        name = sys.argv[sys.argv.index("--plant") + 1]
        sys.exit(0 if plant(source, name) else 1)
    if "--list-plants" in sys.argv:
        print("\n".join(PLANTS))
        return
    found, counts, npatterns = scan(source)
    print(f"{counts['cpp']} C++ test sources, {counts['firmware']} firmware sources, {counts['python']} Python "
          f"files, {counts['sequences']} sequences; {npatterns} model constants and encoders; "
          f"{len(found)} used as oracles")
    for path, number, what, text in found:
        print(f"{path}:{number}: {what} outside the subject of a check: {text}")
    if found:
        print("Take the expected value from tests/facts (tests/unit/facts.h), tests/unit/esr_oracle.h or a cited "
              "literal (docs/reliability.md, 'Classes of failure').")
    sys.exit(1 if found or not counts["cpp"] else 0)


if __name__ == "__main__":
    main()
