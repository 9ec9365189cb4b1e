#!/usr/bin/env bash
# Installs exactly the Debian packages pmusim builds against. Idempotent and quiet
# when everything is already present; needs root (or sudo) only when something is missing.
set -euo pipefail
packages=(cmake g++ pkg-config make python3
          libsystemc-dev catch2 libfmt-dev
          libyaml-cpp-dev libcli11-dev nlohmann-json3-dev libbenchmark-dev
          parallel python3-matplotlib   # what-if: sweep shards (tests), pmusim plot
          device-tree-compiler          # dtc: checks the emitted IMC device tree (tests)
          libfdt-dev                    # pmusim linux: checks a user's DTB, fills /chosen (docs/linux.md)
          qemu-system-arm               # benchmark only: pmusim linux's boot vs QEMU -M virt (docs/performance.md)
          clang libclang-rt-14-dev      # libFuzzer + sanitizer runtimes (scripts/fuzz.sh)
          gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu picolibc-aarch64-linux-gnu  # firmware/
          libcapstone-dev gdb-multiarch  # trace disassembly, the GDB stub's tests (docs/debugging.md)
          python3-pytest                # the Python client's tests (python/, examples/python/)
          doxygen help2man              # API reference and man pages (docs/embedding.md)
          slurm-wlm munge               # the single-node Slurm sweep test (docs/whatif.md)
          linux-source-6.1 linux-source-6.12)  # the facts' Linux citations checked against Linux's text (docs/facts.md)
# Unicorn >= 2.1.1 (the ISS runs code with the MMU on; bookworm's 2.0.1 cannot: its load/store
# helpers look the memory map up by virtual address, fixed upstream in 2.1.0). Debian trixie's
# packages run on bookworm; apt pinning takes only these two from trixie, so nothing else moves.
unicorn_packages=(libunicorn-dev libunicorn2t64)
unicorn_min=2.1.1
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
unicorn_ok() {
  local v
  v=$(dpkg-query -W -f='${Version}' libunicorn-dev 2>/dev/null) || return 1
  [ -n "$v" ] && dpkg --compare-versions "$v" ge "$unicorn_min"
}
unicorn_ok && [ ${#missing[@]} -eq 0 ] && exit 0
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
if ! unicorn_ok; then
  # Trixie's archive at priority 1: never chosen unless asked for by name (package/trixie).
  $sudo_cmd tee /etc/apt/sources.list.d/pmusim-trixie.sources >/dev/null <<'SOURCES'
Types: deb
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  $sudo_cmd tee /etc/apt/preferences.d/pmusim-trixie >/dev/null <<'PIN'
Package: *
Pin: release n=trixie
Pin-Priority: 1
PIN
fi
echo "install-deps: installing ${missing[*]} $(unicorn_ok || echo "${unicorn_packages[*]} (trixie)")" >&2
$sudo_cmd apt-get update -qq >/dev/null
[ ${#missing[@]} -eq 0 ] || $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
if ! unicorn_ok; then
  $sudo_cmd apt-get install -y -qq --no-install-recommends "${unicorn_packages[@]/%//trixie}" >/dev/null
  unicorn_ok || { echo "install-deps: libunicorn-dev >= $unicorn_min could not be installed" >&2; exit 1; }
fi
