#!/usr/bin/env bash
# pstswm's ping-pong against the smallest honest ping-pong (bench/minimal/pingpong_minimal.c, built
# here with the same mpicc), 2 ranks, in interleaved launches: per launch the best half round trip
# of each (pstswm pingpong --modes send: t_min; minimal: best of 20 loops), then the best launch of
# each and the ratio pstswm / minimal at 8 B and 1 MiB.  The target is <= 1.03: a benchmark adds
# nothing to what it measures.  A third column runs the minimal ping-pong at --thread-level
# LEVEL (default funneled) to show what asking the library for thread support costs.
#   bench/pingpong_minimal.sh openmpi|mpich [LAUNCHES] [LEVEL]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/lib/mpi-env.sh
mpi=${1:?usage: bench/pingpong_minimal.sh openmpi|mpich [LAUNCHES] [LEVEL]} launches=${2:-10} level=${3:-funneled}
pstswm=$root/build/$mpi/pstswm
[[ -x $pstswm ]] || { echo "pingpong_minimal: $pstswm missing; build it with scripts/dev/build.sh $mpi" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$(mpi_cc "$mpi")" -O2 -o "$work/minimal" bench/minimal/pingpong_minimal.c
run() { "$root/scripts/pstrun" --mpi "$mpi" -n 2 "$@" 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }; }

for ((i = 1; i <= launches; i++)); do
  for bytes in 8 1048576; do
    iters=$((bytes > 8 ? 200 : 4000))
    run "$pstswm" pingpong --modes send --sizes "$bytes" --iters "$iters" --reps 20 \
      --out "$work/pstswm.$bytes.$i.jsonl" >/dev/null
    run "$work/minimal" "$bytes" "$iters" >"$work/minimal.$bytes.$i"
    run "$work/minimal" "$bytes" "$iters" "$level" >"$work/level.$bytes.$i"
  done
done

python3 - "$work" "$launches" "$level" <<'PY'
import glob, json, os, statistics, sys
work, launches, level = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for nbytes in (8, 1048576):
    ours = [min(r["t_min"] for r in map(json.loads, open(f)) if r.get("type") == "point" and r["bytes"] == nbytes)
            for f in glob.glob(os.path.join(work, f"pstswm.{nbytes}.*.jsonl"))]
    mini = [float(open(f).read()) for f in glob.glob(os.path.join(work, f"minimal.{nbytes}.*"))]
    lev = [float(open(f).read()) for f in glob.glob(os.path.join(work, f"level.{nbytes}.*"))]
    print(f"{nbytes:>8} B  half round trip, best of {launches} launches (median of launches):"
          f"  pstswm {min(ours)*1e6:.3f} us ({statistics.median(ours)*1e6:.3f})"
          f"  minimal {min(mini)*1e6:.3f} us ({statistics.median(mini)*1e6:.3f})"
          f"  minimal at {level} {min(lev)*1e6:.3f} us ({statistics.median(lev)*1e6:.3f})")
    print(f"{'':>8}    ratio pstswm / minimal: best {min(ours)/min(mini):.3f}, median {statistics.median(ours)/statistics.median(mini):.3f};"
          f"  {level} / single: best {min(lev)/min(mini):.3f}, median {statistics.median(lev)/statistics.median(mini):.3f}")
PY
