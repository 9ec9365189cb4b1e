#!/usr/bin/env bash
# Installs what is missing and builds pmusim into build/ (Release, all cores).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/build" -j "$(nproc)" -- --no-print-directory >&2
