#!/usr/bin/env python3
"""The test side cites primary sources, never pmusim's own notes (docs/reliability.md, "Oracles";
issue 31 point 1). The notes in ../shared/reference (dsu.md, cmn.md, imc.md, amu.md) are what the
models were written from, so an oracle taken from them would share the model's mistakes. No file
under tests/, fuzz/ (its corpus too), sequences/, firmware/ or python/ may name them: not
`../shared/reference`, not `reference/cmn.md`, not a bare `dsu.md §3.1` (the project's own docs are
written `docs/cmn.md` and are not matched). Cite the Arm TRM by number, the Arm ARM (DDI0487), Linux
file@version, cmn-tools, TF-A or skiboot instead (tests/facts rows name them).

Usage: check_test_citations.py SOURCE_DIR            (exit 1 and file:line for every citation found)
       check_test_citations.py SOURCE_DIR --self-test (plants each kind of citation into a file of
                                                       each scanned folder; each must be flagged)"""
import pathlib
import re
import sys

FOLDERS = ["tests", "fuzz", "sequences", "firmware", "python"]
# These name the notes in order to reject them: the facts check (facts.h source_problem) and its
# test, and this checker.
EXEMPT = {"tests/unit/facts.h", "tests/unit/test_facts.cpp", "tests/limits/check_test_citations.py"}
NOTES = re.compile(r"shared/reference"
                   r"|\breference/\w+\.md\b"
                   r"|(?<![\w/.-])(?:dsu|cmn|imc|amu|cspmu|systemc)\.md\b")


def files(root):
    for folder in FOLDERS:
        base = root / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            rel = path.relative_to(root).as_posix()
            if not path.is_file() or rel in EXEMPT or "/__pycache__/" in rel:
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue  # binary inputs (fuzz corpora of ELF files) hold no citations
            yield rel, text


def citations(named_texts):
    found = []
    for rel, text in named_texts:
        for n, line in enumerate(text.split("\n"), 1):
            m = NOTES.search(line)
            if m:
                found.append(f"{rel}:{n}: cites pmusim's own notes ('{m.group(0)}'): {line.strip()[:120]}")
    return found


PLANTS = {
    "a ../shared/reference path": "../shared/reference/dsu.md section 7",
    "a reference/NAME.md path": "docs reference/cmn.md 1.2",
    "a bare note name with a section": "(cmn.md §3.1)",
    "the IMC note": "imc.md §5",
    "the AMU note": "amu.md §8.2",
}
COMMENT = {".py": "# ", ".seq": "# ", ".inc": "# ", ".yaml": "# ", ".cmake": "# ", ".sh": "# ", ".tsv": "# "}


def self_test(root):
    real = list(files(root))
    bad = []
    if citations(real):
        bad.append("the tree itself has citations: run without --self-test")
    for folder in FOLDERS:
        victims = [(rel, text) for rel, text in real if rel.startswith(folder + "/")]
        if not victims:
            continue  # a folder this tree does not have
        rel, text = victims[len(victims) // 2]
        for what, words in PLANTS.items():
            prefix = COMMENT.get(pathlib.Path(rel).suffix, "// ")
            planted = text + f"\n{prefix}the expected value comes from {words}\n"
            hits = citations([(rel, planted)])  # the rest of the tree has none (checked above)
            ok = len(hits) == 1 and hits[0].startswith(f"{rel}:{planted.count(chr(10))}:")
            print(f"planted {what} in {rel}: {'flagged' if ok else 'NOT flagged'}")
            if not ok:
                bad.append(f"{what} planted in {rel}: {hits}")
    # What must pass: the project's own docs cited by path, and names that merely end alike.
    for line in ["see docs/cmn.md \"Flows\"", "docs/dsu_clusterpmu.md", "the amu.mdx file", "x_imc.md"]:
        if citations([("tests/x.py", line)]):
            bad.append(f"flagged a line it must pass: {line}")
    for b in bad:
        print("FAIL:", b)
    return 1 if bad else 0


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    if "--self-test" in sys.argv[2:]:
        return self_test(root)
    found = citations(files(root))
    for f in found:
        print(f)
    print(f"check_test_citations: {len(found)} citations of pmusim's own notes under {', '.join(FOLDERS)}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
