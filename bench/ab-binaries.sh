#!/usr/bin/env bash
# Did a change move a timing?  Two pstswm binaries (before, after) in interleaved launch pairs
# (the order alternates per pair) on the hot paths: pingpong 8 B (send mode), swap 1 MiB
# (protocol 0,6), the T42L16 case 2 step on 1 rank and on 1x2, the T85L16 step on 1 rank.  Per launch: that run's own median
# (t_med, step_s).  Per workload: the median over launches of each binary, the after/before ratio
# of those medians with a 95 % bootstrap interval over the pairs, and the range of the per-pair
# ratios.  "no measurable change" when the interval holds 1.
#   bench/ab-binaries.sh [--mpi openmpi|mpich] [--launches N] BEFORE_PSTSWM AFTER_PSTSWM
# Build the "before" binary from another commit in its own worktree, e.g.
#   git worktree add /tmp/before REV && (cd /tmp/before && scripts/dev/build.sh openmpi)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mpi=openmpi launches=10
while (($#)); do
  case "$1" in
    --mpi) mpi=$2; shift 2 ;;
    --launches) launches=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
(($# == 2)) || { echo "usage: bench/ab-binaries.sh [--mpi M] [--launches N] BEFORE_PSTSWM AFTER_PSTSWM" >&2; exit 2; }
before=$1 after=$2
for b in "$before" "$after"; do [[ -x $b ]] || { echo "ab-binaries: '$b' is not an executable" >&2; exit 2; }; done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

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
python3 - "$work" "$mpi" "$launches" <<'PY'
import glob, json, os, random, statistics, sys
work, mpi, launches = sys.argv[1], sys.argv[2], int(sys.argv[3])

def launch_time(path):
    for rec in map(json.loads, open(path)):
        if rec.get("type") != "point":
            continue
        if rec.get("bench") == "model":
            return rec["step_s"]
        if rec.get("bench") == "pingpong" and rec["bytes"] == 8:
            return rec["t_med"]
        if rec.get("bench") == "swap":
            return rec["t_med"]
    raise SystemExit(f"ab-binaries: no timed point in {path}")

names = sorted({os.path.basename(p).split(".")[0] for p in glob.glob(os.path.join(work, "*.jsonl"))})
rng = random.Random(1)
print(f"{mpi}, {launches} interleaved launch pairs; per launch its own median; ratio = after/before")
print(f"{'workload':18} {'before':>11} {'after':>11} {'ratio':>7} {'95% interval':>17} {'pair ratios':>15}  verdict")
for name in names:
    b = [launch_time(os.path.join(work, f"{name}.before.{i}.jsonl")) for i in range(1, launches + 1)]
    a = [launch_time(os.path.join(work, f"{name}.after.{i}.jsonl")) for i in range(1, launches + 1)]
    ratio = statistics.median(a) / statistics.median(b)
    boot = []
    for _ in range(2000):
        idx = [rng.randrange(launches) for _ in range(launches)]
        boot.append(statistics.median(a[i] for i in idx) / statistics.median(b[i] for i in idx))
    boot.sort()
    lo, hi = boot[int(0.025 * len(boot))], boot[int(0.975 * len(boot)) - 1]
    pairs = [x / y for x, y in zip(a, b)]
    verdict = "no measurable change" if lo <= 1 <= hi else ("faster" if hi < 1 else "slower")
    print(f"{name:18} {statistics.median(b) * 1e6:9.2f}us {statistics.median(a) * 1e6:9.2f}us {ratio:7.3f} "
          f"[{lo:6.3f}, {hi:6.3f}] {min(pairs):6.2f}-{max(pairs):<6.2f}  {verdict}")
PY
