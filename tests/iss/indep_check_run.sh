#!/usr/bin/env bash
# Runs a firmware and checks its exit code, its exact stdout and a pattern on its stderr.
# Usage: indep_check_run.sh EXPECTED_RC EXPECTED_STDOUT(printf format) STDERR_REGEX COMMAND [ARGS...]
expected_rc=$1 expected_out=$2 err_pattern=$3; shift 3
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
rc=$?
status=0
if [ "$rc" -ne "$expected_rc" ]; then
  echo "indep_check_run: '$*' exited $rc, expected $expected_rc" >&2; status=1
fi
# shellcheck disable=SC2059
if ! cmp -s "$out" <(printf "$expected_out"); then
  echo "indep_check_run: stdout differs from the expected bytes:" >&2
  diff <(od -c "$out") <(printf "$expected_out" | od -c) >&2; status=1
fi
if ! grep -Eq -- "$err_pattern" "$err"; then
  echo "indep_check_run: stderr does not match '$err_pattern':" >&2; cat "$err" >&2; status=1
fi
exit $status
