#!/usr/bin/env bash
# Compare our ping-pong figures with NetPIPE on the same MPI, in one session, 2 ranks:
#   - pstswm swap --protocols 1,0 (ordered simple swap; half the per-exchange time = half round
#     trip), cache 1 (one exchange per sample, after a barrier) and 10 (mean of ten back to back);
#   - pstswm pingpong --modes send (half round trip of a timed loop of round trips);
#   - NetPIPE (NPopenmpi / NPmpich2, Debian netpipe-openmpi / netpipe-mpich2), which prints the
#     half round trip too.
# Prints the half round trip at 8 B and 1 MiB, min over LAUNCHES launches of each, and the ratios
# ours / NetPIPE.  Everything starts through scripts/pstrun; extra environment (for example
# OMPI_MCA_btl_vader_single_copy_mechanism=none) applies to all three alike.
#   bench/pingpong-vs-netpipe.sh [--mpi openmpi|mpich] [--launches N]
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
root=$bench_root mpi=openmpi launches=3
bench_parse "mpi launches" "$@"
bench_positive launches
cd "$root"
np=NPopenmpi
[[ $mpi == openmpi ]] || np=NPmpich2
bench_need_command "$np" "apt-get install netpipe-${mpi/mpich/mpich2}"
bench_pstswm "$mpi"
bench_scratch
work=$bench_work
run() { bench_quiet "$root/scripts/pstrun" --mpi "$mpi" -n 2 "$@"; }

for ((i = 1; i <= launches; i++)); do
  run "$pstswm" swap --protocols 1,0 --sizes 8,1M --cache 1,10 --reps 50 --out "$work/swap.$i.jsonl"
  run "$pstswm" pingpong --modes send --sizes 8,1M --reps 20 --out "$work/pingpong.$i.jsonl"
  # NetPIPE sizes its repetition counts from the sweep, so run it 8 B ... 1 MiB and pick the two
  # sizes; np.out columns: bytes, Mbit/s, half round trip (s).
  (cd "$work" && run "$np" -l 8 -u 1048576 -o "np.$i.out")
done

bench_py pingpong_vs_netpipe "$work" "$mpi" "$launches"
