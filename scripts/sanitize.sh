#!/usr/bin/env bash
# Builds pmusim with AddressSanitizer + UndefinedBehaviorSanitizer into build-asan/ and runs the
# whole test suite there (docs/reliability.md). Any sanitizer report fails the test it happens in:
# ASan halts on the first error, UBSan is built with -fno-sanitize-recover=all.
# Usage: scripts/sanitize.sh [ctest arguments...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
build="$root/build-asan"
# ccache when installed (optional): repeated CI runs and worktrees share compiled objects.
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPMUSIM_SANITIZE=address,undefined \
  "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)" -- --no-print-directory >&2
# detect_leaks: SystemC keeps its kernel (sc_simcontext, coroutine stacks) alive until exit by
# design; leak reports would be about the library, not pmusim. Everything else is on.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=0:detect_stack_use_after_return=0:strict_string_checks=1:check_initialization_order=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
cd "$build"
exec ctest --output-on-failure -j "$(nproc)" "$@"
