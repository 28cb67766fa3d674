#!/usr/bin/env bash
# Skeleton mode's copy charge: with PSTSWM_SMPI_COPY_BYTES_PER_S (what scripts/pstrun sets from a
# platform's [node] copy_bytes_per_s) the transposes' packing, unpacking and own-block copies cost
# bytes / rate of simulated time, so a slow rate makes the FFT stage's communication time larger
# than without it, and the added time is inversely proportional to the rate (the same bytes at
# twice the rate cost half); the run header records the rate, null without one.
#   smpi-copy-charge.sh SMPI_PSTSWM PLATFORM
set -euo pipefail
pstswm=$1 platform=$2
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
args=(model --grid 2x2 --trunc 21 --levels 4 --steps 3 --warmup 1 --fftw-plan estimate --compute skeleton --noise-probe 0)
run() { "$here/../scripts/pstrun" --mpi smpi --platform "$platform" --problem T42L16 --host-mflops 1000 -n 4 "$pstswm" "${args[@]}" "$@" >/dev/null; }
(unset PSTSWM_SMPI_COPY_BYTES_PER_S; run --out "$dir/none.jsonl")
for rate in 1e7 2e7; do PSTSWM_SMPI_COPY_BYTES_PER_S=$rate run --out "$dir/$rate.jsonl"; done
python3 - "$dir" <<'PY'
import json, sys
def load(name):
    recs = [json.loads(line) for line in open(f"{sys.argv[1]}/{name}.jsonl")]
    return recs[0], next(r for r in recs if r["type"] == "point")
(h0, p0), (h1, p1), (h2, p2) = load("none"), load("1e7"), load("2e7")
assert h0["copy_bytes_per_s"] is None, h0["copy_bytes_per_s"]
assert h1["copy_bytes_per_s"] == 1e7 and h2["copy_bytes_per_s"] == 2e7, (h1["copy_bytes_per_s"], h2["copy_bytes_per_s"])
base, slow, fast = p0["fft_comm_s"], p1["fft_comm_s"], p2["fft_comm_s"]
assert slow / base > 1.5, f"fft_comm_s {slow:.6g} s with copies at 1e7 B/s, {base:.6g} s without: not charged"
added_slow, added_fast = slow - base, fast - base
assert abs(added_slow / added_fast / 2 - 1) < 0.01, f"charged {added_slow:.6g} s at 1e7 B/s, {added_fast:.6g} s at 2e7 B/s: not bytes / rate"
print(f"smpi copy charge: fft_comm_s {base:.6g} s uncharged, {slow:.6g} s at 1e7 B/s, {fast:.6g} s at 2e7 B/s: ok")
PY
