#!/usr/bin/env bash
# What MPI_THREAD_MULTIPLE costs per message: pstswm pingpong --threads T (T streams between two
# ranks, stream s on tag s, as OSU's multithreaded latency test) in mode multiple (every thread
# calls MPI) against mode funneled (--thread-level funneled: the master drives all T streams), and
# the one-thread baseline at --thread-level single, and one thread at --thread-level multiple (the
# level's own cost: the library's locking on every call, with no second thread to compete), in
# interleaved launches (the order rotates).  Per size: each mode's time per message (the streams'
# wall time / T; a single thread's half round trip), median over launches; the ratios multiple /
# funneled and level multiple / single, medians over launches with their 95 % intervals (paired by
# launch, pstlab.stats.paired_ratio); "tie" when the interval holds 1.  With fewer than 2 T cores
# the streams' threads take turns on them, and the first ratio is the scheduler's, not the
# library's: the script says so; the second needs only 2 cores.
#   bench/pingpong-threads.sh [--mpi openmpi|mpich] [--threads T] [--launches N]
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
root=$bench_root mpi=openmpi threads=2 launches=10
bench_parse "mpi threads launches" "$@"
[[ $threads =~ ^[0-9]+$ && $threads -ge 2 && $threads -le 1024 ]] || bench_die "--threads '$threads' is not a count from 2 to 1024"
[[ $launches =~ ^[0-9]+$ && $launches -ge 6 ]] || bench_die "--launches '$launches' is not a count of 6 or more (a 95 % interval needs 6)"
cd "$root"
bench_pstswm "$mpi"
bench_scratch
work=$bench_work
sizes=8,1K,8K,64K
run() { # name, pstswm options
  local name=$1; shift
  bench_quiet "$root/scripts/pstrun" --mpi "$mpi" -n 2 "$pstswm" pingpong --modes send --sizes "$sizes" --reps 10 "$@" \
    --out "$work/$name.$i.jsonl"
}
for ((i = 1; i <= launches; i++)); do
  order=(single funneled multiple level)
  for ((k = 0; k < 4; k++)); do
    case ${order[(i + k) % 4]} in
      single) run single --threads 1 --thread-level single ;;
      funneled) run funneled --threads "$threads" --thread-level funneled ;;
      multiple) run multiple --threads "$threads" --thread-level multiple ;;
      level) run level --threads 1 --thread-level multiple ;;
    esac
  done
done

bench_py pingpong_threads "$work" "$launches" "$threads" "$mpi" "$(nproc)"
