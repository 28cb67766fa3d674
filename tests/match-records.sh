#!/usr/bin/env bash
# Run `pstswm match` and check its record file: one point per (algorithm, order, queue,
# wildcard, n, length), one fit per (algorithm, queue, wildcard, length) with m_ns, m_ns_ci95 and
# r2, one queue verdict per (queue, wildcard, length), every point verified.
#   match-records.sh NPOINTS NFITS NVERDICTS OUT -- launcher... pstswm match args...
set -uo pipefail
want_points=$1 want_fits=$2 want_verdicts=$3 out=$4
shift 4
[[ $1 == -- ]] && shift
rm -f "$out"
"$@" --out "$out" >/dev/null || { echo "FAIL: pstswm exited with $?"; exit 1; }
count() { grep -c "$1" "$out"; }
fail=0
check() { if [[ $2 != "$3" ]]; then echo "FAIL: $1: got $2, want $3"; fail=1; fi; }
check "point records" "$(count '"type":"point"')" "$want_points"
check "unverified points" "$(grep '"type":"point"' "$out" | grep -vc '"verified":true')" 0
check "points without iot_s/rot_s" "$(grep '"type":"point"' "$out" | grep -Evc '"(iot|rot)_s":[0-9]')" 0
check "fit records" "$(count '"summary":"fit"')" "$want_fits"
check "fits without m_ns, m_ns_ci95, r2" \
  "$(grep '"summary":"fit"' "$out" | grep -Evc '"m_ns":-?[0-9].*"m_ns_ci95":\[-?[0-9][^,]*,-?[0-9][^]]*\].*"r2":')" 0
check "verdict records" "$(count '"summary":"queues"')" "$want_verdicts"
check "verdicts without a verdict" "$(grep '"summary":"queues"' "$out" | grep -Evc '"verdict":"(per-communicator|shared|inconclusive)"')" 0
rm -f "$out"
exit $fail
