#!/usr/bin/env bash
# The node's ceiling: one core's OpenBLAS DGEMM (order --n) and STREAM triad (--mb MiB per array)
# alone, then on every core at once, as the OpenMP threads of one process (pst_yardstick --threads,
# OMP_PLACES=cores) and as one process per core (pinned with taskset, as ranks are), in --rounds
# interleaved rounds (every case once per round, so the host's load drifts hit them alike).  Per
# case the per-core rate (repetition by repetition the slowest copy's, the processes' repetitions
# matched by index as the threads' are; median over rounds with the lowest and highest) and
# the ceiling: that rate over the same round's one-core rate, median [lowest, highest].  A split of
# R ranks x T threads can reach at best its ceiling's efficiency on this node (docs/model.md: the
# node's ceiling); bench/model-hybrid.sh runs one round per launch and prints the two side by side.
# Not a test: numbers depend on the machine and its load.
#   bench/node-ceiling.sh [--build DIR] [--rounds N] [--reps R] [--n N] [--mb MB] [--out DIR]
# Samples go to DIR/node-ceiling.samples (default results/node-ceiling-<date>/), appended to.
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
cd "$bench_root"
build=build/${PSTRUN_MPI:-openmpi} rounds=3 reps=5 n=1000 mb=128 out=''
bench_parse "build rounds reps n mb out" "$@"
bench_positive rounds reps n mb
bench_need_build "$build" pst_yardstick
command -v taskset >/dev/null || bench_die "taskset not found (util-linux)"
out=${out:-results/node-ceiling-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
samples=$out/node-ceiling.samples
# The cores this script may use, as the launcher would place one rank on each.
mapfile -t cores < <(taskset -pc $$ | sed 's/.*: //' | tr ',' '\n' |
  awk -F- '{ if (NF == 2) for (c = $1; c <= $2; c++) print c; else print $1 }')
ncores=${#cores[@]}
stamp=$(date +%s)

# tag MODE ROUND COPY: a yardstick line with where it came from.
tag() { sed "s/^{/{\"mode\":\"$1\",\"round\":\"$2\",\"copy\":$3,/"; }
# one_case KERNEL MODE ROUND: the kernel's yardstick in that mode, its lines appended to the samples.
one_case() {
  local kernel=$1 mode=$2 round=$3 size=(--n "$n") pids=() c
  [[ $kernel == stream ]] && size=(--mb "$mb")
  case $mode in
    one) taskset -c "${cores[0]}" "$build/pst_yardstick" "$kernel" "${size[@]}" --reps "$reps" | tag one "$round" 0 >>"$samples" ;;
    threads) OMP_PLACES=cores OMP_PROC_BIND=close "$build/pst_yardstick" "$kernel" "${size[@]}" --reps "$reps" \
      --threads "$ncores" | tag threads "$round" 0 >>"$samples" ;;
    ranks)
      for c in "${!cores[@]}"; do
        taskset -c "${cores[$c]}" "$build/pst_yardstick" "$kernel" "${size[@]}" --reps "$reps" >"$out/.copy$c" &
        pids+=($!)
      done
      for c in "${!pids[@]}"; do wait "${pids[$c]}"; tag ranks "$round" "$c" <"$out/.copy$c" >>"$samples"; rm -f "$out/.copy$c"; done ;;
  esac
}

bench_context "$build/pstswm" "$out/$bench_name.context.json"
echo "# node ceiling: $ncores cores (${cores[*]}), DGEMM n=$n, STREAM triad $mb MiB/array, $reps reps, $rounds rounds"
for ((k = 1; k <= rounds; k++)); do
  # rotate the order of the modes so none always runs first after the previous round's last
  modes=(one threads ranks)
  modes=("${modes[@]:$((k % 3))}" "${modes[@]:0:$((k % 3))}")
  for kernel in dgemm stream; do
    for mode in "${modes[@]}"; do one_case "$kernel" "$mode" "$stamp-$k"; done
  done
done

bench_py node_ceiling "$out"
