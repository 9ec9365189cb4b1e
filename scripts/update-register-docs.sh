#!/usr/bin/env bash
# Regenerates docs/registers/*.md from the register tables (the test
# "docs: register reference matches the tables" fails until this is run).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh"
rm -f "$root"/docs/registers/*.md
"$root/build/pmusim" regs --format markdown --output-dir "$root/docs/registers"
