#!/usr/bin/env bash
# Debian's own arm64 kernel boots on pmusim, its own drivers (arm_dsu_pmu, arm-cmn) probe our DSU
# CLUSTERPMU and CMN-600, and Debian's own `perf stat` counts on them. Each count perf prints is
# compared with the model's ground truth: the deltas the driver itself read from our counter
# registers (pmusim's access log), the clock's edges while the counter counted, and, for the CMN's
# HN-F events, the platform's request flows counted by hand (docs/linux.md "The tests, as a tutorial").
# The kit (kernel, busybox, perf) comes from Debian's archive with `apt-get download`, once, into
# build/linux-kit. Exit 0 when every count equals its ground truth.
# Usage: scripts/linux-perf-demo.sh [CPUS]   (1 by default; 4: the whole DSU cluster)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cpus="${1:-1}"
case "$cpus" in 1|2|3|4) ;; *) echo "linux-perf-demo: CPUS must be 1 to 4, got '$cpus'" >&2; exit 2 ;; esac
"$root/scripts/build.sh"
work="$root/build/linux-perf-demo"
python3 "$root/tests/linux/boot_test.py" perf --pmusim "$root/build/pmusim" --kit "$root/build/linux-kit" \
  --src "$root/tests/linux" --work "$work" --cpus "$cpus" --time-limit 60s && status=0 || status=$?
echo "linux-perf-demo: what perf printed (COUNT,UNIT,EVENT,...):"
grep -E '^[0-9]+,,arm_(dsu|cmn)_0/' "$work/perf.console" || true
echo "linux-perf-demo: the whole console: $work/perf.console; the access log: $work/perf.jsonl"
exit "$status"
