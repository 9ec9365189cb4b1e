#!/usr/bin/env bash
# Installs exactly the Debian packages pmusim builds against. Idempotent and quiet
# when everything is already present; needs root (or sudo) only when something is missing.
set -euo pipefail
packages=(cmake g++ pkg-config make python3
          libsystemc-dev catch2 libfmt-dev
          libyaml-cpp-dev libcli11-dev nlohmann-json3-dev libbenchmark-dev
          parallel python3-matplotlib   # what-if: sweep shards (tests), pmusim plot
          device-tree-compiler          # dtc: checks the emitted IMC device tree (tests)
          clang libclang-rt-14-dev      # libFuzzer + sanitizer runtimes (scripts/fuzz.sh)
          libunicorn-dev                # the AArch64 instruction-set simulator (iss/, docs/firmware.md)
          gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu picolibc-aarch64-linux-gnu  # firmware/
          python3-pytest                # the Python client's tests (python/, examples/python/)
          doxygen help2man              # API reference and man pages (docs/embedding.md)
          slurm-wlm munge)              # the single-node Slurm sweep test (docs/whatif.md)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}" >&2
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq >/dev/null
$sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
