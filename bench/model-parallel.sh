#!/usr/bin/env bash
# Parallel efficiency of the model on this machine: T85L16 case 2 on 1x1, then on 2x1 and 1x2 with
# each algorithm choice, in rounds (each round runs every configuration once, so load drifts hit
# them alike).  The --candidates fastest configurations of those rounds are then confirmed by
# --confirm fresh rounds, each running 1x1 and every candidate once in a rotating order (a winner
# picked after the fact from the same runs would be flattered by their noise).  A candidate's
# efficiency in a round is t(1x1) / (P t(grid)) of that round's launches; it prints the median
# with its distribution-free 95 % interval, which candidates tie for the fastest (pstlab's
# verdict: paired by round, sign test against a 2 % margin) and the verdict on the 0.90 target:
# met or MISSED only when the whole interval is on one side, undecided otherwise.
# Beside it, the concurrent-DGEMM and concurrent-STREAM yardsticks: what each of two copies reaches
# when both run at once, against one alone (two vCPUs may share a physical core or its memory
# bandwidth), and a warning when the host's own speed moved between the confirming rounds.
# Not a test: numbers depend on the machine and its load.
#   bench/model-parallel.sh [--mpi openmpi|mpich] [--build DIR] [--trunc M] [--levels L] [--steps N] [--rounds R]
#                           [--confirm N (6 or more for a 95 % interval)] [--candidates K]
# Records go to results/bench-model-parallel-<date>.jsonl.
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
cd "$bench_root"
mpi=${PSTRUN_MPI:-openmpi} build='' trunc=85 levels=16 steps=12 rounds=3 confirm=6 candidates=3
bench_parse "mpi build trunc levels steps rounds confirm candidates" "$@"
build=${build:-build/$mpi}
((confirm >= 1 && candidates >= 1)) || bench_die "--confirm and --candidates must be at least 1"
bench_need_build "$build" pstswm
mkdir -p results
out=results/bench-model-parallel-$(date +%Y%m%d-%H%M%S).jsonl
: >"$out"
configs=(
  "1x1"
  "1x2 --legendre exchsum" "1x2 --legendre halfsum" "1x2 --legendre ringsum" "1x2 --legendre ringpipe"
  "1x2 --legendre coll" "1x2 --legendre coll --level-pipeline" "1x2 --legendre srtrans"
  "2x1 --fft srtrans" "2x1 --fft coll" "2x1 --fft dfft"
)
# run PHASE CONFIG: one launch, its point record tagged with the phase.
run() {
  local grid rest n
  read -r grid rest <<<"$2"
  n=$((${grid%x*} * ${grid#*x}))
  # shellcheck disable=SC2086  # rest holds separate options
  noise_counted scripts/pstrun --mpi "$mpi" -n "$n" "$build/pstswm" model --case 2 --trunc "$trunc" --levels "$levels" \
    --steps "$steps" --warmup 2 --grid "$grid" $rest --out "$out.part" >/dev/null
  grep '"type":"point"' "$out.part" | sed "s/^{/{\"bench_phase\":\"$1\",\"bench_config\":\"$2\",/" >>"$out"
}
bench_context "$build/pstswm" "${out%.jsonl}.context.json"
echo "# pstswm model T${trunc}L${levels} case 2, $steps steps, $rounds rounds + $confirm confirming launches, $mpi"
for ((r = 1; r <= rounds; r++)); do
  for cfg in "${configs[@]}"; do run search "$cfg"; done
done
# The candidates: the parallel configurations with the lowest medians over the search rounds.
mapfile -t best < <(bench_py model_parallel candidates "$out" "$candidates")
order=("1x1" "${best[@]}")
for ((r = 1; r <= confirm; r++)); do
  # Rotate the order each round, so no configuration always follows the same one.
  for ((i = 0; i < ${#order[@]}; i++)); do run confirm "${order[(i + r) % ${#order[@]}]}"; done
  for kernel in dgemm stream; do
    OPENBLAS_NUM_THREADS=1 "$build/pst_yardstick" "$kernel" --reps 5 >>"$out"
    for _ in 1 2; do
      OPENBLAS_NUM_THREADS=1 "$build/pst_yardstick" "$kernel" --reps 5 | sed 's/"what":"\([a-z_]*\)"/"what":"\1_concurrent"/' >>"$out" &
    done
    wait
  done
done
rm -f "$out.part"
bench_py model_parallel report "$out"
noise_summary
echo "# records: $out"
