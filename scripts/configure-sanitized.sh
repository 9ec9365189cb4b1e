#!/usr/bin/env bash
# Configures the one sanitized build (docs/reliability.md "In CI"): clang with AddressSanitizer +
# UndefinedBehaviorSanitizer and the libFuzzer targets, in build-asan/ (PMUSIM_ASAN_BUILD moves
# it). scripts/sanitize.sh runs the test suite there and scripts/fuzz.sh fuzzes there, so CI
# compiles the sanitized library once for both. Prints the build folder.
# Usage: scripts/configure-sanitized.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${PMUSIM_ASAN_BUILD:-$root/build-asan}"
# ccache when installed (optional): repeated CI runs and worktrees share compiled objects.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
# The compilers as -D options, not CC/CXX: a folder configured earlier with GCC (the sanitizer
# build before 2026-12-05) is then reconfigured for clang instead of silently keeping GCC.
# libFuzzer needs clang; clang's ASan also serves the suite (one runtime for both).
# Line tables only (-gline-tables-only, not -g): the reports' file:line need nothing more, and full
# debug information of SystemC, yaml-cpp and nlohmann templates costs build time and link time.
cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" -DPMUSIM_SANITIZE_DEBUG_INFO=-gline-tables-only \
  -DPMUSIM_SANITIZE=address,undefined -DPMUSIM_FUZZ=ON "${launcher[@]}" >/dev/null
echo "$build"
