#!/usr/bin/env bash
# pstswm's ping-pong against the smallest honest ping-pong (bench/minimal/pingpong_minimal.c, built
# here with the same mpicc), 2 ranks, in interleaved launches: per launch the best half round trip
# of each (pstswm pingpong --modes send: t_min; minimal: best of 20 loops), then the best launch of
# each and the ratio pstswm / minimal at 8 B and 1 MiB.  The target is <= 1.03: a benchmark adds
# nothing to what it measures.  A third column runs the minimal ping-pong at --thread-level
# LEVEL (default funneled) to show what asking the library for thread support costs.
#   bench/pingpong-minimal.sh [--mpi openmpi|mpich] [--launches N] [--level single|funneled|serialized|multiple]
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
root=$bench_root mpi=openmpi launches=10 level=funneled
bench_parse "mpi launches level" "$@"
bench_choice level single funneled serialized multiple
bench_positive launches
cd "$root"
source scripts/lib/mpi-env.sh
bench_pstswm "$mpi"
bench_scratch
work=$bench_work
"$(mpi_cc "$mpi")" -O2 -o "$work/minimal" bench/minimal/pingpong_minimal.c
run() { "$root/scripts/pstrun" --mpi "$mpi" -n 2 "$@" 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }; }

for ((i = 1; i <= launches; i++)); do
  for bytes in 8 1048576; do
    iters=$((bytes > 8 ? 200 : 4000))
    run "$pstswm" pingpong --modes send --sizes "$bytes" --iters "$iters" --reps 20 \
      --out "$work/pstswm.$bytes.$i.jsonl" >/dev/null
    run "$work/minimal" "$bytes" "$iters" >"$work/minimal.$bytes.$i"
    run "$work/minimal" "$bytes" "$iters" "$level" >"$work/level.$bytes.$i"
  done
done

bench_py pingpong_minimal "$work" "$launches" "$level"
