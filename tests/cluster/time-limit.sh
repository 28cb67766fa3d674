#!/usr/bin/env bash
# A batch job past its time limit, in two steps so the minute Slurm waits costs no test slot:
#   time-limit.sh submit MPI PSTSWM DIR   sbatch scripts/pstswm.sbatch on tests/cluster/tiny.toml
#       with --time 1; once the first experiment is done, stop pstlab in the job (SIGSTOP: the
#       job then sits idle, as a hung experiment would, until Slurm ends it at its limit)
#   time-limit.sh resume MPI PSTSWM DIR   wait for Slurm to end the job at its time limit, then
#       pstlab run --resume must keep the first experiment and finish the other two
set -uo pipefail
source "$(dirname "$0")/lib.sh"
step=$1 mpi=$2 pstswm=$3 dir=$4
need_cluster 2
status_of() { python3 -c "import json,sys; print(' '.join(e['status'] for e in json.load(open(sys.argv[1]))['experiments']))" "$dir/suite/manifest.json" 2>/dev/null; }

case $step in
  submit)
    rm -rf "$dir" && mkdir -p "$dir"
    jid=$(cd "$dir" && PSTSWM_MPI=$mpi sbatch --parsable --time 1 -o "$dir/job.out" "$root/scripts/pstswm.sbatch" \
      "$root/tests/cluster/tiny.toml" --pstswm "$pstswm" --out "$dir/suite") || fail "sbatch exited $?"
    echo "$jid" >"$dir/jobid"
    for _ in $(seq 1200); do
      pids=$(procs_of_job "$jid" pstlab)
      [[ -n $pids ]] && break
      sleep 0.05
    done
    [[ -n $pids ]] || fail "job $jid never started pstlab; $(cat "$dir/job.out")"
    for _ in $(seq 3000); do
      grep -q '"status": "done"' "$dir/suite/manifest.json" 2>/dev/null && break
      sleep 0.02
    done
    kill -STOP $pids
    [[ $(status_of) == done\ * ]] || fail "job $jid never finished its first experiment (manifest: $(status_of)); $(cat "$dir/job.out")"
    echo "job $jid: pstlab ($pids) stopped after the first experiment; manifest: $(status_of)"
    ;;
  resume)
    jid=$(cat "$dir/jobid") || fail "no job submitted (time-limit.sh submit failed)"
    for _ in $(seq 1500); do
      squeue -h -j "$jid" 2>/dev/null | grep -q . || break
      sleep 0.2
    done
    squeue -h -j "$jid" 2>/dev/null | grep -q . && fail "job $jid still queued or running after 300 s"
    grep -q "DUE TO TIME LIMIT" "$dir/job.out" || fail "job $jid did not end at its time limit: $(cat "$dir/job.out")"
    [[ -z $(procs_of_job "$jid" pstswm)$(procs_of_job "$jid" pstlab) ]] || fail "processes of job $jid left running"
    echo "job $jid ended at its time limit; manifest: $(status_of)"
    # Stopped after the first experiment; Slurm's SIGCONT before its SIGTERM may let pstlab record
    # the launch that ran meanwhile, never the whole suite.
    [[ $(status_of) =~ ^done\ .*(running|pending) ]] || fail "manifest after the time limit: $(status_of)"
    "$root/.venv/bin/pstlab" run "$root/tests/cluster/tiny.toml" --mpi "$mpi" --pstswm "$pstswm" \
      --launcher 'srun -N 2 -n {n}' --out "$dir/suite" --resume >"$dir/resume.out" 2>&1 || { cat "$dir/resume.out"; fail "--resume exited $?"; }
    cat "$dir/resume.out"
    grep -q "pingpong: done in an earlier run, kept" "$dir/resume.out" || fail "the finished experiment was not kept"
    [[ $(status_of) == "done done done" ]] || fail "manifest after --resume: $(status_of)"
    ;;
esac
