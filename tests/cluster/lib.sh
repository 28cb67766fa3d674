# Sourced by the cluster tests (tests/cmake/cluster.cmake): the emulated cluster brought up
# (scripts/cluster up is idempotent, so every test can ask), its environment, and the rule for a
# machine that cannot host it: skip (exit 77) with scripts/cluster's line, fail under CI=true.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cluster=$root/scripts/cluster
export PSTSWM_ROOT=$root

fail() { echo "FAIL: $*"; exit 1; }

# need_cluster [NODES]
need_cluster() {
  local out rc=0
  out=$("$cluster" up --nodes "${1:-2}" 2>&1) || rc=$?
  if ((rc == 2)); then
    echo "$out"
    [[ ${CI:-} == true ]] && fail "CI=true: the cluster tests must run here, not skip"
    exit 77
  fi
  ((rc == 0)) || { echo "$out"; fail "scripts/cluster up exited $rc"; }
  eval "$("$cluster" env)"
}

# The processes named COMM of a Slurm job (their environment names it), wherever they run.
#   procs_of_job JOBID COMM
procs_of_job() {
  local pid
  for pid in $(pgrep -x "$2"); do
    { tr '\0' '\n' <"/proc/$pid/environ" | grep -qx "SLURM_JOB_ID=$1"; } 2>/dev/null && echo "$pid"
  done
}

# Every line of FILE a whole JSON record, the run header first.
records_intact() {
  python3 - "$1" <<'PY'
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
assert lines[-1] == "", "the last line is incomplete"
recs = [json.loads(line) for line in lines[:-1]]
assert recs and recs[0]["type"] == "header", "no header first"
print(f"{len(recs)} complete records in {sys.argv[1]}")
PY
}
