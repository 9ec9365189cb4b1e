#!/usr/bin/env bash
# Quick-start command 2: install, build, run the whole test suite with ctest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh"
cd "$root/build"
exec ctest --output-on-failure -j "$(nproc)" "$@"
