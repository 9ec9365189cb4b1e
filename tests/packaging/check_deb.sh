#!/usr/bin/env bash
# Builds the Debian package (cpack -G DEB), unpacks it into a scratch root (dpkg -x) and runs the
# pmusim found there with a clean environment (no PMUSIM_DATA_DIR): it must find its data under
# the scratch root's usr/share/pmusim, not in the source tree. Checks the package's Depends.
# Usage: check_deb.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
work="$build/package-test/deb"
rm -rf "$work"
mkdir -p "$work/root" "$work/run"
(cd "$build" && cpack -G DEB -B "$work/cpack" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/cpack/pmusim_*.deb)
echo "package: $(basename "$deb")"
depends=$(dpkg-deb -f "$deb" Depends)
version=$(dpkg-deb -f "$deb" Version)
echo "Depends: $depends"
status=0
fail() { echo "FAIL: $*" >&2; status=1; }
for package in libsystemc libyaml-cpp0.7 libfmt9 libstdc++6 python3-matplotlib; do
  [[ ", $depends," == *", $package"[\ ,\(]* ]] || fail "Depends lacks $package"
done
dpkg -x "$deb" "$work/root"
pmusim="$work/root/usr/bin/pmusim"
share="$work/root/usr/share/pmusim"
for f in imc/catalog/power9_dd2.dts platforms/arm-default.yaml tools/whatif/pmusim_plot.py; do
  [ -f "$share/$f" ] || fail "the package lacks share/pmusim/$f"
done
for f in usr/include/pmusim/pmusim.h usr/include/pmusim/version.h usr/lib/cmake/pmusim/pmusimConfig.cmake \
         usr/lib/pkgconfig/pmusim.pc usr/share/man/man1/pmusim.1 usr/share/man/man1/pmusim-run.1 \
         usr/share/doc/pmusim/embedding.md; do
  [ -e "$work/root/$f" ] || fail "the package lacks /$f"
done
so=$(ls "$work"/root/usr/lib/libpmusim.so.*.*.* 2>/dev/null | head -1)
[ -n "$so" ] && objdump -p "$so" | grep -q "SONAME *libpmusim.so.1$" || fail "libpmusim.so has no SONAME libpmusim.so.1"

# Run from a scratch folder with a clean environment (what a fresh shell on another machine has).
run() {
  (cd "$work/run" && env -i PATH=/usr/bin:/bin HOME="$work/run" SC_COPYRIGHT_MESSAGE=DISABLE \
    ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=$UBSAN_OPTIONS} "$pmusim" "$@")
}
run_with_input() { # INPUT_FILE ARGS...: run with stdin from the file
  local input=$1
  shift
  run "$@" <"$input"
}
check() { # WHAT PATTERN COMMAND... : the command exits 0 and prints PATTERN
  local what=$1 pattern=$2
  shift 2
  local out code=0
  out=$("$@" 2>&1) || code=$?
  if [ $code -ne 0 ]; then fail "$what: exit status $code: $out"; return; fi
  grep -q -- "$pattern" <<<"$out" || fail "$what: expected '$pattern' in: $out"
}
check "--version" "^pmusim $version\$" run --version
check "--data-dir" "^$work/root/usr/share/pmusim\$" run --data-dir
check "demo" "pmusim" run
for seq in dsu/el_gating.seq imc/core_imc_opal.seq; do
  cp "$src/tests/sequences/$seq" "$work/run/"
  check "run $seq" "" run run --quiet "$(basename "$seq")"
done
printf 'as cpu0 el1\nread AMEVCNTR00_EL0\n' >"$work/run/arm.in"
check "serve --platform arm-default" "^OK 0x" run_with_input "$work/run/arm.in" serve --platform arm-default
printf 'run 100 cycles of cpu0\n' >"$work/run/power.in"
check "serve --platform power9-default" "^OK" run_with_input "$work/run/power.in" serve --platform power9-default
check "imc-dt" "imc-counters" run imc-dt
# plot: a what-if run's samples, drawn by the installed script. Without python3-matplotlib (a
# Depends of the package, absent on a machine that only unpacked it) the script must still be
# found and say what is missing.
cp "$src/scenarios/examples/"tour* "$work/run/"
check "simulate" "" run simulate tour.yaml -o sim --no-progress
plot_out=$(run plot rates sim/samples.csv -o rates.svg 2>&1) && plot_code=0 || plot_code=$?
if env -i PATH=/usr/bin:/bin python3 -c "import matplotlib" 2>/dev/null; then  # the python3 pmusim runs
  [ $plot_code -eq 0 ] && [ -s "$work/run/rates.svg" ] || fail "plot: exit status $plot_code: $plot_out"
else
  grep -qi "matplotlib" <<<"$plot_out" || fail "plot without matplotlib: expected a message naming it: $plot_out"
fi
# The data lookup is the one in use: a data folder that does not exist makes imc-dt fail, naming it.
if out=$(cd "$work/run" && env -i PATH=/usr/bin:/bin PMUSIM_DATA_DIR=/nonexistent-pmusim-data \
    ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} "$pmusim" imc-dt 2>&1); then
  fail "imc-dt with PMUSIM_DATA_DIR=/nonexistent-pmusim-data succeeded"
else
  grep -q "nonexistent-pmusim-data" <<<"$out" || fail "imc-dt's error does not name the data folder: $out"
fi
exit $status
