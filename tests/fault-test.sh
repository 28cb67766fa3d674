#!/usr/bin/env bash
# Fault tests: a rank that dies or stops in the middle of a run.
#   fault-test.sh kill|stop DIR -- LAUNCHER... PSTSWM
#   kill: SIGKILL one rank once records are being written; the job must end within 30 s, leave
#         no finished FILE, and every line of FILE.partial must be a complete JSON record.
#   stop: SIGSTOP one rank; the watchdog (--timeout 3) must end the job with exit 4 within 60 s.
# The ranks are found by a token in their environment (/proc/PID/environ), not by name.
set -uo pipefail
mode=$1 dir=$2
shift 2
[[ $1 == -- ]] && shift
rm -rf "$dir" && mkdir -p "$dir"
out=$dir/records.jsonl token=pstswm-fault-$$-$RANDOM
export PSTSWM_FAULT_TOKEN=$token

ranks_of_run() {
  for env in /proc/[0-9]*/environ; do
    pid=${env#/proc/}
    pid=${pid%/environ}
    { tr '\0' '\n' <"$env" | grep -qx "PSTSWM_FAULT_TOKEN=$token"; } 2>/dev/null || continue
    [[ $(cat "/proc/$pid/comm" 2>/dev/null) == pstswm ]] && echo "$pid"
  done
}

timeout_s=3
[[ $mode == kill ]] && timeout_s=120
"$@" swap --protocols 0,0,1,3 --sizes 8:64K --reps 400 --noise-probe 0 --timeout "$timeout_s" --out "$out" \
  >"$dir/stdout" 2>"$dir/stderr" &
job=$!
# Wait until the run is measuring (a few records written).
for _ in $(seq 600); do
  [[ -f $out.partial ]] && (($(wc -l <"$out.partial") >= 3)) && break
  sleep 0.1
done
victim=$(ranks_of_run | sort -n | tail -1)
if [[ -z $victim ]]; then echo "FAIL: no rank of the run found"; kill "$job"; exit 1; fi
start=$(date +%s.%N)
case $mode in
  kill) kill -KILL "$victim" ;;
  stop) kill -STOP "$victim" ;;
esac
limit=$([[ $mode == kill ]] && echo 30 || echo 60)
for _ in $(seq $((limit * 10))); do
  kill -0 "$job" 2>/dev/null || break
  sleep 0.1
done
fail=0
if kill -0 "$job" 2>/dev/null; then
  echo "FAIL: the job was still running $limit s after the fault"
  fail=1
  kill -KILL "$job" $(ranks_of_run) 2>/dev/null
fi
wait "$job"
rc=$?
elapsed=$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $start }")
echo "mode $mode: job ended ${elapsed} s after the fault with exit $rc"
for pid in $(ranks_of_run); do kill -CONT "$pid" 2>/dev/null; kill -KILL "$pid" 2>/dev/null; done
if [[ $mode == stop ]]; then
  [[ $rc == 4 ]] || { echo "FAIL: exit $rc, expected 4 (watchdog)"; fail=1; }
  grep -q "timeout: experiment '.*' ran longer than 3 s" "$dir/stderr" || { echo "FAIL: no watchdog message"; fail=1; }
else
  [[ $rc != 0 ]] || { echo "FAIL: exit 0 after a rank was killed"; fail=1; }
fi
[[ -e $out ]] && { echo "FAIL: $out exists: a failed run must not look finished"; fail=1; }
if ! python3 - "$out.partial" <<'EOF'; then fail=1; fi
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
assert lines[-1] == "", "the last line is incomplete"
recs = [json.loads(line) for line in lines[:-1]]
assert recs and recs[0]["type"] == "header", "no header first"
print(f"{len(recs)} complete records kept in {sys.argv[1]}")
EOF
((fail)) && { echo "--- stderr ---"; tail -20 "$dir/stderr"; }
exit $fail
