#!/usr/bin/env bash
# Worley 1998 Table 5 (T3E), predicted out of sample: the model (case 2, T42L16 and T85L16, DTH opt
# and DR opt) on every mesh the table lists, simulated with the SMPI build on platforms/t3e-900.toml
# (MPI) and platforms/t3e-900-shmem.toml (SHMEM's costs; run through the two-sided transport, since
# SMPI lacks what the one-sided one needs and the SMPI build has no OpenSHMEM: docs/predict.md).
# Prints the platforms' SHA-256, the search, then per cell paper, predicted, error and the
# no-communication baseline on the shape T(P)/T(4x4), and the targets with PASS/MISS
# (python/pstlab/simulate/validate_t3e.py holds the table and the arithmetic).
#   bench/predict-t3e.sh [--out DIR] [--jobs N] [--search GRIDS] [--reps N] [--compute real|skeleton]
# "opt" is searched by pstswm kernel on the simulated platform at each grid of --search (default
# 4x4) over the FFT transposes and dfft, halfsum and ringpipe, and the protocols of Worley's
# Table 4; pstlab tune's choice, narrowed to each family's algorithms, is the family's preset; a
# mesh uses the preset of the searched grid nearest in rank count.  --reps: the kernel's rounds
# (default 10; with fewer a median has no interval and every tie set holds all protocols).  Each
# cell runs 2 steps, the first untimed: every later step costs the same.  --compute skeleton
# (the default) injects each stage's analytic flops at the platform's rate and charges the host's
# own work nothing; real runs the arithmetic and scales this host's time of everything between
# two MPI calls (packing included) by the flop-rate ratio (docs/predict.md, Skeleton mode).  --out DIR (default results/bench-predict-t3e-DATE)
# resumes: cells whose records exist are not run again.  Needs build/smpi (scripts/dev/build.sh smpi).
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
cd "$bench_root"
out='' jobs=2 search=4x4 reps=10 compute=skeleton
bench_parse "out jobs search reps compute" "$@"
bench_choice compute real skeleton
bench_positive jobs
pstswm=build/smpi/pstswm
[[ -f $pstswm ]] || bench_die "$pstswm not built (scripts/dev/build.sh smpi Release 2)"
out=${out:-results/bench-predict-t3e-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out/cells" "$out/search" "$out/logs"
declare -A platform=([MPI]=platforms/t3e-900.toml [SHMEM]=platforms/t3e-900-shmem.toml)
# Settings every run shares, the serial rate runs included, so compute scales the same way: no
# noise probe (the host's stalls are not the platform's), FFTW plans by estimate and one dgemm
# library (measuring them per simulated rank costs minutes of set-up and changes no step).
fixed=(--noise-probe 0 --compute "$compute")
# In skeleton mode a stage's cost does not depend on how the step is chunked, so the fewest
# messages is the best configuration: one level block, one chunk per block (--chunks whole).
# The default chunks are sized for this host's cache and send 4 to 16 times as many messages.
chunking=()
[[ $compute == skeleton ]] && chunking=(--chunks whole --level-block 16)
# The dgemm library: BLIS's small-matrix kernels where BLIS has them for this CPU, else OpenBLAS
# (linked, so it runs everywhere), said and kept in the output: BLIS runs its generic configuration
# on CPUs its build has no configuration for (Debian's BLIS 0.9 on some AMD hosts), where
# --blas blis-sup is refused.  Not auto: it would time every library on every simulated rank.
blas=blis-sup probe=$out/logs/blas-probe.out
scripts/pstrun --mpi smpi --platform "${platform[MPI]}" -n 1 "$pstswm" model --case 2 --trunc 5 --steps 1 \
  --fftw-plan estimate --blas blis-sup "${fixed[@]}" >"$probe" 2>&1 || {
  rc=$? why=$(grep -m1 -o -- '--blas blis-sup: .*' "$probe") ||
    bench_fail "the model's probe run failed (exit $rc, not a refusal of --blas blis-sup): $probe"
  blas=openblas
}
model_fixed=(--case 2 --fftw-plan estimate --blas "$blas" "${chunking[@]}" "${fixed[@]}")
start=$SECONDS

bench_context "" "$out/$bench_name.context.json"
echo "# Worley 1998 Table 5 (T3E) predicted with $(smpirun -version 2>/dev/null | head -1 || echo SMPI)"
if [[ $blas == blis-sup ]]; then
  echo "dgemms: --blas blis-sup ($(grep -m1 -o 'BLIS [^)]*small-matrix kernels' "$probe" || echo BLIS))"
else
  echo "dgemms: --blas openblas, the fallback, since $why"
fi
echo "## platforms (SHA-256)"
sha256sum "${platform[MPI]}" "${platform[SHMEM]}"

# This host's MFlop/s per problem under SMPI at neutral speed, so that compute scales to the
# platform's [compute.TxLy] rate (pstlab predict does the same).
declare -A rate
for problem in T42L16 T85L16; do
  trunc=${problem:1:2} levels=${problem#*L}
  rec=$out/search/serial-$problem.jsonl
  [[ -s $rec ]] || scripts/pstrun --mpi smpi --platform "${platform[MPI]}" -n 1 "$pstswm" model "${model_fixed[@]}" \
    --trunc "$trunc" --levels "$levels" --steps 6 --warmup 2 --out "$rec" >"$out/logs/serial-$problem.out" 2>&1
  rate[$problem]=$(bench_pstlab validate-t3e rate "$rec")
  echo "host rate $problem: ${rate[$problem]} MFlop/s (serial, 4 timed steps)"
done

# The search: pstswm kernel on the simulated platform, the FFT stage's candidates and the
# Legendre stage's, over the Table 4 protocols; then one preset per family.
protocols=$(PYTHONPATH=python "$bench_python" -c 'from pstlab.simulate.validate_t3e import TABLE4_PROTOCOLS as p; print(",".join(p))')
echo "## search: grids $search, protocols $protocols, $reps rounds"
for grid in ${search//,/ }; do
  n=$(( ${grid%x*} * ${grid#*x} ))
  for problem in T42L16 T85L16; do
    for library in MPI SHMEM; do
      tag=$problem-$library-$grid rec=$out/search/kernel-$problem-$library-$grid.jsonl
      if [[ ! -s $rec ]]; then
        for stage in "fft srtrans,swtrans,logtrans,dfft" "legendre halfsum,ringpipe"; do
          read -r name algorithms <<<"$stage"
          scripts/pstrun --mpi smpi --platform "${platform[$library]}" --problem "$problem" --host-mflops "${rate[$problem]}" \
            -n "$n" "$pstswm" kernel --trunc "${problem:1:2}" --levels "${problem#*L}" --grid "$grid" --stages "$name" \
            --algorithms "$algorithms" --protocols "$protocols" --overlap off --reps "$reps" "${fixed[@]}" \
            --out "$rec.$name" >"$out/logs/kernel-$tag-$name.out" 2>&1
        done
        cat "$rec.fft" "$rec.legendre" >"$rec" && rm -f "$rec.fft" "$rec.legendre"
      fi
      echo "$tag: $(bench_pstlab validate-t3e size "$rec") alternatives timed"
      for family in DTH DR; do
        bench_pstlab validate-t3e preset "$rec" "$family" "$out/search/opt-$family-$tag.toml" | sed "s/^/  $tag /"
      done
    done
  done
done
echo "search done after $((SECONDS - start)) s"

# The cells, largest first so the job slots stay busy to the end.
run_cell() {
  local problem=$1 family=$2 library=$3 column=$4 mesh=$5 grid=$6 platform_file=$7 host_rate=$8
  local name=$problem-$family-$library-$column
  [[ -s $out/cells/$name.jsonl ]] && return 0
  local n=$(( ${mesh%x*} * ${mesh#*x} )) t0=$SECONDS
  if scripts/pstrun --mpi smpi --platform "$platform_file" --problem "$problem" --host-mflops "$host_rate" \
    -n "$n" "$pstswm" model "${model_fixed[@]}" --trunc "${problem:1:2}" --levels "${problem#*L}" --grid "$mesh" \
    --steps 2 --warmup 1 --preset opt --tuned "$out/search/opt-$family-$problem-$library-$grid.toml" \
    --out "$out/cells/$name.jsonl" >"$out/logs/$name.out" 2>&1; then
    echo "  $problem $family $library $mesh: $((SECONDS - t0)) s"
  else
    echo "  $problem $family $library $mesh: FAILED (exit $?; $out/logs/$name.out)"
  fi
}
echo "## cells ($jobs at a time; opt of a mesh from the searched grid nearest in rank count)"
bench_pstlab validate-t3e cells --search "$search" | sort -k6,6nr |
  while read -r problem family library column mesh _ranks grid; do
    echo "$problem $family $library $column $mesh $grid ${platform[$library]} ${rate[$problem]}"
  done | {
  # xargs starts a fresh bash per cell: hand it the function and what it reads.
  export -f run_cell
  export out pstswm
  export model_fixed_str="${model_fixed[*]}"
  # shellcheck disable=SC2016 # the inner bash expands them
  xargs -P "$jobs" -L 1 bash -c 'read -ra model_fixed <<<"$model_fixed_str"; run_cell "$@"' _
}
echo "cells done after $((SECONDS - start)) s"
echo
bench_pstlab validate-t3e report "$out"
