#!/usr/bin/env bash
# Bad-input test driver: run a command, require exit code RC and a stderr line matching
# REGEX, and require that FILE (if not "-") was not created.
#   expect-fail.sh RC REGEX FILE -- command args...
set -uo pipefail
rc_want=$1 regex=$2 file=$3
shift 3
[[ $1 == -- ]] && shift
[[ $file != - ]] && rm -f "$file" "$file.partial"
err=$(mktemp)
"$@" >/dev/null 2>"$err"
rc=$?
fail=0
if [[ $rc != "$rc_want" ]]; then echo "FAIL: exit code $rc, expected $rc_want"; fail=1; fi
if ! grep -Eq -- "$regex" "$err"; then echo "FAIL: stderr does not match /$regex/"; fail=1; fi
if [[ $file != - && -e $file ]]; then echo "FAIL: $file was left behind"; fail=1; fi
# Invalid input leaves nothing at all; a failed run (3, 4) keeps its records in FILE.partial.
if [[ $file != - && $rc_want == 2 && -e $file.partial ]]; then echo "FAIL: $file.partial was left behind"; fail=1; fi
[[ $file != - ]] && rm -f "$file.partial"
if ((fail)); then echo "--- stderr ---"; cat "$err"; fi
rm -f "$err"
exit $fail
