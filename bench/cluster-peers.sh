#!/usr/bin/env bash
# pstswm pingpong against NetPIPE (Debian's netpipe-openmpi / netpipe-mpich2) on the emulated
# cluster (scripts/cluster up): across the two nodes (srun -N 2) and inside one (srun -N 1),
# interleaved launch by launch. Prints the half round trip at 8 B and 1 MiB, the minimum over
# LAUNCHES launches, the bandwidth at 1 MiB, and the ratios pstswm / NetPIPE and across / inside.
# The emulated network is the kernel's TCP over veth on one machine: the figures test the path,
# not a network (docs/cluster.md).
#   bench/cluster-peers.sh openmpi|mpich [LAUNCHES]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mpi=${1:?usage: bench/cluster-peers.sh openmpi|mpich [LAUNCHES]} launches=${2:-3}
case $mpi in
  openmpi) np=NPopenmpi ;;
  mpich) np=NPmpich2 ;;
  *) echo "cluster-peers: MPI must be openmpi or mpich (got '$mpi')" >&2; exit 2 ;;
esac
pstswm=$root/build/$mpi/pstswm
[[ -x $pstswm ]] || { echo "cluster-peers: $pstswm missing; build it with scripts/dev/build.sh $mpi" >&2; exit 2; }
command -v "$np" >/dev/null || { echo "cluster-peers: $np missing (scripts/dev/setup.sh $mpi)" >&2; exit 2; }
"$root/scripts/cluster" up >/dev/null
eval "$("$root/scripts/cluster" env)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { # run PLACEMENT NODES PROGRAM ARGS...
  local nodes=$2
  shift 2
  (cd "$work" && "$root/scripts/pstrun" --mpi "$mpi" --launcher "srun -N $nodes -n {n}" -n 2 "$@" >/dev/null 2>"$work/stderr") \
    || { cat "$work/stderr" >&2; exit 1; }
}
for ((i = 1; i <= launches; i++)); do
  for placement in across:2 inside:1; do
    name=${placement%:*} nodes=${placement#*:}
    run "$name" "$nodes" "$pstswm" pingpong --modes send --sizes 8,1M --reps 20 --out "$work/pingpong.$name.$i.jsonl"
    run "$name" "$nodes" "$np" -l 8 -u 1048576 -o "np.$name.$i.out"
  done
done

python3 - "$work" "$mpi" "$launches" <<'PY'
import glob, json, os, sys

work, mpi, launches = sys.argv[1], sys.argv[2], int(sys.argv[3])
best = {}  # (tool, placement, bytes) -> min half round trip, s

def keep(key, t):
    best[key] = min(t, best.get(key, float("inf")))

for f in glob.glob(os.path.join(work, "pingpong.*.jsonl")):
    placement = f.split(".")[-3]
    recs = [json.loads(line) for line in open(f)]
    assert recs[0]["locality"]["path"]["shared_memory"] in (False, None), f"{f}: shared memory between nodes"
    for r in recs:
        if r["type"] == "point" and r["bytes"] > 0:
            keep(("pstswm", placement, r["bytes"]), r["t_min"])
for f in glob.glob(os.path.join(work, "np.*.out")):
    placement = f.split(".")[-3]
    for line in open(f):
        nbytes, mbps, _ = line.split()
        if int(nbytes) in (8, 1048576):  # the rate column is finer than the time column
            keep(("NetPIPE", placement, int(nbytes)), int(nbytes) * 8 / (float(mbps) * 1e6))

print(f"{mpi}, 2 ranks, half round trip (min over {launches} launches), emulated nodes on one machine")
print(f"{'':10} {'':8} {'8 B us':>9} {'1 MiB us':>10} {'1 MiB MB/s':>11}")
for tool in ("pstswm", "NetPIPE"):
    for placement in ("across", "inside"):
        t8, t1m = best[tool, placement, 8], best[tool, placement, 1048576]
        print(f"{tool:10} {placement:8} {t8 * 1e6:9.2f} {t1m * 1e6:10.1f} {1048576 / t1m / 1e6:11.0f}")
for placement in ("across", "inside"):
    r8 = best["pstswm", placement, 8] / best["NetPIPE", placement, 8]
    r1 = best["pstswm", placement, 1048576] / best["NetPIPE", placement, 1048576]
    print(f"pstswm / NetPIPE {placement}: {r8:.2f} at 8 B, {r1:.2f} at 1 MiB")
for tool in ("pstswm", "NetPIPE"):
    r8 = best[tool, "across", 8] / best[tool, "inside", 8]
    r1 = best[tool, "across", 1048576] / best[tool, "inside", 1048576]
    print(f"{tool} across / inside a node: {r8:.2f} at 8 B, {r1:.2f} at 1 MiB")
PY
