#!/usr/bin/env bash
# Does the allocator's state move a whole application, not just one collective?  pstswm model
# with the coll preset (MPI_Alltoallv transposes, MPI_Allreduce sums) and the kernel's
# collectives, 2 ranks, under glibc's default, MALLOC_MMAP_THRESHOLD_=131072 (every large
# temporary mapped afresh, as coll --alloc-state fresh) and =33554432 (served from the heap, as
# warm), in interleaved launches with the order of the three shuffled per launch.  Prints the
# median over launches of the model's median step and of each kernel collective's median.
#   bench/model-alloc-state.sh [--mpi openmpi|mpich] [--launches N]
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
root=$bench_root mpi=openmpi launches=5
bench_parse "mpi launches" "$@"
bench_positive launches
cd "$root"
bench_pstswm "$mpi"
bench_scratch
work=$bench_work
for ((i = 1; i <= launches; i++)); do
  for v in $(printf '%s\n' default 131072 33554432 | shuf); do
    env=()
    [[ $v != default ]] && env=(env "MALLOC_MMAP_THRESHOLD_=$v")
    "${env[@]}" "$root/scripts/pstrun" --mpi "$mpi" -n 2 "$pstswm" model --case 2 --trunc 85 --levels 8 --steps 20 \
      --grid 1x2 --preset coll --noise-probe 0 --out "$work/model.$v.$i.jsonl" >/dev/null
    "${env[@]}" "$root/scripts/pstrun" --mpi "$mpi" -n 2 "$pstswm" kernel --trunc 85 --levels 8 --algorithms coll \
      --reps 20 --noise-probe 0 --out "$work/kernel.$v.$i.jsonl" >/dev/null
  done
done
bench_py model_alloc_state "$work" "$mpi" "$launches"
