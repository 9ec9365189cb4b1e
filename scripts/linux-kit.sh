#!/usr/bin/env bash
# The Linux kit (docs/linux.md): Debian's own arm64 kernel, busybox-static and linux-perf (with the
# libraries perf links), fetched with `apt-get download` from Debian's archive only, extracted
# into DIR; an uncompressed arm64 Image; the PMU driver modules pmusim's units bind to; and an
# uncompressed newc initramfs whose /init runs a test script.
#
#   scripts/linux-kit.sh DIR [--kernel PACKAGE] [--script FILE --initrd-out CPIO] [--no-perf]
#
#   DIR            the kit folder; kept between runs, so a second call downloads nothing
#   --kernel P     a kernel package (e.g. linux-image-6.1.0-57-arm64 or linux-image-6.1.0-57-arm64=6.1.192-3);
#                  default: what Debian's linux-image-arm64 metapackage depends on today
#   --script F     the test script /init runs (a busybox sh script); default: an interactive shell
#   --initrd-out C where the initramfs goes (default DIR/initramfs.cpio)
#   --no-perf      leave perf and its libraries out of the initramfs (smaller, boots faster)
#
# Writes DIR/Image, DIR/modules/*.ko, DIR/initramfs.cpio (or --initrd-out), DIR/versions.txt.
# Exit codes: 0 done, 1 a package or file could not be fetched or is not what was expected,
# 2 bad arguments. Needs `dpkg --add-architecture arm64` and `apt-get update` once (done here when
# running as root).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
die() { echo "linux-kit: $*" >&2; exit 1; }
usage() { sed -n '6,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

dir="" kernel="" script="" initrd_out="" with_perf=1
while [ $# -gt 0 ]; do
  case "$1" in
    --kernel) [ $# -ge 2 ] || usage; kernel="$2"; shift 2 ;;
    --script) [ $# -ge 2 ] || usage; script="$2"; shift 2 ;;
    --initrd-out) [ $# -ge 2 ] || usage; initrd_out="$2"; shift 2 ;;
    --no-perf) with_perf=0; shift ;;
    -h|--help) usage ;;
    -*) echo "linux-kit: unknown option $1" >&2; usage ;;
    *) [ -z "$dir" ] || usage; dir="$1"; shift ;;
  esac
done
[ -n "$dir" ] || usage
[ -z "$script" ] || [ -f "$script" ] || { echo "linux-kit: $script: no such test script" >&2; exit 2; }
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
initrd_out="${initrd_out:-$dir/initramfs.cpio}"

# --- the archive: arm64 packages from Debian's own archive -----------------------------------
ensure_arm64() {
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    [ "$(id -u)" -eq 0 ] || die "run 'dpkg --add-architecture arm64 && apt-get update' as root first"
    dpkg --add-architecture arm64
    apt-get update -qq >/dev/null || die "apt-get update failed"
  fi
  if ! apt-cache show busybox-static:arm64 >/dev/null 2>&1; then
    [ "$(id -u)" -eq 0 ] || die "no arm64 package lists: run 'apt-get update' as root first"
    apt-get update -qq >/dev/null || die "apt-get update failed"
  fi
}

# The candidate version apt would pick (bookworm's pinning applies), or die naming the package.
candidate() {
  local v
  v=$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ {print $2}')
  [ -n "$v" ] && [ "$v" != "(none)" ] || die "package $1 is not in the configured Debian archive"
  echo "$v"
}

# Real (non-virtual) Depends/Pre-Depends of an arm64 package, first of each alternative group.
depends_of() {
  apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
    --no-enhances "$1" 2>/dev/null |
    awk '/^ *\|?(Pre)?Depends:/ { if (skip) { skip = ($1 ~ /^\|/); next }
                                  skip = ($1 ~ /^\|/); print $2 }' |
    grep -v '^<' | sed 's/:arm64$//'
}

# The libraries perf links: linux-perf's Depends closure restricted to shared-library packages
# (linux/kit/library_closure.py); perl and python (perf's scripting) are left out.
library_closure() {
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances "$1:arm64" 2>/dev/null | python3 "$here/linux/kit/library_closure.py"
}

