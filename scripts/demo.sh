#!/usr/bin/env bash
# Quick-start command 1: install, build, run the default job (the built-in demo scenario).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh"
exec "$root/build/pmusim"
