#!/usr/bin/env bash
# Case 6 (Rossby-Haurwitz wave) convergence study: a T213 reference run over 5 days, then T42
# runs with falling time steps measured against it (Williamson's normalised errors of the
# height and wind, reference spectrally truncated to T42).  Takes a few minutes on one core.
#   bench/model-case6.sh [--mpi openmpi|mpich] [--build DIR] [--days D]
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
cd "$bench_root"
mpi=${PSTRUN_MPI:-openmpi} build='' days=5
bench_parse "mpi build days" "$@"
build=${build:-build/$mpi}
bench_need_build "$build" pstswm
bench_context "$build/pstswm"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() { scripts/pstrun --mpi "$mpi" -n 1 "$build/pstswm" model --case 6 --days "$days" --fftw-plan estimate --timeout 0 "$@"; }
echo "# case 6, reference: T213, dt 120 s, $days days"
run --trunc 213 --dt 120 --write-fields "$dir/ref.nc" | grep -E "time per step|conservation"
printf "%-6s %8s %11s %11s %11s %11s\n" trunc "dt s" h_l1 h_l2 h_linf v_l2
for dt in 1800 900 450 225 150; do
  run --trunc 42 --dt "$dt" --reference "$dir/ref.nc" --out "$dir/r.jsonl" >/dev/null 2>&1
  bench_py model_case6_row "$dir/r.jsonl" "$dt"
done
