#!/usr/bin/env bash
# The --trunc limit at its edge, for `pstswm model` and `pstswm kernel` alike: run under an
# address-space limit (the caller's prlimit), so the limit is the same on every machine with more
# memory than that.  A far larger truncation's refusal names the limit L; then T(L+1) exits 2
# naming L and the estimate, and T(L) passes the limit (the model is then refused by its whole
# estimate, the serial transform included, which is larger).
#   trunc-limit.sh GB OUT -- launcher... pstswm
set -uo pipefail
gb=$1 out=$2
shift 2
[[ $1 == -- ]] && shift
here=$(dirname "$0")
msg=$("$@" model --trunc 20000 --steps 1 --out "$out" 2>&1 >/dev/null)
if [[ ! $msg =~ T20000\ is\ over\ T([0-9]+), ]]; then echo "FAIL: T20000 was not refused with the limit: $msg"; exit 1; fi
limit=${BASH_REMATCH[1]} over=$((BASH_REMATCH[1] + 1))
regex="T$over is over T$limit, the largest truncation whose memory estimate fits this node: the time step's buffers of "
regex+="T${over}L1 on one rank alone need [0-9.]+ GB, more than the $gb GB a process may have here"
fail=0
for bench in model kernel; do
    "$here/expect-fail.sh" 2 "$regex" "$out" -- "$@" "$bench" --trunc "$over" --out "$out" || fail=1
done
msg=$("$@" model --trunc "$limit" --steps 1 --out "$out" 2>&1 >/dev/null)
if [[ $msg == *"is over T"* || $msg != *"needs about"* ]]; then echo "FAIL: T$limit did not pass the limit: $msg"; fail=1; fi
rm -f "$out" "$out.partial"
((fail)) || echo "trunc-limit: T$limit on $gb GB: ok"
exit $fail
