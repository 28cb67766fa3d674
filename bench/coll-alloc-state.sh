#!/usr/bin/env bash
# How much the allocator's state moves a large reduction: pstswm coll at --alloc-state default,
# warm and fresh, and default under MALLOC_MMAP_THRESHOLD_=131072 (glibc maps every large
# temporary buffer afresh), for one MPI, 2 ranks, in interleaved launches (the order of the four
# variants shuffled per launch).  Per launch: the median over rounds of one call; the table gives
# the median over launches with its range and each variant's ratio to warm.
#   bench/coll-alloc-state.sh [--mpi openmpi|mpich] [--launches N] [--ops LIST] [--sizes LIST]
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
root=$bench_root mpi=openmpi launches=5 ops=allreduce,reduce,alltoallv sizes=64K,1M
bench_parse "mpi launches ops sizes" "$@"
bench_positive launches
cd "$root"
bench_pstswm "$mpi"
bench_scratch
work=$bench_work
variants=(default warm fresh mmap128K)
for ((i = 1; i <= launches; i++)); do
  for v in $(printf '%s\n' "${variants[@]}" | shuf); do
    state=$v env=()
    [[ $v == mmap128K ]] && state=default env=(env MALLOC_MMAP_THRESHOLD_=131072)
    "${env[@]}" "$root/scripts/pstrun" --mpi "$mpi" -n 2 "$pstswm" coll --ops "$ops" --sizes "$sizes" \
      --alloc-state "$state" --reps 20 --noise-probe 0 --out "$work/$v.$i.jsonl" >/dev/null
  done
done
bench_py coll_alloc_state "$work" "$mpi" "$launches"
