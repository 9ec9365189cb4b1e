#!/usr/bin/env python3
"""One way to write a field in every unit (issue 30, item 4; docs/extending.md, "Naming fields in
code"): a field the model reads or composes is a `reg_field` (models/register_bank.h), which the
unit's table places with `field_def(name, FIELD, access, ...)` and its code reads with
FIELD.get()/in()/put()/mask(). A unit folder (one with a register.cpp) must not

  - define its own bit() helper (`constexpr uint32_t bit(unsigned lsb)`, `bool bit(v, lsb)`), or
  - place a table field by a bare position constant and a separate width
    (`{"E", pmcr_e, 1, fa::rw, ...}`): the width then lives apart from the position.

Folders listed in NOT_YET_CONVERTED are still written the old way; the check fails when one of
them no longer needs to be listed, so the list only shrinks. It is empty: every unit folder, amu/
and cmn/ included, writes its fields with reg_field.
Usage: check_field_style.py SOURCE_DIR     (--self-test: check the checker)"""
import pathlib
import re
import sys

NOT_YET_CONVERTED: set = set()

OWN_BIT = re.compile(r"^\s*(?:(?:static|inline|constexpr)\s+)*[\w:]+\s+bit\s*\([^)]*\)\s*(?:const\s*)?\{", re.MULTILINE)
# {"NAME", position, width, fa::ACCESS (or field_access::ACCESS) with a named position or width; two
# literals are a field only the table knows (the code never reads it), which may stay positional.
LITERAL = re.compile(r"^(?:0[xX][0-9a-fA-F]+|\d+)$")
BARE_POSITION = re.compile(r'\{\s*"\w+"\s*,\s*((?:\w+::)*\w+)\s*,\s*((?:\w+::)*\w+)\s*,\s*(?:fa|field_access)::')


def code_only(text):
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)


def problems_in(name, text):
    out = []
    code = code_only(text)
    for m in OWN_BIT.finditer(code):
        line = code.count("\n", 0, m.start()) + 1
        out.append(f"{name}:{line}: defines its own bit(); name the field with reg_field instead")
    for m in BARE_POSITION.finditer(code):
        if LITERAL.match(m.group(1)) and LITERAL.match(m.group(2)):
            continue
        line = code.count("\n", 0, m.start()) + 1
        out.append(f"{name}:{line}: places a field by a bare position and a separate width "
                   f"({m.group(0).strip()}); use a reg_field")
    return out


def check(source):
    failures = []
    folders = sorted(r.parent for r in source.glob("*/register.cpp"))
    if not folders:
        sys.exit(f"check_field_style: no unit folder (*/register.cpp) under {source}")
    for folder in folders:
        found = []
        for f in sorted(list(folder.glob("*.h")) + list(folder.glob("*.cpp"))):
            found += problems_in(str(f.relative_to(source)), f.read_text())
        if folder.name in NOT_YET_CONVERTED:
            if not found:
                failures.append(f"{folder.name}/ writes every field with reg_field now: "
                                f"remove it from NOT_YET_CONVERTED in {pathlib.Path(__file__).name}")
        else:
            failures += found
    for name in NOT_YET_CONVERTED - {f.name for f in folders}:
        failures.append(f"NOT_YET_CONVERTED names {name}/, which is not a unit folder")
    return failures


def self_test():
    must_flag = [
        "constexpr uint32_t bit(unsigned lsb) { return uint32_t(1) << lsb; }",
        "bool bit(uint64_t v, unsigned lsb) { return (v >> lsb) & 1; }",
        '    {"E", pmcr_e, 1, fa::rw, "enable"},',
        '    {"SIZE", cspmu_field::pmcfgr_size, 6, field_access::ro, "size"},',
        '    {"evtCount", 0, evtype_count_bits, fa::rw, "event"},',
    ]
    must_pass = [
        '    {"E", pmcr_e, fa::rw, "enable"},',
        '    {"CCD", 15, 1, fa::ro, "0"},',  # a table-only field the code never reads
        "constexpr reg_field counter_flag(unsigned n) { return {n, 1}; }",
        "const bool tidcp = el2 && c.bit(cpu, control::hcr_el2, ctl::hcr_tidcp);",
        "// constexpr uint32_t bit(unsigned lsb) { return 1u << lsb; }",
    ]
    bad = [l for l in must_flag if not problems_in("x", l)] + [l for l in must_pass if problems_in("x", l)]
    for l in bad:
        print(f"check_field_style self-test: wrong verdict on: {l}")
    return 1 if bad else 0


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if "--self-test" in sys.argv[2:]:
        return self_test()
    failures = check(pathlib.Path(sys.argv[1]))
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
