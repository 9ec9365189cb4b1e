#!/bin/sh
# Runs a firmware (it must pass) and checks that its log holds a line exactly once:
# check_log_once.sh PMUSIM ELF TEXT
set -e
log=$("$1" firmware "$2")
count=$(printf '%s\n' "$log" | grep -c -F "$3" || true)
if [ "$count" != 1 ]; then
    printf '%s\n' "$log"
    echo "expected exactly one line with '$3', found $count" >&2
    exit 1
fi
echo "one line with '$3'"
