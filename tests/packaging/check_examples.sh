#!/usr/bin/env bash
# Installs pmusim into a temporary prefix under the build directory, builds every example under
# examples/ against it as a user would (find_package(pmusim) with CMake; pkg-config for the DSU
# example's Makefile) and runs each with a clean environment: no PMUSIM_DATA_DIR, no include or
# library path into the source or build tree.
# Usage: check_examples.sh BUILD_DIR SOURCE_DIR [SANITIZE_FLAGS]
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) sanitize=${3:-}
work="$build/package-test/examples"
prefix="$work/prefix"
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$prefix" >/dev/null

flags=()
# A sanitized libpmusim needs the sanitizer runtime in the program that loads it.
[ -n "$sanitize" ] && flags+=("-DCMAKE_CXX_FLAGS=-fsanitize=$sanitize" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=$sanitize")
command -v ccache >/dev/null && flags+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

# A clean environment for the programs: only what a shell and the sanitizers need.
run_clean() {
  env -i PATH=/usr/bin:/bin HOME="$work" SC_COPYRIGHT_MESSAGE=DISABLE \
    ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} "$@"
}

status=0
expect() { # NAME OUTPUT_FILE PATTERN...
  local name=$1 out=$2
  shift 2
  for pattern in "$@"; do
    if ! grep -q -- "$pattern" "$out"; then
      echo "FAIL: $name: expected '$pattern' in its output:" >&2
      cat "$out" >&2
      status=1
    fi
  done
}

for example in dsu_irq cmn_walk arm_platform dsu_variants timer_gic_uart; do
  echo "== example $example (CMake, find_package(pmusim))"
  cmake -S "$src/examples/$example" -B "$work/$example" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release "${flags[@]}" >"$work/$example.configure.log" || { cat "$work/$example.configure.log"; exit 1; }
  cmake --build "$work/$example" -- --no-print-directory >"$work/$example.build.log" 2>&1 || { cat "$work/$example.build.log"; exit 1; }
  # The program must not find headers outside the prefix: its compile commands say so.
  if grep -rq -- "-I$src" "$work/$example/CMakeFiles" 2>/dev/null; then
    echo "FAIL: $example compiles with an include path into the source tree" >&2
    status=1
  fi
  [ "$example" = dsu_variants ] && continue  # run once per variant below
  if run_clean "$work/$example/$example" >"$work/$example.out" 2>&1; then :; else
    echo "FAIL: $example exited with $?" >&2
    status=1
  fi
  cat "$work/$example.out"
done
expect dsu_irq "$work/dsu_irq.out" "overflow interrupt at 1123 ns" "^PASSED"
expect cmn_walk "$work/cmn_walk.out" "^ok: every child of the CFG node is an XP" "^PASSED"
expect arm_platform "$work/arm_platform.out" "^ok: dsu0's interrupt rises at 1.3 us" "^PASSED"
expect timer_gic_uart "$work/timer_gic_uart.out" "^timer interrupt 30 at 10 us" "^PASSED"
# docs/embedding.md's example for every DSU variant: the same code counts on each (the original's
# software lock opened by the PMLAR key, its 32-bit event counters wrapping at 2^32).
for variant in original dsu-110 dsu-120; do
  run_clean "$work/dsu_variants/dsu_variants" "$variant" >"$work/dsu_variants-$variant.out" 2>&1 ||
    { echo "FAIL: dsu_variants $variant exited with $?" >&2; status=1; }
  cat "$work/dsu_variants-$variant.out"
  expect "dsu_variants $variant" "$work/dsu_variants-$variant.out" "^overflow interrupt at 1 us" "^$variant PASSED"
done

echo "== example dsu_irq (pkg-config, examples/dsu_irq/Makefile)"
mkdir -p "$work/dsu_irq-pkgconfig"
cp "$src/examples/dsu_irq/dsu_irq.cpp" "$src/examples/dsu_irq/Makefile" "$work/dsu_irq-pkgconfig/"
cxxflags="-O1"
ldflags=""
[ -n "$sanitize" ] && cxxflags="$cxxflags -fsanitize=$sanitize" && ldflags="-fsanitize=$sanitize"
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" make -s -C "$work/dsu_irq-pkgconfig" CXXFLAGS="$cxxflags" LDFLAGS="$ldflags"
run_clean "$work/dsu_irq-pkgconfig/dsu_irq" >"$work/dsu_irq-pkgconfig.out" 2>&1 || { echo "FAIL: pkg-config build exited with $?" >&2; status=1; }
expect dsu_irq-pkgconfig "$work/dsu_irq-pkgconfig.out" "overflow interrupt at 1123 ns" "^PASSED"

echo "== the 40-line sc_main of docs/embedding.md (pkg-config)"
mkdir -p "$work/minimal"
sed -n '/embedding-minimal-begin/,/embedding-minimal-end/p' "$src/docs/embedding.md" | sed -e '1,2d' -e '$d' | sed '$d' \
  >"$work/minimal/minimal.cpp"
lines=$(wc -l <"$work/minimal/minimal.cpp")
[ "$lines" -le 40 ] || { echo "FAIL: the sc_main of docs/embedding.md has $lines lines, more than 40" >&2; status=1; }
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" g++ -std=c++17 $cxxflags "$work/minimal/minimal.cpp" -o "$work/minimal/minimal" \
  $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs pmusim) $ldflags -Wl,-rpath,"$prefix/lib"
run_clean "$work/minimal/minimal" >"$work/minimal.out" 2>&1 || { echo "FAIL: the docs' sc_main exited with $?" >&2; status=1; }
expect minimal "$work/minimal.out" "DSU overflow at 1 us"
exit $status
