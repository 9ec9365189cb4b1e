#!/usr/bin/env python3
"""Facts cite primary sources, never pmusim's own notes (docs/reliability.md, "Oracles"; issue 31
point 1). The notes in ../shared/reference (dsu.md, cmn.md, imc.md, amu.md) are what the models were
written from, so an oracle taken from them would share the model's mistakes, and a model comment
citing them points a reader at a secondary text instead of the document that decides. No file under
the test side (tests/, fuzz/ with its corpus, sequences/, firmware/, python/), the model side (the
unit folders, models/, devices/, vp/, iss/, embed/, include/, tb/) or docs/ may name them: not
`../shared/reference`, not `reference/cmn.md`, not a bare `dsu.md §3.1` (the project's own docs are
written `docs/cmn.md`, or as a Markdown link `[cmn.md](cmn.md)` inside docs/, and are not matched).
Cite the Arm TRM by number, the Arm ARM (DDI0487), Linux file@version, cmn-tools, TF-A or skiboot
instead (tests/facts rows name them), or say UNVERIFIED and what was chosen.

Usage: check_test_citations.py SOURCE_DIR            (exit 1 and file:line for every citation found)
       check_test_citations.py SOURCE_DIR --self-test (plants each kind of citation into a file of
                                                       each scanned folder; each must be flagged)"""
import pathlib
import re
import sys

TEST_SIDE = ["tests", "fuzz", "sequences", "firmware", "python"]
MODEL_SIDE = ["amu", "dsu_clusterpmu", "cmn", "imc", "cspmu", "models", "devices", "vp", "iss", "embed", "include",
              "tb"]
FOLDERS = TEST_SIDE + MODEL_SIDE + ["docs"]
# These name the notes in order to reject them: the facts check (facts.h source_problem) and its
# test, and this checker.
EXEMPT = {"tests/unit/facts.h", "tests/unit/test_facts.cpp", "tests/limits/check_test_citations.py"}
# The lines of the docs that state the rule itself (they must name the notes to forbid them): exempt
# only while they still contain the phrase given, so a citation added elsewhere in the file is flagged.
EXEMPT_LINES = {
    "docs/facts.md": ["Our own notes (`../shared/reference`) are never a source",
                      "our notes (`../shared/reference`, `reference/...`), a Linux file without"],
    "docs/reliability.md": ["cite primary sources, never pmusim's own notes (`../shared/reference`",
                            "| oracles citing the notes the model was written from |"],
}
NOTES = re.compile(r"shared/reference"
                   r"|\breference/\w+\.md\b"
                   r"|(?<![\w/.-])(?:dsu|cmn|imc|amu|cspmu|systemc)\.md\b")
# In docs/, a Markdown link to another page of ours ([imc.md](imc.md#platform)) is not the notes.
DOCS_LINK = re.compile(r"\[[^\]]*\]\((?![^)]*reference/)[^)]*\)")


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
        exempt_phrases = EXEMPT_LINES.get(rel, [])
        markdown = rel.startswith("docs/") and rel.endswith(".md")
        for n, line in enumerate(text.split("\n"), 1):
            if any(phrase in line for phrase in exempt_phrases):
                continue
            m = NOTES.search(DOCS_LINK.sub("", line) if markdown else line)
            if m:
                found.append(f"{rel}:{n}: cites pmusim's own notes ('{m.group(0)}'): {line.strip()[:120]}")
    return found


PLANTS = {
    "a ../shared/reference path": "../shared/reference/dsu.md section 7",
    "a reference/NAME.md path": "docs reference/cmn.md 1.2",
    "a bare note name with a section": "(cmn.md §3.1)",
    "the IMC note": "imc.md §5",
    "the AMU note": "amu.md §8.2",
    "a Markdown link to the notes": "[the notes](../shared/reference/imc.md#5)",
}
ALSO_PLANTED = ["docs/dsu_clusterpmu.md", "cmn/cmn_mesh.h"]
COMMENT = {".py": "# ", ".seq": "# ", ".inc": "# ", ".yaml": "# ", ".cmake": "# ", ".sh": "# ", ".tsv": "# "}


def self_test(root):
    real = list(files(root))
    bad = []
    if citations(real):
        bad.append("the tree itself has citations: run without --self-test")
    texts = dict(real)
    chosen = []
    for folder in FOLDERS:
        victims = [rel for rel, _ in real if rel.startswith(folder + "/")]
        if victims:  # (a folder this tree does not have is skipped)
            chosen.append(victims[len(victims) // 2])
    # The middle file of docs/ is a generated register page: plant into a hand-written page and a
    # model header too (each must be scanned: a folder dropped from FOLDERS fails here).
    for rel in ALSO_PLANTED:
        if rel not in texts:
            bad.append(f"{rel} is not scanned")
        elif rel not in chosen:
            chosen.append(rel)
    for rel in chosen:
        text = texts[rel]
        for what, words in PLANTS.items():
            prefix = COMMENT.get(pathlib.Path(rel).suffix, "// ")
            planted = text + f"\n{prefix}the expected value comes from {words}\n"
            hits = citations([(rel, planted)])  # the rest of the tree has none (checked above)
            ok = len(hits) == 1 and hits[0].startswith(f"{rel}:{planted.count(chr(10))}:")
            print(f"planted {what} in {rel}: {'flagged' if ok else 'NOT flagged'}")
            if not ok:
                bad.append(f"{what} planted in {rel}: {hits}")
    # The rule's own lines are exempt, the rest of their file is not.
    for rel in EXEMPT_LINES:
        text = texts.get(rel)
        if text is None:
            bad.append(f"{rel} is listed in EXEMPT_LINES but not scanned")
            continue
        planted = text + "\nthe reset value is from cmn.md §2.3\n"
        hits = citations([(rel, planted)])
        ok = len(hits) == 1 and hits[0].startswith(f"{rel}:{planted.count(chr(10))}:")
        print(f"planted a bare note name in {rel} (a file with exempt lines): {'flagged' if ok else 'NOT flagged'}")
        if not ok:
            bad.append(f"a citation planted in {rel}: {hits}")
    # What must pass: the project's own docs cited by path, names that merely end alike, and in
    # docs/ a Markdown link to a page of ours.
    for rel, line in [("tests/x.py", "see docs/cmn.md \"Flows\""), ("tests/x.py", "docs/dsu_clusterpmu.md"),
                      ("tests/x.py", "the amu.mdx file"), ("tests/x.py", "x_imc.md"),
                      ("cmn/x.cpp", "// (docs/cmn.md \"Secure access\")"),
                      ("docs/x.md", "parameters in [cspmu.md](cspmu.md#parameters)"),
                      ("docs/x.md", "[registers/imc.md](registers/imc.md)")]:
        if citations([(rel, line)]):
            bad.append(f"flagged a line it must pass: {rel}: {line}")
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
