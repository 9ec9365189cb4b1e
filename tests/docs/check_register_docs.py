#!/usr/bin/env python3
"""Fails when docs/registers/*.md differ from what the register tables generate.
Regenerate with: scripts/update-register-docs.sh
Usage: check_register_docs.py PMUSIM DOCS_REGISTERS_DIR"""
import os
import subprocess
import sys
import tempfile


def main():
    pmusim, committed = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as out:
        subprocess.check_call([pmusim, "regs", "--format", "markdown", "--output-dir", out])
        generated = sorted(os.listdir(out))
        problems = []
        for name in generated:
            path = os.path.join(committed, name)
            if not os.path.exists(path):
                problems.append(f"docs/registers/{name} is missing")
            elif open(path).read() != open(os.path.join(out, name)).read():
                problems.append(f"docs/registers/{name} differs from the register table")
        for name in sorted(os.listdir(committed)):
            if name.endswith(".md") and name not in generated:
                problems.append(f"docs/registers/{name} has no register table behind it")
        header = os.path.join(out, "pmusim_registers.h")
        with open(header, "w") as f:
            subprocess.check_call([pmusim, "regs", "--format", "c-header"], stdout=f)
        if subprocess.call(["cc", "-x", "c", "-std=c99", "-Wall", "-Werror", "-fsyntax-only", header]) != 0:
            problems.append("the generated C header does not compile")
        if problems:
            print("\n".join(problems) + "\nrun scripts/update-register-docs.sh", file=sys.stderr)
            print(f"register docs: 0 passed, 1 failed")
            return 1
    print(f"register docs: 1 passed, 0 failed ({len(generated)} tables)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
