#!/usr/bin/env bash
# A rank's node loses its link mid-run (node2's eth0 goes down once records are being written).
# TCP itself reports nothing, so the watchdog (--timeout 20) must end the job with its message,
# before Slurm declares the node lost (SlurmdTimeout, scripts/cluster), and every line
# already written must be a whole record. The cluster is taken down afterwards.
#   link-down.sh MPI PSTSWM DIR
set -uo pipefail
source "$(dirname "$0")/lib.sh"
mpi=$1 pstswm=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
need_cluster 2
trap '"$cluster" down' EXIT
out=$dir/records.jsonl
"$root/scripts/pstrun" --mpi "$mpi" --launcher 'srun -N 2 -n {n}' -n 2 "$pstswm" swap --protocols 0,0,1,3 \
  --sizes 8:64K --reps 400 --noise-probe 0 --timeout 20 --out "$out" >"$dir/stdout" 2>"$dir/stderr" &
job=$!
for _ in $(seq 600); do
  [[ -f $out.partial ]] && (($(wc -l <"$out.partial") >= 3)) && break
  sleep 0.1
done
[[ -f $out.partial ]] || { kill "$job"; fail "the run wrote no records within 60 s"; }
ip -n pstswm-node2 link set eth0 down
echo "node2's link down after $(wc -l <"$out.partial") records"
for _ in $(seq 900); do kill -0 "$job" 2>/dev/null || break; sleep 0.1; done
kill -0 "$job" 2>/dev/null && { kill "$job"; fail "the job was still running 90 s after the link went down"; }
wait "$job"
rc=$?
echo "the job ended with exit $rc"; tail -3 "$dir/stderr"
# pstswm exits 4; srun passes that on with Open MPI, while MPICH's abort through PMI-2 has
# slurmstepd kill the step (137).
[[ $rc != 0 ]] || fail "exit 0 after the link went down"
grep -q "timeout: experiment '.*' ran longer than 20 s" "$dir/stderr" || fail "no watchdog message"
[[ -e $out ]] && fail "$out exists: a failed run must not look finished"
records_intact "$out.partial" || fail "a damaged record file"
