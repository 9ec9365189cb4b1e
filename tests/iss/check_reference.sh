#!/bin/sh
# The same firmware in the fast and the per-cycle reference mode gives identical access logs.
set -e
pmusim=$1 elf=$2 dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$pmusim" firmware "$elf" -q --log-json "$dir/fast.jsonl"
"$pmusim" firmware "$elf" -q --reference --log-json "$dir/reference.jsonl"
test -s "$dir/fast.jsonl"
cmp "$dir/fast.jsonl" "$dir/reference.jsonl"
