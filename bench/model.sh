#!/usr/bin/env bash
# Serial model performance against yardsticks measured in the same run: T42L16 and T85L16 (case 2)
# on one rank, each stage's time beside what the libraries alone reach on this core:
#   - single-core OpenBLAS DGEMM (n = 1000), alone and with a second copy running at once (two
#     vCPUs may share a physical core: the concurrent figure is the yardstick of a 2-rank run);
#   - FFTW alone doing the model's transforms (13 per latitude and level) on cache-resident
#     batches, at its fastest batch size (pst_yardstick fft);
#   - memory bandwidth (STREAM triad): on a shared host a neighbour can take the memory bus, which
#     slows the memory-bound stages but not DGEMM, so read the ratios beside it;
#   - the T85 Legendre dgemm shapes at 40 columns (a 4-level block's synthesis) through OpenBLAS
#     and BLIS's kernels (pst_yardstick legendre --operands cache,buffer,memory): the Fourier-side
#     operand in L2, in the model's wavenumber-major buffer, and that with the caches flushed:
#     where the model's Legendre stage falls among the three says what its memory costs it.
# Yardsticks and model runs are interleaved in rounds so load drift hits them alike, and every
# model run is bracketed by a DGEMM just before and just after it (the host's phases move DGEMM
# by a third within minutes): each run's rates are against the mean of its two brackets, and
# every figure is the median over rounds of per-run figures.  Rates use the flop counts of Worley (1998)
# for the whole step (4,129,859 per level-step at T42, 24,235,477 at T85) and the
# project's own count (src/model/stages/flops.h) for the Legendre stage.  Not a test: numbers depend on
# the machine and its load.
#   bench/model.sh [--mpi openmpi|mpich] [--build DIR] [--rounds R] [--steps-t42 N] [--steps-t85 N]
#                  [--level-block B] [--variant "MODEL OPTIONS"]...
# --variant runs both truncations once more per round with those model options (e.g.
# "--level-block 16 --blas blis"), interleaved with the default run, as rows of their own.
# Records (model points and yardsticks) go to results/bench-model-<date>.jsonl.
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
cd "$bench_root"
mpi=${PSTRUN_MPI:-openmpi} build='' steps_t42=100 steps_t85=40 level_block='' rounds=3 variant=("")
bench_parse "mpi build rounds steps-t42 steps-t85 level-block variant+" "$@"
build=${build:-build/$mpi}
for exe in pstswm pst_yardstick; do
  bench_need_build "$build" "$exe"
done
mkdir -p results
out=results/bench-model-$(date +%Y%m%d-%H%M%S).jsonl
: >"$out"
export OPENBLAS_NUM_THREADS=1
bench_context "$build/pstswm" "${out%.jsonl}.context.json"
echo "# pstswm model, case 2, 1 rank, $rounds rounds, $mpi"
# The Legendre yardstick puts BLIS's small-matrix kernels beside OpenBLAS where BLIS has them for
# this CPU; elsewhere (its generic configuration, or no BLIS) OpenBLAS alone, and it says why.
legendre_libs=openblas,blis-sup
if ! why=$("$build/pst_yardstick" legendre --trunc 5 --columns 1 --blas blis-sup --reps 1 2>&1 >/dev/null); then
  legendre_libs=openblas
  echo "# Legendre yardstick: OpenBLAS alone (${why#pst_yardstick: })"
fi
# The model's transforms per step: 8 forward (r2c) and 5 inverse (c2r) per latitude and level.
fft_yardstick() { "$build/pst_yardstick" fft --nlon "$1" --r2c $(($2 * 8 * 16)) --c2r $(($2 * 5 * 16)) --reps 5 | grep fft_best; }
# tag: every record of round r carries "round": r, so each target can be judged round by round.
tag() { sed "s/^{/{\"round\":$r,/"; }
# bracket: a short DGEMM beside the model run of truncation $M and options $run_options.
bracket() {
  "$build/pst_yardstick" dgemm --reps 3 |
    sed "s/\"what\":\"dgemm\"/\"what\":\"dgemm_bracket\",\"trunc\":$M,\"variant\":\"$run_options\"/" | tag >>"$out"
}
for ((r = 1; r <= rounds; r++)); do
  "$build/pst_yardstick" dgemm --reps 5 | tag >>"$out"
  # Two at once: each copy's rate is what one of two ranks can expect from its core.
  "$build/pst_yardstick" dgemm --reps 5 | sed 's/"what":"dgemm"/"what":"dgemm_concurrent"/' | tag >>"$out" &
  "$build/pst_yardstick" dgemm --reps 5 | sed 's/"what":"dgemm"/"what":"dgemm_concurrent"/' | tag >>"$out"
  wait
  {
    "$build/pst_yardstick" stream --reps 5
    fft_yardstick 128 64
    fft_yardstick 256 128
    "$build/pst_yardstick" legendre --trunc 85 --columns 40 --blas "$legendre_libs" --operands cache,buffer,memory --reps 5
  } | tag >>"$out"
  for cfg in "42 $steps_t42" "85 $steps_t85"; do
    read -r M steps <<<"$cfg"
    for run_options in "${variant[@]}"; do
      tmp=$(mktemp)
      bracket
      # shellcheck disable=SC2086 # a variant is a list of options
      noise_counted scripts/pstrun --mpi "$mpi" -n 1 "$build/pstswm" model --case 2 --trunc "$M" --levels 16 ${level_block:+--level-block "$level_block"} \
        --steps "$steps" --warmup 3 --fftw-plan measure $run_options --out "$tmp" >/dev/null
      bracket
      grep '"type":"point"' "$tmp" | sed "s/^{/{\"variant\":\"$run_options\",/" | tag >>"$out"
      rm -f "$tmp"
    done
  done
done
bench_py model "$out"
echo "# step: median step time after 3 warm-up steps; stages: mean per step (four: the Fourier-space combinations);"
echo "# leg/DGEMM: Legendre flops (flops.h) / dgemm stage time / DGEMM rate (the mean of the run's two brackets),"
echo "# median over the rounds; leg+four: the same over both stages; step/DGEMM, fft/FFTW likewise per round;"
echo "# plan s: FFTW planning (not in the step);"
echo "# FFTW ms: the same transforms by FFTW alone, cache-resident, best batch; medians over $rounds rounds."
echo "# targets: 'undecided' when the rounds (each run against its own yardsticks) disagree.  Records: $out"
noise_summary
