#!/usr/bin/env bash
# The model under smpirun gives the error norms of the Open MPI build: run both on the same grid
# and compare every error norm and conservation figure of the run record (relative, <= 1e-12).
#   smpi-model-norms.sh GRID OPENMPI_PSTSWM SMPI_PSTSWM PLATFORM
set -euo pipefail
grid=$1 reference=$2 simulated=$3 platform=$4
here=$(cd "$(dirname "$0")" && pwd)
[[ -x $reference ]] || { echo "FAIL: no Open MPI build at $reference (make test builds it first; scripts/dev/build.sh openmpi)"; exit 1; }
n=$(( ${grid%x*} * ${grid#*x} ))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# One BLAS library and one Legendre method for both: --blas and --legendre-kernel auto pick by
# timing at set-up, and a loaded host may pick another for one of the runs, with other round-off
# (the simd method sums in another order than the dgemms).
args=(model --case 2 --trunc 21 --levels 4 --steps 6 --grid "$grid" --fftw-plan estimate --blas openblas
      --legendre-kernel dgemm --noise-probe 0)
"$here/../scripts/pstrun" --mpi openmpi -n "$n" "$reference" "${args[@]}" --out "$dir/openmpi.jsonl" >/dev/null
"$here/../scripts/pstrun" --mpi smpi --platform "$platform" -n "$n" "$simulated" "${args[@]}" --out "$dir/smpi.jsonl" >/dev/null
python3 - "$dir/openmpi.jsonl" "$dir/smpi.jsonl" "$grid" <<'PY'
import json, sys
def load(path):
    recs = [json.loads(line) for line in open(path)]
    return recs[0], next(r for r in recs if r["type"] == "point")
(h_ref, ref), (h_sim, sim) = load(sys.argv[1]), load(sys.argv[2])
assert h_sim["simulated"] is True and h_ref["simulated"] is False, (h_sim["simulated"], h_ref["simulated"])
assert sim["grid"] == ref["grid"] == sys.argv[3] and sim["steps"] == ref["steps"], (sim["grid"], ref["grid"])
keys = sorted(k for k in ref if k.endswith(("_l1", "_l2", "_linf", "_rel")) and isinstance(ref[k], float))
assert len(keys) >= 6, keys
bad = [(k, ref[k], sim[k]) for k in keys if abs(sim[k] - ref[k]) > 1e-12 * max(abs(ref[k]), 1e-300)]
assert not bad, f"norms differ (key, Open MPI, SMPI): {bad}"
print(f"smpi model {sys.argv[3]}: {len(keys)} norms as Open MPI's, e.g. h_l2 {sim['h_l2']:.6e}: ok")
PY