fetch_packages() {
  ensure_arm64
  if [ -z "$kernel" ]; then
    kernel=$(depends_of linux-image-arm64:arm64 | grep -m1 '^linux-image-') ||
      die "linux-image-arm64:arm64 names no kernel package"
  fi
  local kpkg="${kernel%%=*}" kver=""
  [ "$kpkg" = "$kernel" ] || kver="${kernel#*=}"
  [ -n "$kver" ] || kver=$(candidate "$kpkg:arm64")
  local perf_pkgs=()
  mapfile -t perf_pkgs < <(library_closure linux-perf)
  [ ${#perf_pkgs[@]} -gt 1 ] || die "linux-perf:arm64 is not in the configured Debian archive"
  mkdir -p "$dir/debs"
  # One apt-get call for all of them (apt's candidate versions; each call costs seconds of
  # start-up); a .deb already fetched into DIR/debs is kept.
  local want=() p
  for p in "$kpkg:arm64=$kver" busybox-static:arm64 "${perf_pkgs[@]}"; do
    ls "$dir/debs/${p%%:*}_"*.deb >/dev/null 2>&1 || want+=("$p")
  done
  if [ ${#want[@]} -gt 0 ]; then
    (cd "$dir/debs" && apt-get download -qq "${want[@]}" >/dev/null) ||
      die "apt-get download failed for one of: ${want[*]} (is the kernel name right? 'apt-cache policy $kpkg:arm64')"
  fi
  rm -rf "$dir/root.kernel" "$dir/root.user"
  mkdir -p "$dir/root.kernel" "$dir/root.user"
  dpkg-deb -x "$dir/debs/${kpkg}_"*.deb "$dir/root.kernel"
  for f in "$dir/debs"/*.deb; do
    case "$(basename "$f")" in linux-image-*) ;; *) dpkg-deb -x "$f" "$dir/root.user" ;; esac
  done
  {
    echo "# Debian packages in this kit (apt-get download, architecture arm64)"
    for f in "$dir/debs"/*.deb; do
      dpkg-deb --show --showformat='${Package} ${Version} ${Architecture}\n' "$f"
    done
  } >"$dir/versions.txt.new"
  echo "$kpkg" >"$dir/kernel-package"
}

kit_complete() {
  [ -f "$dir/versions.txt" ] && [ -f "$dir/Image" ] && [ -d "$dir/root.user" ] && [ -f "$dir/modules/cpufreq-dt.ko" ] && \
    { [ -z "$kernel" ] || [ "$(cat "$dir/kernel-package" 2>/dev/null)" = "${kernel%%=*}" ]; }
}

if ! kit_complete; then
  echo "linux-kit: fetching Debian's arm64 kernel, busybox-static and linux-perf into $dir" >&2
  fetch_packages
  kpkg="$(cat "$dir/kernel-package")"
  kabi="${kpkg#linux-image-}"
  vmlinuz="$dir/root.kernel/boot/vmlinuz-$kabi"
  [ -f "$vmlinuz" ] || die "$kpkg has no /boot/vmlinuz-$kabi"
  python3 "$here/linux/kit/extract_image.py" "$vmlinuz" "$dir/Image" || die "cannot extract the Image from $vmlinuz"
  rm -rf "$dir/modules"; mkdir -p "$dir/modules"
  # cpufreq-dt: the cpufreq policy that turns on the AMU's frequency invariance (docs/linux.md).
  for m in arm_dsu_pmu arm-cmn cpufreq-dt; do
    ko=$(find "$dir/root.kernel/lib/modules/$kabi" -name "$m.ko" -o -name "$m.ko.xz" -o -name "$m.ko.zst" | head -1)
    [ -n "$ko" ] || die "$kpkg has no module $m.ko (CONFIG off in this kernel?)"
    case "$ko" in
      *.xz) xz -dc "$ko" >"$dir/modules/$m.ko" ;;
      *.zst) zstd -qdc "$ko" >"$dir/modules/$m.ko" ;;
      *) cp "$ko" "$dir/modules/$m.ko" ;;
    esac
  done
  [ -x "$dir/root.user/bin/busybox" ] || die "busybox-static has no /bin/busybox"
  [ -x "$dir/root.user/usr/bin/perf" ] || die "linux-perf has no /usr/bin/perf"
  mv "$dir/versions.txt.new" "$dir/versions.txt"
  # The kernel's own files are not needed again: keep the kit small.
  rm -rf "$dir/root.kernel"
fi

args=(--root "$dir/root.user" --modules "$dir/modules" --out "$initrd_out")
[ -z "$script" ] || args+=(--script "$script")
[ "$with_perf" -eq 1 ] || args+=(--no-perf)
python3 "$here/linux/kit/make_initramfs.py" "${args[@]}"
echo "linux-kit: $dir/Image, $initrd_out ($(sed -n '2,$p' "$dir/versions.txt" | grep -m1 '^linux-image') ...)" >&2
