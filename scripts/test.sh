#!/usr/bin/env bash
# Quick-start command 2: install, build, run the whole test suite with ctest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build_start=$SECONDS
"$root/scripts/build.sh"
echo "test: build took $((SECONDS - build_start)) s" >&2
cd "$root/build"
exec ctest --output-on-failure -j "$(nproc)" "$@"
