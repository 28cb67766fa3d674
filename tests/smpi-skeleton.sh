#!/usr/bin/env bash
# The skeleton compute mode against the real one on the same simulated platform: the model at
# T42L16 on GRID, computed (this host's time scaled by its measured rate over the platform's) and
# skeleton (each stage's analytic flops injected at the platform's rate).  Their step times must
# agree within a factor of four (no absolute threshold: the ratio of the two runs), the skeleton's
# header must say compute skeleton and its error norms must be null.  The real mode's time is this
# host's, scaled, so it carries the host's noise and the cost of SMPI running every rank in one
# thread (cold caches between ranks): the band is wide, and tight where the skeleton is exact: on
# one rank every stage injects its flops and nothing else takes time, so its MFlop/s is the
# platform's rate for the problem, and on GRID the stages' time outside communication is that
# serial step's share.
#   smpi-skeleton.sh GRID SMPI_PSTSWM PLATFORM
set -euo pipefail
grid=$1 pstswm=$2 platform=$3
here=$(cd "$(dirname "$0")" && pwd)
n=$(( ${grid%x*} * ${grid#*x} ))
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() { "$here/../scripts/pstrun" --mpi smpi --platform "$platform" "$@" >/dev/null; }
# One Legendre method for every run: auto's choice by timing would change the flops counted.
args=(model --case 2 --trunc 42 --levels 16 --steps 4 --warmup 2 --fftw-plan estimate --blas openblas
      --legendre-kernel dgemm --noise-probe 0)
# This host's rate: one rank at neutral speed, where simulated time is host time.
run -n 1 "$pstswm" "${args[@]}" --out "$dir/host.jsonl"
host_mflops=$(python3 -c 'import json, sys; print(next(r for r in map(json.loads, open(sys.argv[1])) if r["type"] == "point")["mflops"])' "$dir/host.jsonl")
for mode in real skeleton; do
  run --problem T42L16 --host-mflops "$host_mflops" -n "$n" "$pstswm" "${args[@]}" --grid "$grid" --compute "$mode" --out "$dir/$mode.jsonl"
done
run --problem T42L16 --host-mflops "$host_mflops" -n 1 "$pstswm" "${args[@]}" --compute skeleton --out "$dir/serial.jsonl"
python3 - "$dir/real.jsonl" "$dir/skeleton.jsonl" "$grid" "$host_mflops" "$dir/serial.jsonl" "$platform" <<'PY'
import json, sys, tomllib
def load(path):
    recs = [json.loads(line) for line in open(path)]
    return recs[0], next(r for r in recs if r["type"] == "point")
(h_real, real), (h_skel, skel), (_, serial) = load(sys.argv[1]), load(sys.argv[2]), load(sys.argv[5])
rate = tomllib.load(open(sys.argv[6], "rb"))["compute"]["T42L16"]["mflops"]
assert abs(serial["mflops"] / rate - 1) < 1e-3, f"serial skeleton {serial['mflops']:.4f} MFlop/s, the platform's rate {rate}"
# Each rank injects its share: the stages' time outside communication is the serial step over the
# ranks (up to the imbalance of the decomposition and the stage maxima being taken per stage).
ranks = skel["px"] * skel["py"]
compute = sum(skel[f"{s}_s"] for s in ("fft", "legendre", "fourier", "grid", "spectral")) - skel["comm_s"]
share = compute / (serial["step_s"] / ranks)
assert 0.95 <= share <= 1.15, f"skeleton compute {compute:.4g} s per step, serial {serial['step_s']:.4g} s over {ranks} ranks: {share:.3f}"
assert h_real["compute"] == "real" and h_skel["compute"] == "skeleton", (h_real["compute"], h_skel["compute"])
assert real["h_l2"] is not None and skel["h_l2"] is None and skel["error_ref"] is None, (real["h_l2"], skel["h_l2"])
assert skel["grid"] == real["grid"] == sys.argv[3], (skel["grid"], real["grid"])
ratio = skel["step_s"] / real["step_s"]
assert 0.25 <= ratio <= 4.0, f"skeleton step {skel['step_s']:.4g} s against real {real['step_s']:.4g} s: ratio {ratio:.3f}"
print(f"smpi skeleton {sys.argv[3]}: step {skel['step_s'] * 1e3:.1f} ms against real {real['step_s'] * 1e3:.1f} ms "
      f"(host {float(sys.argv[4]):.0f} MFlop/s), ratio {ratio:.3f}; serial skeleton {serial['mflops']:.2f} MFlop/s "
      f"at the platform's {rate}; compute {share:.3f} of the serial step's share: ok")
PY
