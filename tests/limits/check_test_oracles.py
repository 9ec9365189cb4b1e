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
]
# Namespaces that hold functions under test besides constants: only their constexpr constants count.
CONSTANT_MEMBERS = [("imc/imc.h", "imc")]
MODEL_ENCODERS = ["sysreg_trap_syndrome"]
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
            pats.append((re.compile(r"(?<![\w.>])(?:" + ns + r"::)?" + n + r"\b"), f"{n} (a constant of {header})"))
    for f in MODEL_ENCODERS:
        pats.append((re.compile(r"\b" + f + r"\s*\("), f"{f}() (the model's encoder)"))
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


def violations(lines, patterns):
    out = []
    for number, raw in lines:
        code = code_only(raw)
        span = subject_span(code)
        for pat, what in patterns:
            for m in pat.finditer(code):
                if span and span[0] <= m.start() < span[1]:
                    continue
                out.append((number, what, raw.strip()))
    return out


def self_test(patterns):
    must_flag = [
        "CHECK(ctx.syndrome == sysreg_trap_syndrome(*def->sysreg, r.write));",
        "b[\"HCR_EL2\"].value = 1ULL << ctl::hcr_tidcp;",
        "CHECK(tb2 == (tb1 & trace_tb_mask));",
        "CHECK(v == imc::skiboot_trace_scom);",
        "const uint64_t expected = dsu_field::bit(dsu_field::pmcr_e);",
        "if (a.syndrome != esr::syndrome(esr::ec_sysreg)) fail();",
    ]
    must_pass = [
        "CHECK(sysreg_trap_syndrome(*def->sysreg, false) == 0x62303C0Bu);",
        "CHECK(skiboot_trace_scom == facts::fact_number(\"imc_const\", \"skiboot_trace_scom\", \"value\"));",
        "CHECK(tb2 == (tb1 & facts::fact_number(\"imc_const\", \"trace_tb_mask\", \"value\"))); // IMC_TRACE_RECORD_TB1_MASK",
        "// sysreg_trap_syndrome(e) is the model's; ctl::hcr_tidcp too",
        "uint64_t base = options.xscom_default_base;",
    ]
    bad = [l for l in must_flag if not violations([(0, l)], patterns)]
    bad += [l for l in must_pass if violations([(0, l)], patterns)]
    for l in bad:
        print("self-test: wrong answer for:", l)
    print(f"self-test: {len(must_flag)} lines to flag, {len(must_pass)} to pass, {len(bad)} wrong")
    return not bad


def main():
    args = [a for a in sys.argv[1:] if a != "--self-test"]
    source = pathlib.Path(args[0] if args else pathlib.Path(__file__).resolve().parents[2])
    patterns = model_patterns(source)
    if "--self-test" in sys.argv[1:]:
        sys.exit(0 if self_test(patterns) else 1)
    files = sorted(p for p in (source / "tests/unit").iterdir() if p.suffix in (".cpp", ".h") and p.name not in EXEMPT)
    found = []
    for path in files:
        lines = list(enumerate(path.read_text().splitlines(), 1))
        found += [(path.relative_to(source), *v) for v in violations(lines, patterns)]
    print(f"{len(files)} unit-test sources, {len(patterns)} model constants and encoders, {len(found)} used as oracles")
    for path, number, what, text in found:
        print(f"{path}:{number}: {what} outside the subject of a check: {text}")
    if found:
        print("Take the expected value from tests/facts (tests/unit/facts.h), tests/unit/esr_oracle.h or a cited "
              "literal (docs/reliability.md, 'Classes of failure').")
    sys.exit(1 if found or not files else 0)


if __name__ == "__main__":
    main()
