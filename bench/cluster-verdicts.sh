#!/usr/bin/env bash
# The quick suite's kernel and swap verdicts across two emulated nodes (srun -N 2) and inside
# one (srun -N 1), interleaved, on the emulated cluster (scripts/cluster up): prints every
# verdict (the best protocol or algorithm and how sure) per placement, and where they differ.
# The experiments' arguments are the quick suite's (suites/quick.toml), --reps overridable.
#   bench/cluster-verdicts.sh [--mpi openmpi|mpich] [--reps N]
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
root=$bench_root mpi=openmpi reps=''
bench_parse "mpi reps" "$@"
[[ -z $reps ]] || bench_positive reps
bench_pstswm "$mpi"
"$root/scripts/cluster" up >/dev/null
eval "$("$root/scripts/cluster" env)"

bench_scratch
work=$bench_work
# The arguments of the quick suite's 2-rank kernel and swap-protocols experiments.
mapfile -t experiments < <(bench_py quick_suite_args "$root/suites/quick.toml" "$reps")
for line in "${experiments[@]}"; do
  read -ra words <<<"$line"
  for placement in across:2 inside:1; do
    name=${placement%:*} nodes=${placement#*:}
    bench_quiet "$root/scripts/pstrun" --mpi "$mpi" --launcher "srun -N $nodes -n {n}" -n 2 "$pstswm" "${words[@]:1}" \
      --noise-probe 0 --out "$work/${words[0]}.$name.jsonl"
  done
done

bench_py cluster_verdicts "$work" "$mpi"
