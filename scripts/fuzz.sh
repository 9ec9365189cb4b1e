#!/usr/bin/env bash
# Runs the libFuzzer targets (clang + ASan + UBSan) for a bounded time each, starting from the
# committed corpus (fuzz/corpus/<target>/, plus every sequence under tests/ for the parser and
# serve targets). They are built in build-asan/, the sanitized build scripts/sanitize.sh tests
# (scripts/configure-sanitized.sh): after it, only the targets' links are left, if anything. New
# interesting inputs go to build-asan/corpus/<target>/ (not committed); crashes to
# build-asan/crashes/<target>/.
#
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#   scripts/fuzz.sh 20                       # CI (.ci/run): each target 20 seconds
#   scripts/fuzz.sh 14400 fuzz_registers_arm # four hours on one target
# A crash: add the reproducer to fuzz/regressions/<corpus>/ (it becomes a ctest), fix, commit.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-60}"
shift || true
"$root/scripts/install-deps.sh"
build="$("$root/scripts/configure-sanitized.sh")"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_sequence_parser fuzz_platform_yaml fuzz_serve fuzz_registers_arm fuzz_registers_power9
                                      fuzz_scenario fuzz_perf_stat fuzz_sweep fuzz_event_stream)
build_start=$SECONDS
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" -- --no-print-directory >&2
echo "fuzz: build took $((SECONDS - build_start)) s" >&2
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=0:detect_stack_use_after_return=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export SC_COPYRIGHT_MESSAGE=DISABLE
status=0
for t in "${targets[@]}"; do
  corpus_name="$(echo "${t#fuzz_}" | sed -E 's/_(arm|power9)$//')"
  work="$build/corpus/$t"
  crashes="$build/crashes/$t"
  mkdir -p "$work" "$crashes"
  seeds=("$root/fuzz/corpus/$corpus_name" "$root/fuzz/regressions/$corpus_name")
  dict=()
  [ -f "$root/fuzz/$corpus_name.dict" ] && dict=(-dict="$root/fuzz/$corpus_name.dict")
  echo "fuzz: $t for ${seconds}s" >&2
  # The limits as invariants (docs/reliability.md, "Fuzzing"): an input of at most 8 KB taking
  # longer than 10 s is a hang (over a millisecond per byte); a process above 2 GB, or any single
  # allocation above 256 MB, is runaway memory. Each is a finding.
  if ! "$build/fuzz/$t" "$work" "${seeds[@]}" "${dict[@]}" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -malloc_limit_mb=256 -max_len=8192 -print_final_stats=1 -artifact_prefix="$crashes/" \
        > "$build/fuzz-$t.log" 2>&1; then
    echo "fuzz: $t FAILED; last lines of $build/fuzz-$t.log:" >&2
    tail -40 "$build/fuzz-$t.log" >&2
    status=1
  else
    grep -E "^stat::number_of_executed_units|^stat::new_units_added" "$build/fuzz-$t.log" | sed "s/^/  $t /" >&2 || true
  fi
done
exit $status
