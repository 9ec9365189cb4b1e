#!/usr/bin/env bash
# Builds pmusim with clang, AddressSanitizer + UndefinedBehaviorSanitizer and the libFuzzer targets
# into build-asan/ (scripts/configure-sanitized.sh; scripts/fuzz.sh then fuzzes in the same build)
# and runs the test suite there (docs/reliability.md). Any sanitizer report fails the test it
# happens in: ASan halts on the first error, UBSan is built with -fno-sanitize-recover=all.
#
# Tests with little or no sanitizer value are skipped (docs/reliability.md, "What the sanitized
# run skips"); PMUSIM_SANITIZE_ALL=1 runs them too, and PMUSIM_SANITIZE_SKIP replaces the ctest -E
# pattern.
# Usage: scripts/sanitize.sh [ctest arguments...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
build="$("$root/scripts/configure-sanitized.sh")"
build_start=$SECONDS
cmake --build "$build" -j "$(nproc)" -- --no-print-directory >&2
echo "sanitize: build took $((SECONDS - build_start)) s" >&2
# detect_leaks: SystemC keeps its kernel (sc_simcontext, coroutine stacks) alive until exit by
# design; leak reports would be about the library, not pmusim. Everything else is on.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=0:detect_stack_use_after_return=0:strict_string_checks=1:check_initialization_order=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
# Skipped (the Release stage runs them all): checks of text and of the source tree (docs wording,
# facts files, test timeouts, the oracle guard); packaging (installing, CMake and pkg-config
# consumers, the .deb), whose programs the host compiler builds; and the mutation set, which
# rebuilds the model with a deliberate break to see a named test fail, not to find memory errors;
# and the per-cycle reference-mode reruns of the sequences (`reference:`), whose sequences run
# here in fast mode (`seq:`) and whose reference-mode code the `differential:` tests run here.
# Also the access matrices (every register x requester x access, thousands of accesses through
# paths the unit tests and sequences here already take) and the size-limit tests (inputs at their
# limits, timed and measured for peak memory: properties of the Release build, not of a build
# whose shadow memory and instrumentation change both).
# Also `whatif: plot` (`pmusim plot` hands the drawing to Debian's python3 and matplotlib) and the
# progress-bar test (a terminal's output of a reference-mode run; 56 s under ASan).
# Also the source checks of the floors and of the field style (`architecture:`, Python over the
# tree), and every test with the label `kernel` (the kit and the runs of Debian's kernel: a
# billion guest instructions each, whose ISS and device paths the `iss:`, `firmware:` and `linux:`
# input tests run here).
skip="${PMUSIM_SANITIZE_SKIP:-^(docs|facts|package|mutations|reference|architecture): |^limits: (every test has a timeout|unit tests take expected values|the oracle check|the field-style check|units name their fields|models, docs and tests cite|the citation check|absurd inputs|expansion is bounded)|^unit:access matrix: |^whatif: plot$|^outputs: a progress bar}"
skip_args=(-E "$skip" -LE kernel)
[ "${PMUSIM_SANITIZE_ALL:-0}" = 1 ] && skip_args=()
cd "$build"
exec ctest --output-on-failure -j "$(nproc)" "${skip_args[@]}" "$@"
