#!/usr/bin/env bash
# Did a change move a timing?  Two pstswm binaries (before, after) in interleaved launch pairs
# (the order alternates per pair) on the hot paths: pingpong 8 B (send mode), swap 1 MiB
# (protocol 0,6), the T42L16 case 2 step on 1 rank and on 1x2, the T85L16 step on 1 rank.  Per launch: that run's own median
# (t_med, step_s).  Per workload: the median over launches of each binary, the after/before ratio
# of those medians with a 95 % bootstrap interval over the pairs, and the range of the per-pair
# ratios.  "no measurable change" when the interval holds 1.
#   bench/ab-binaries.sh [--mpi openmpi|mpich] [--launches N] BEFORE_PSTSWM AFTER_PSTSWM
# --launches: the pairs, 10 by default, at least 6.
# Build the "before" binary from another commit in its own worktree, e.g.
#   git worktree add /tmp/before REV && (cd /tmp/before && scripts/dev/build.sh openmpi)
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
mpi=openmpi launches=10
bench_parse "mpi launches @" "$@"
bench_choice mpi openmpi mpich
bench_positive launches
# Whatever the timings' distribution, n pairs show a direction with at most 1 - 2/2^n confidence
# (the sign test, every pair agreeing): under 95 % for fewer than 6, so no verdict could be reached.
((launches >= 6)) ||
  bench_die "--launches $launches: a verdict needs at least 6 interleaved pairs (fewer cannot reach 95 % confidence)"
((${#bench_args[@]} == 2)) || bench_die "give two binaries: BEFORE_PSTSWM AFTER_PSTSWM (bench/ab-binaries.sh --help)"
before=${bench_args[0]} after=${bench_args[1]}
for b in "$before" "$after"; do [[ -x $b ]] || bench_die "'$b' is not an executable"; done
root=$bench_root
bench_context "$after"
bench_scratch
work=$bench_work

# name|ranks|arguments
workloads=(
  "pingpong_8B|2|pingpong --modes send --sizes 8 --noise-probe 0"
  "swap_1MiB|2|swap --protocols 0,6 --sizes 1M --noise-probe 0"
  "model_T42L16_1x1|1|model --trunc 42 --levels 16 --steps 30 --noise-probe 0"
  "model_T42L16_1x2|2|model --grid 1x2 --trunc 42 --levels 16 --steps 30 --noise-probe 0"
  "model_T85L16_1x1|1|model --trunc 85 --levels 16 --steps 20 --noise-probe 0"
)
for ((i = 1; i <= launches; i++)); do
  order=(before after)
  ((i % 2)) || order=(after before)
  for w in "${workloads[@]}"; do
    IFS='|' read -r name ranks args <<<"$w"
    for side in "${order[@]}"; do
      bin=$before
      [[ $side == after ]] && bin=$after
      # shellcheck disable=SC2086  # args is a word list
      "$root/scripts/pstrun" --mpi "$mpi" -n "$ranks" "$bin" $args --out "$work/$name.$side.$i.jsonl" >/dev/null
    done
  done
done
bench_py ab_binaries "$work" "$mpi" "$launches"
