#!/usr/bin/env bash
# Records test driver: run a command that writes FILE, require exit 0, then check FILE's records.
#   records-test.sh FILE -- command args... -- EXPR...
set -uo pipefail
file=$1
shift
[[ $1 == -- ]] && shift
cmd=()
while (($#)) && [[ $1 != -- ]]; do cmd+=("$1"); shift; done
shift
rm -f "$file"
"${cmd[@]}" || { echo "FAIL: command exited with $?"; exit 1; }
exec python3 "$(dirname "$0")/check-records.py" "$file" "$@"
