#!/usr/bin/env bash
# pstswm's ReFrame library (packaging/reframe) end to end, with ReFrame from the project's venv:
# references from a run of the library's suite (pstlab run, then pstlab reframe), one ReFrame
# pass over every test that must pass, and one planted regression (PstswmSwap with pstswm's
# PSTSWM_FAULT_DELAY_US) that ReFrame must report as a performance failure.
#   library.sh local MPI PSTSWM DIR     this machine: ReFrame's local scheduler, scripts/pstrun
#   library.sh cluster MPI PSTSWM DIR   the emulated Slurm cluster: squeue scheduler, srun, 2 nodes
# The tolerance is wide (bounds 30x the top of the measured interval and spread) as the host is shared and noisy; the
# planted delay (10 ms per send) is far beyond it, so the pass and the failure are both certain.
set -uo pipefail
where=$1 mpi=$2 pstswm=$3 dir=$4
root=$(cd "$(dirname "$0")/../.." && pwd)
library=$root/packaging/reframe
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
[[ -x $root/.venv/bin/reframe ]] || fail "no ReFrame in .venv (scripts/setup.sh installs python/requirements-reframe.txt)"

launcher=mpiexec system=local:default
export PSTRUN_MPI=$mpi PSTSWM=$pstswm PSTSWM_RFM_RANKS=2 PSTSWM_RFM_NODES=1
if [[ $where == cluster ]]; then
  source "$root/tests/cluster/lib.sh"
  need_cluster 2
  launcher='srun -N 2 -n {n}' system=cluster:emulated PSTSWM_RFM_NODES=2
  export SLURM_MPI_TYPE=$([[ $mpi == openmpi ]] && echo pmix || echo pmi2)
fi

start=$SECONDS
"$root/.venv/bin/pstlab" run "$library/pstswm.toml" --mpi "$mpi" --pstswm "$pstswm" --launcher "$launcher" \
  --no-report --out "$dir/results" >"$dir/run.out" 2>&1 || { cat "$dir/run.out"; fail "pstlab run of the library's suite"; }
"$root/.venv/bin/pstlab" reframe "$dir/results" --system "$system" --tolerance 29 --out "$dir/references.json" ||
  fail "pstlab reframe"
echo "references: the library's suite run and its table in $((SECONDS - start)) s"
export PSTSWM_REFERENCES=$dir/references.json

reframe() {
  local name=$1 start=$SECONDS
  shift
  "$root/.venv/bin/reframe" -C "$library/settings.py" --system "$system" -c "$library/pstswm_checks.py" \
    --prefix "$dir/$name" --nocolor "$@" -r >"$dir/$name.out" 2>&1
  local rc=$?
  echo "ReFrame run '$name': exit $rc after $((SECONDS - start)) s"
  return $rc
}

reframe pass
rc=$?
cat "$dir/pass.out"
((rc == 0)) || fail "ReFrame exited $rc on the run that must pass"
grep -q "PASSED .* Ran 5/5 test case(s) from 5 check(s) (0 failure(s)" "$dir/pass.out" || fail "not 5 of 5 passed"
grep -q "nodes=${PSTSWM_RFM_NODES} " "$dir/pass.out" || fail "the tests did not run on ${PSTSWM_RFM_NODES} node(s)"

# A table for another system is refused by name, not taken as no references at all.
"$root/.venv/bin/pstlab" reframe "$dir/results" --system elsewhere:part --out "$dir/elsewhere.json" || fail "pstlab reframe"
PSTSWM_REFERENCES=$dir/elsewhere.json reframe elsewhere -n PstswmMatch
rc=$?
((rc != 0)) && grep -q "elsewhere.json is for 'elsewhere:part', not $system" "$dir/elsewhere.out" ||
  { cat "$dir/elsewhere.out"; fail "ReFrame took a table of another system (exit $rc)"; }

reframe planted -n PstswmSwap -S fault_delay_us=10000
rc=$?
cat "$dir/planted.out"
((rc != 0)) || fail "ReFrame passed a run with a planted 10 ms delay per send"
grep -q "Failing phase: performance" "$dir/planted.out" || fail "the planted delay did not fail in the performance phase"
grep -q "failed to meet reference(s)" "$dir/planted.out" || fail "no failed reference reported"
echo "ReFrame on $system ($mpi): 5 of 5 passed against references from $dir/results; the planted delay failed performance"
