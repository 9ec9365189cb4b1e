#!/bin/sh
# The same firmware in the fast and the per-cycle reference mode gives identical access logs
# (every counter value read, with its cycle), for each ELF given.
set -e
pmusim=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for elf in "$@"; do
    "$pmusim" firmware "$elf" -q --log-json "$dir/fast.jsonl"
    "$pmusim" firmware "$elf" -q --reference --log-json "$dir/reference.jsonl"
    test -s "$dir/fast.jsonl"
    cmp "$dir/fast.jsonl" "$dir/reference.jsonl"
    echo "$elf: fast and reference access logs identical"
done
