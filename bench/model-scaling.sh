#!/usr/bin/env bash
# Cost curves of the serial model: T21, T42, T85, T170 and T341 with one level (case 2), plus
# T42L16 and T85L16, on one rank, in interleaved rounds.  Prints a markdown table of the median
# step time and each stage's share, fits each stage's time to c·M^p over the one-level runs (least
# squares on logs) and draws time per step and per stage against M (log-log) into a PNG.
# Expected: about M³ for the Legendre stage (M wavenumbers x M degrees x M latitudes) and
# M² log M for the FFT (M latitudes x M log M per transform), so p ≈ 2.3 for the FFT over this
# range; the Fourier-space combinations and the grid and spectral stages are M².  Not a test: numbers depend on the machine.
#   bench/model-scaling.sh [--mpi openmpi|mpich] [--build DIR] [--rounds R] [--plot FILE.png] [--records FILE]
# Records go to results/bench-model-scaling-<date>.jsonl; --records FILE analyses an earlier run's
# records instead of running.
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
cd "$bench_root"
mpi=${PSTRUN_MPI:-openmpi} build='' rounds=3 plot='' records=''
bench_parse "mpi build rounds plot records" "$@"
build=${build:-build/$mpi}
mkdir -p results
stamp=$(date +%Y%m%d-%H%M%S)
out=${records:-results/bench-model-scaling-$stamp.jsonl}
plot=${plot:-results/bench-model-scaling-$stamp.png}
if [[ -n $records ]]; then
  [[ -r $records ]] || bench_die "cannot read --records $records"
  rounds=0
else
  bench_need_build "$build" pstswm
  : >"$out"
fi
# truncation levels steps: about a second of stepping each on a current core.
configs=("21 1 400" "42 1 200" "85 1 60" "170 1 15" "341 1 6" "42 16 60" "85 16 20")
if [[ -z $records ]]; then
  bench_context "$build/pstswm" "${out%.jsonl}.context.json"
  echo "# pstswm model scaling, case 2, 1 rank, $rounds rounds, $mpi"
fi
for ((r = 1; r <= rounds; r++)); do
  for cfg in "${configs[@]}"; do
    read -r M L steps <<<"$cfg"
    tmp=$(mktemp)
    noise_counted scripts/pstrun --mpi "$mpi" -n 1 "$build/pstswm" model --case 2 --trunc "$M" --levels "$L" --steps "$steps" \
      --warmup 2 --fftw-plan measure --out "$tmp" >/dev/null
    grep '"type":"point"' "$tmp" >>"$out"
    rm -f "$tmp"
  done
done
bench_py model_scaling "$out" "$plot"
echo "# step: median step time after 2 warm-up steps; stage shares of the mean per-step stage times; medians over"
echo "# the rounds.  Records: $out"
[[ -n $records ]] || noise_summary
