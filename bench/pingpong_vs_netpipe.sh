#!/usr/bin/env bash
# Compare our ping-pong figures with NetPIPE on the same MPI, in one session, 2 ranks:
#   - pstswm swap --protocols 1,0 (ordered simple swap; half the per-exchange time = half round
#     trip), cache 1 (one exchange per sample, after a barrier) and 10 (mean of ten back to back);
#   - pstswm pingpong --modes send (half round trip of a timed loop of round trips);
#   - NetPIPE (NPopenmpi / NPmpich2, Debian netpipe-openmpi / netpipe-mpich2), which prints the
#     half round trip too.
# Prints the half round trip at 8 B and 1 MiB, min over LAUNCHES launches of each, and the ratios
# ours / NetPIPE.  Everything starts through scripts/pstrun; extra environment (for example
# OMPI_MCA_btl_vader_single_copy_mechanism=none) applies to all three alike.
#   bench/pingpong_vs_netpipe.sh openmpi|mpich [LAUNCHES]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mpi=${1:?usage: bench/pingpong_vs_netpipe.sh openmpi|mpich [LAUNCHES]} launches=${2:-3}
case $mpi in
  openmpi) np=NPopenmpi ;;
  mpich) np=NPmpich2 ;;
  *) echo "pingpong_vs_netpipe: MPI must be openmpi or mpich (got '$mpi')" >&2; exit 2 ;;
esac
pstswm=$root/build/$mpi/pstswm
[[ -x $pstswm ]] || { echo "pingpong_vs_netpipe: $pstswm missing; build it with scripts/dev/build.sh $mpi" >&2; exit 2; }
command -v "$np" >/dev/null || { echo "pingpong_vs_netpipe: $np missing (apt-get install netpipe-${mpi/mpich/mpich2})" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { "$root/scripts/pstrun" --mpi "$mpi" -n 2 "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }; }

for ((i = 1; i <= launches; i++)); do
  run "$pstswm" swap --protocols 1,0 --sizes 8,1M --cache 1,10 --reps 50 --out "$work/swap.$i.jsonl"
  run "$pstswm" pingpong --modes send --sizes 8,1M --reps 20 --out "$work/pingpong.$i.jsonl"
  # NetPIPE sizes its repetition counts from the sweep, so run it 8 B ... 1 MiB and pick the two
  # sizes; np.out columns: bytes, Mbit/s, half round trip (s).
  (cd "$work" && run "$np" -l 8 -u 1048576 -o "np.$i.out")
done

python3 - "$work" "$mpi" "$launches" <<'PY'
import glob, json, os, sys

work, mpi, launches = sys.argv[1], sys.argv[2], int(sys.argv[3])
best = {}  # (method, bytes) -> min half round trip over launches, seconds

def keep(method, nbytes, t):
    best[method, nbytes] = min(t, best.get((method, nbytes), float("inf")))

for f in glob.glob(os.path.join(work, "swap.*.jsonl")):
    for r in map(json.loads, open(f)):
        if r["type"] == "point":
            keep(f"swap 1,0 cache {r['cache']}", r["bytes"], r["t_min"] / 2)
for f in glob.glob(os.path.join(work, "pingpong.*.jsonl")):
    for r in map(json.loads, open(f)):
        if r["type"] == "point" and r["bytes"] > 0:
            keep("pingpong send", r["bytes"], r["t_min"])
for f in glob.glob(os.path.join(work, "np.*.out")):
    for line in open(f):
        nbytes, mbps, _half_rtt = line.split()
        if int(nbytes) not in (8, 1048576):
            continue
        # The rate column has 6 decimals where the time column has 10 ns steps: derive t from it.
        keep("NetPIPE", int(nbytes), int(nbytes) * 8 / (float(mbps) * 1e6))

methods = ["swap 1,0 cache 1", "swap 1,0 cache 10", "pingpong send", "NetPIPE"]
print(f"half round trip, 2 ranks, {mpi}, min over {launches} launches (us); ratio = ours / NetPIPE")
short = ["swap c1", "swap c10", "pingpong"]
print(f"  {'':8}" + "".join(f"{m:>19}" for m in methods) + "".join(f"{'ratio ' + s:>16}" for s in short))
for nbytes, label in [(8, "8 B"), (1048576, "1 MiB")]:
    ref = best.get(("NetPIPE", nbytes))
    cells = "".join(f"{best.get((m, nbytes), float('nan')) * 1e6:19.3f}" for m in methods)
    ratios = "".join(f"{best.get((m, nbytes), float('nan')) / ref:16.2f}" for m in methods[:3])
    print(f"  {label:8}{cells}{ratios}")
PY
