#!/usr/bin/env bash
# Configures the one sanitized build that CI's sanitizer and fuzzing stages share
# (docs/reliability.md, "In CI"): clang with AddressSanitizer + UndefinedBehaviorSanitizer and the
# libFuzzer targets, at -O1 with line tables only, in build-asan/. scripts/sanitize.sh runs the
# test suite in it, scripts/fuzz.sh the fuzz targets; whichever runs first builds it.
# Prints the build folder's path.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-asan"
# A build-asan/ configured by an earlier pmusim with GCC cannot switch compilers in place.
if [ -f "$build/CMakeCache.txt" ] && ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++' "$build/CMakeCache.txt"; then
  echo "configure-sanitized: $build was configured with another compiler; reconfiguring it with clang" >&2
  rm -rf "$build/CMakeCache.txt" "$build/CMakeFiles"
fi
# ccache when installed (optional): repeated runs and worktrees share compiled objects.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# -O1 and line tables: what the ASan and libFuzzer documentation build with; reports keep
# file:line and the build costs far less than -O2 -g (docs/reliability.md, "CI time").
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -DNDEBUG" \
  -DPMUSIM_SANITIZE=address,undefined -DPMUSIM_SANITIZE_DEBUG_INFO=-gline-tables-only -DPMUSIM_FUZZ=ON \
  "${launcher[@]}" >/dev/null
echo "$build"
