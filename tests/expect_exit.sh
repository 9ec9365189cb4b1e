#!/usr/bin/env bash
# Runs a command and passes when its exit code is the expected one.
# Usage: expect_exit.sh EXPECTED COMMAND [ARGS...]
expected=$1; shift
"$@"
actual=$?
if [ "$actual" -ne "$expected" ]; then
  echo "expect_exit: '$*' exited $actual, expected $expected" >&2
  exit 1
fi
exit 0
