#!/usr/bin/env bash
# The cost of pstswm model --reproducible on one rank: T85L16 (case 2) with the default choices
# (FFTW plans measured, --blas auto and --legendre-kernel auto timed at set-up) against
# --reproducible (FFTW by estimate, the first named library and kernel: openblas, dgemm), and
# against --reproducible --blas B (the library the default usually picks here, named), in
# interleaved rounds so the host's load drifts over all alike.  Per round the ratio of each
# variant's step time (the median over the steps after warm-up) and set-up time to the default's;
# the figure is the median ratio over rounds with its range.  Not a test: it depends on the
# machine and its load (say which, beside the figure).
#   bench/model-reproducible.sh [--mpi openmpi|mpich] [--build DIR] [--rounds R] [--steps N] [--blas B]
# Records go to results/bench-model-reproducible-<date>/.
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
cd "$bench_root"
mpi=${PSTRUN_MPI:-openmpi} build='' rounds=7 steps=40 blas=blis-sup
bench_parse "mpi build rounds steps blas" "$@"
build=${build:-build/$mpi}
bench_need_build "$build" pstswm
out=results/bench-model-reproducible-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
variants=("default" "reproducible" "reproducible-$blas")
options=("" "--reproducible" "--reproducible --blas $blas")
bench_context "$build/pstswm" "$out/$bench_name.context.json"
echo "# pstswm model T85L16 case 2, $steps steps, 1 rank, $rounds rounds, $mpi"
for ((r = 0; r < rounds; r++)); do
  for v in 0 1 2; do
    # shellcheck disable=SC2086 # the variant's options are words
    scripts/pstrun --mpi "$mpi" -n 1 "$build/pstswm" model --case 2 --trunc 85 --levels 16 --steps "$steps" \
      --noise-probe 0 ${options[$v]} --out "$out/${variants[$v]}-$r.jsonl" >/dev/null
  done
done
bench_py model_reproducible "$out" "$rounds" "${variants[@]}"
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg); records in $out"
