#!/usr/bin/env bash
# Output test driver: run a command, require exit code 0 and a line of its output (stdout or
# stderr) matching REGEX.  CTest's PASS_REGULAR_EXPRESSION alone ignores the exit code, which
# would let a run that prints its verdict and then crashes (e.g. in MPI_Finalize) pass.
#   expect-output.sh REGEX -- command args...
set -uo pipefail
regex=$1
shift
[[ $1 == -- ]] && shift
out=$(mktemp)
"$@" >"$out" 2>&1
rc=$?
cat "$out"
fail=0
if ((rc != 0)); then echo "FAIL: exit code $rc, expected 0"; fail=1; fi
if ! grep -Eq -- "$regex" "$out"; then echo "FAIL: output does not match /$regex/"; fail=1; fi
rm -f "$out"
exit $fail
