#!/usr/bin/env bash
# pstswm's spectral transforms against SHTns (Schaeffer 2013), per level-step, in one run: the
# model's FFT, Legendre and Fourier-combination stages (one rank, case 2, from its records) and
# their sum, beside SHTns's equivalent set on the same Gaussian grid (3 scalar + 1 vector
# synthesis, 3 scalar + 1 vector analysis, orthonormal, one thread: bench/lib/shtns_set.py), at each
# truncation, interleaved round by round.  SHTns is installed from PyPI into a bench-only venv
# (results/shtns-venv); it is a yardstick, never a dependency of pstswm.  Per truncation: each
# figure the median over rounds, the ratio pstswm set / SHTns set the median of the rounds' ratios
# with their lowest and highest; with several --legendre-kernel values each kernel runs in every
# round, in a rotating order.  SHTns's FFTs are also timed alone (FFTW, the library both use): the
# table's bound is the ratio with pstswm's 13 FFTs per level and Legendre work as fast as SHTns's.
# Not a test: numbers depend on the machine and its load.
#   bench/model-vs-shtns.sh [--mpi openmpi|mpich] [--build DIR] [--rounds R] [--truncations 42,85,170,341]
#                           [--legendre-kernel auto|dgemm|recurrence|simd[,...]]
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
cd "$bench_root"
mpi=${PSTRUN_MPI:-openmpi} build='' rounds=3 truncations=42,85,170,341 legendre_kernel=auto
bench_parse "mpi build rounds truncations legendre-kernel" "$@"
bench_positive rounds
IFS=, read -ra mlist <<<"$truncations"
for m in "${mlist[@]}"; do
  [[ $m =~ ^[1-9][0-9]*$ ]] || bench_die "--truncations takes numbers like 42,85 (got '$m')"
done
IFS=, read -ra klist <<<"$legendre_kernel"
for k in "${klist[@]}"; do
  [[ $k =~ ^(auto|dgemm|recurrence|simd)$ ]] || bench_die "--legendre-kernel takes auto, dgemm, recurrence, simd (got '$k')"
done
build=${build:-build/$mpi}
bench_need_build "$build" pstswm
venv=results/shtns-venv
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import shtns' 2>/dev/null; then
  echo "# installing SHTns from PyPI into $venv (bench only)"
  { "$bench_python" -m venv "$venv" && "$venv/bin/pip" install -q numpy shtns; } ||
    bench_die "could not install SHTns into $venv (pip install shtns needs FFTW's headers: libfftw3-dev)"
fi
out=results/bench-model-vs-shtns-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
bench_context "$build/pstswm" "$out/$bench_name.context.json"
echo "# $(OMP_NUM_THREADS=1 "$venv/bin/python" -c 'import shtns' 2>&1 | head -1); pstswm $build; $rounds rounds"
for ((r = 1; r <= rounds; r++)); do
  for m in "${mlist[@]}"; do
    levels=16 steps=$((m <= 85 ? 20 : m <= 170 ? 6 : 3))
    ((m > 170)) && levels=4
    nk=${#klist[@]}
    for ((j = 0; j < nk; j++)); do # rotate the kernels' order round by round
      k=${klist[$(((j + r) % nk))]}
      rec=$out/T$m-R$r-$k.jsonl
      scripts/pstrun --mpi "$mpi" -n 1 "$build/pstswm" model --case 2 --trunc "$m" --levels "$levels" --steps "$steps" \
        --warmup 1 --legendre-kernel "$k" --out "$rec" >"${rec%.jsonl}.out" 2>&1 ||
        bench_fail "T$m $k failed (${rec%.jsonl}.out)"
    done
    nlat=$(grep -o '"nlat":[0-9]*' "$rec" | head -1 | cut -d: -f2) nlon=$(grep -o '"nlon":[0-9]*' "$rec" | head -1 | cut -d: -f2)
    OMP_NUM_THREADS=1 "$venv/bin/python" bench/lib/shtns_set.py "$m" "$nlat" "$nlon" $((m <= 85 ? 100 : m <= 170 ? 30 : 10)) \
      >"$out/shtns-T$m-R$r.json" 2>/dev/null
  done
  echo "# round $r of $rounds done"
done
bench_py model_vs_shtns "$out"
