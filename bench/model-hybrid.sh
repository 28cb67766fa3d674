#!/usr/bin/env bash
# Ranks x threads: the model (case 2, preset gen) on every split of this node's cores into R ranks
# x T OpenMP threads per rank (R x T = the cores this script may use: 2x1 and 1x2 on 2 cores,
# 64x1 ... 1x64 on 64), and on 1x1 for the efficiency, placed by scripts/pstrun (each rank on T
# cores of its own, docs/howto-ranks-threads.md).  Launches are interleaved: launch k runs every
# problem x split before launch k + 1 starts, so load drift hits the splits alike.  One table:
# per split and problem the step time (median over launches, with the lowest-highest), each
# stage's time (compute less its communication), the communication, and the efficiency against
# 1x1: T(1x1) / (cores x T(split)), ideal 1, and its time over the problem's fastest row with the
# 95 % interval over launches (paired by launch; "best" marks the fastest, "tie" an interval that
# holds 1).  With --grids all, each split's ranks run on every processor grid PXxPY = R (rows
# R x T@PXxPY), so a split is compared with the best grid of its ranks, not only the default one.
# Beside the efficiency, the node's ceiling measured in the same run (bench/node-ceiling.sh, one
# round per launch, interleaved with the model's): the concurrent-DGEMM per-core rate over one
# core's, of one process's threads for 1xT and of one process per core otherwise, and the split's
# efficiency over that ceiling launch by launch (median and 95 % interval), so 0.80 reads as the
# node's limit (near 1) or the model's (well below 1).  --ceiling 0 leaves it out.  --sync-wait 1 runs the model with --sync-wait: the
# column "wait" is then the barriers' time before each communication (the wait for the slowest
# rank: imbalance, a stalled core) and "comm" the transfers alone.  "imbalance" is the slowest
# rank's time over the fastest's in the stages without communication (the same work on every rank).
# Not a test: numbers depend on the machine and its load.
#   bench/model-hybrid.sh [--mpi openmpi|mpich] [--build DIR] [--launches N] [--problems T42L16,T85L16]
#                         [--steps N] [--grids default|all] [--ceiling 1|0] [--sync-wait 0|1]
# Records go to results/bench-model-hybrid-<date>/<problem>-<R>x<T>[@<grid>]-L<k>.jsonl, the
# ceiling's samples to node-ceiling.samples beside them (pstlab's report reads both).
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
cd "$bench_root"
mpi=${PSTRUN_MPI:-openmpi} build='' launches=3 problems=T42L16,T85L16 steps=20 grids=default ceiling=1 sync_wait=0
bench_parse "mpi build launches problems steps grids ceiling sync-wait" "$@"
bench_positive launches steps
bench_choice grids default all
bench_choice ceiling 1 0
bench_choice sync_wait 0 1
IFS=, read -ra plist <<<"$problems"
for p in "${plist[@]}"; do
  [[ $p =~ ^T[0-9]+L[0-9]+$ ]] || bench_die "--problems takes TnnLmm names (got '$p')"
done
build=${build:-build/$mpi}
bench_need_build "$build" pstswm

cores=$(nproc)
splits=("1x1")
for ((t = 1; t <= cores; t++)); do
  ((cores % t == 0)) && splits+=("$((cores / t))x$t")
done
[[ ${splits[1]} == 1x1 ]] && splits=("1x1")  # one core: 1x1 is the only split
sync_flag=()
((sync_wait)) && sync_flag=(--sync-wait)
out=results/bench-model-hybrid-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
bench_context "$build/pstswm" "$out/$bench_name.context.json"
echo "# pstswm model, case 2, preset gen, $steps steps; splits of $cores cores: ${splits[*]}; $launches launches; $mpi"
for ((k = 1; k <= launches; k++)); do
  for p in "${plist[@]}"; do
    trunc=${p#T} trunc=${trunc%L*} levels=${p#*L}
    for s in "${splits[@]}"; do
      ranks=${s%x*} threads=${s#*x}
      grid_list=("")  # pstswm's default grid for the ranks
      if [[ $grids == all && $ranks -gt 1 ]]; then
        grid_list=()
        for ((px = 1; px <= ranks; px++)); do ((ranks % px == 0)) && grid_list+=("${px}x$((ranks / px))"); done
      fi
      for g in "${grid_list[@]}"; do
        file=$out/$p-$s${g:+@$g}-L$k.jsonl
        scripts/pstrun --mpi "$mpi" -n "$ranks" "$build/pstswm" model --case 2 --trunc "$trunc" --levels "$levels" \
          --steps "$steps" --preset gen --threads "$threads" ${g:+--grid "$g"} ${sync_flag[@]+"${sync_flag[@]}"} \
          --out "$file" >"${file%.jsonl}.out" 2>&1 ||
          bench_fail "$p on $s${g:+ grid $g} failed (${file%.jsonl}.out)"
      done
    done
  done
  if ((ceiling)) && ((cores > 1)); then
    bench/node-ceiling.sh --build "$build" --rounds 1 --out "$out" >"$out/node-ceiling-L$k.out" 2>&1 ||
      bench_fail "the node ceiling failed ($out/node-ceiling-L$k.out)"
  fi
  echo "# launch $k of $launches done"
done

bench_py model_hybrid "$out" "$cores"
