#!/usr/bin/env bash
# Boot time of the Linux kit on pmusim vs QEMU (docs/performance.md "Linux boot"), side by side in
# one run: Debian's kernel and the same initramfs (busybox only: /init runs a one-line script and
# powers off), wall-clock seconds from start to exit, 1 CPU and 4 CPUs.
#   scripts/linux-boot-bench.sh [BUILD_DIR]      (default build; needs qemu-system-arm, the kit)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
kit="$build/linux-kit"
work="$build/linux-bench"
mkdir -p "$work"
printf 'echo "pmusim-bench: reached /init"\n' >"$work/bench.sh"
"$root/scripts/linux-kit.sh" "$kit" --script "$work/bench.sh" --initrd-out "$work/bench.cpio" --no-perf 2>/dev/null
command -v qemu-system-aarch64 >/dev/null || { echo "linux-boot-bench: install qemu-system-arm (benchmark only)" >&2; exit 2; }

seconds() { # COMMAND... -> prints "SECONDS REACHED_INIT"
  local start end out
  start=$(date +%s.%N)
  out=$("$@" 2>&1 || true)
  end=$(date +%s.%N)
  printf '%s %s\n' "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')" "$(grep -q 'pmusim-bench: reached /init' <<<"$out" && echo yes || echo no)"
}
args="console=ttyAMA0 rdinit=/init"
printf '%-34s %8s %s\n' "run" "seconds" "reached /init"
for smp in 1 4; do
  read -r s ok < <(seconds timeout 600 qemu-system-aarch64 -M virt -cpu max -smp "$smp" -m 256M -nographic \
    -nodefaults -serial stdio -net none -kernel "$kit/Image" -initrd "$work/bench.cpio" -append "$args")
  printf '%-34s %8s %s\n' "qemu-system-aarch64 -M virt -smp $smp" "$s" "$ok"
  extra=(); [ "$smp" -eq 1 ] && extra=(--append maxcpus=1)
  read -r s ok < <(seconds timeout 600 "$build/pmusim" linux --kernel "$kit/Image" --initrd "$work/bench.cpio" \
    --time-limit 30s "${extra[@]}")
  printf '%-34s %8s %s\n' "pmusim linux ($smp CPU)" "$s" "$ok"
done
