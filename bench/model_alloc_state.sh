#!/usr/bin/env bash
# Does the allocator's state move a whole application, not just one collective?  pstswm model
# with the coll preset (MPI_Alltoallv transposes, MPI_Allreduce sums) and the kernel's
# collectives, 2 ranks, under glibc's default, MALLOC_MMAP_THRESHOLD_=131072 (every large
# temporary mapped afresh, as coll --alloc-state fresh) and =33554432 (served from the heap, as
# warm), in interleaved launches with the order of the three shuffled per launch.  Prints the
# median over launches of the model's median step and of each kernel collective's median.
#   bench/model_alloc_state.sh openmpi|mpich [LAUNCHES]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mpi=${1:?usage: bench/model_alloc_state.sh openmpi|mpich [LAUNCHES]} launches=${2:-5}
pstswm=$root/build/$mpi/pstswm
[[ -x $pstswm ]] || { echo "model_alloc_state: $pstswm missing; build it with scripts/dev/build.sh $mpi" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for ((i = 1; i <= launches; i++)); do
  for v in $(printf '%s\n' default 131072 33554432 | shuf); do
    env=()
    [[ $v != default ]] && env=(env MALLOC_MMAP_THRESHOLD_=$v)
    "${env[@]}" "$root/scripts/pstrun" --mpi "$mpi" -n 2 "$pstswm" model --case 2 --trunc 85 --levels 8 --steps 20 \
      --grid 1x2 --preset coll --noise-probe 0 --out "$work/model.$v.$i.jsonl" >/dev/null
    "${env[@]}" "$root/scripts/pstrun" --mpi "$mpi" -n 2 "$pstswm" kernel --trunc 85 --levels 8 --algorithms coll \
      --reps 20 --noise-probe 0 --out "$work/kernel.$v.$i.jsonl" >/dev/null
  done
done
python3 - "$work" "$mpi" "$launches" <<'PY'
import glob, json, os, statistics, sys
work, mpi, launches = sys.argv[1], sys.argv[2], int(sys.argv[3])
cells = {}
for path in glob.glob(os.path.join(work, "*.jsonl")):
    kind, variant = os.path.basename(path).split(".")[:2]
    for rec in map(json.loads, open(path)):
        if rec.get("type") != "point":
            continue
        if kind == "model" and "step_s" in rec:
            cells.setdefault(("model coll preset T85L8 1x2 step", variant), []).append(rec["step_s"])
        elif kind == "kernel":
            cells.setdefault((f"kernel {rec['algorithm']} ({rec['stage']}, {rec['grid']})", variant), []).append(rec["t_med"])
print(f"{mpi}, 2 ranks, {launches} interleaved launches: median over launches [min, max] in ms; "
      "MALLOC_MMAP_THRESHOLD_ default / 131072 (fresh-like) / 33554432 (warm-like)")
for what in sorted({w for w, _ in cells}):
    row = []
    base = statistics.median(cells[(what, "default")])
    for v in ("default", "131072", "33554432"):
        t = cells[(what, v)]
        row.append(f"{v:>8} {statistics.median(t)*1e3:8.3f} [{min(t)*1e3:.3f}, {max(t)*1e3:.3f}] x{statistics.median(t)/base:.2f}")
    print(f"  {what:<40} " + "  ".join(row))
PY
