#!/usr/bin/env bash
# How much the allocator's state moves a large reduction: pstswm coll at --alloc-state default,
# warm and fresh, and default under MALLOC_MMAP_THRESHOLD_=131072 (glibc maps every large
# temporary buffer afresh), for one MPI, 2 ranks, in interleaved launches (the order of the four
# variants shuffled per launch).  Per launch: the median over rounds of one call; the table gives
# the median over launches with its range and each variant's ratio to warm.
#   bench/coll_alloc_state.sh openmpi|mpich [LAUNCHES] [OPS] [SIZES]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mpi=${1:?usage: bench/coll_alloc_state.sh openmpi|mpich [LAUNCHES] [OPS] [SIZES]} launches=${2:-5}
ops=${3:-allreduce,reduce,alltoallv} sizes=${4:-64K,1M}
pstswm=$root/build/$mpi/pstswm
[[ -x $pstswm ]] || { echo "coll_alloc_state: $pstswm missing; build it with scripts/dev/build.sh $mpi" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
variants=(default warm fresh mmap128K)
for ((i = 1; i <= launches; i++)); do
  for v in $(printf '%s\n' "${variants[@]}" | shuf); do
    state=$v env=()
    [[ $v == mmap128K ]] && state=default env=(env MALLOC_MMAP_THRESHOLD_=131072)
    "${env[@]}" "$root/scripts/pstrun" --mpi "$mpi" -n 2 "$pstswm" coll --ops "$ops" --sizes "$sizes" \
      --alloc-state "$state" --reps 20 --noise-probe 0 --out "$work/$v.$i.jsonl" >/dev/null
  done
done
python3 - "$work" "$mpi" "$launches" <<'PY'
import glob, json, os, statistics, sys
work, mpi, launches = sys.argv[1], sys.argv[2], int(sys.argv[3])
times = {}
for path in glob.glob(os.path.join(work, "*.jsonl")):
    variant = os.path.basename(path).split(".")[0]
    for rec in map(json.loads, open(path)):
        if rec.get("type") == "point":
            times.setdefault((rec["op"], rec["bytes"], variant), []).append(rec["t_med"])
print(f"{mpi}, 2 ranks, {launches} interleaved launches: median over launches of each launch's median "
      "call time [min, max], and its ratio to warm")
for op, nbytes in sorted({(o, b) for o, b, _ in times}):
    warm = statistics.median(times[(op, nbytes, "warm")])
    cells = []
    for v in ("default", "warm", "fresh", "mmap128K"):
        t = times[(op, nbytes, v)]
        cells.append(f"{v} {statistics.median(t)*1e6:8.1f} us [{min(t)*1e6:.0f}, {max(t)*1e6:.0f}] "
                     f"x{statistics.median(t)/warm:.2f}")
    print(f"  {op:<10} {nbytes:>8} B  " + "  ".join(cells))
PY
