#!/usr/bin/env bash
# Skeleton mode at a platform's per-stage rates ([compute.T42L16] fft_mflops, legendre_mflops):
# on one rank each stage's analytic flops over its simulated time is the stage's rate where the
# platform gives one, the problem's rate elsewhere, and the run header records them; a malformed
# PSTSWM_SMPI_STAGE_MFLOPS (what scripts/pstrun writes from the file) exits 2 naming it.
#   smpi-stage-rates.sh SMPI_PSTSWM PLATFORM
set -euo pipefail
pstswm=$1 platform=$2
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# The platform's T42L16 rate, with the FFTs twice as fast and the Legendre sums half as fast.
rate=$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["compute"]["T42L16"]["mflops"])' "$platform")
fft=$(python3 -c "print(2 * $rate)") legendre=$(python3 -c "print($rate / 2)")
sed "/^\[compute.T42L16\]/a fft_mflops = $fft\nlegendre_mflops = $legendre" "$platform" >"$dir/staged.toml"
args=(model --case 2 --trunc 42 --levels 16 --steps 4 --warmup 2 --fftw-plan estimate --compute skeleton --noise-probe 0)
"$here/../scripts/pstrun" --mpi smpi --platform "$dir/staged.toml" --problem T42L16 --host-mflops 1000 -n 1 "$pstswm" \
  "${args[@]}" --out "$dir/run.jsonl" >/dev/null
python3 - "$dir/run.jsonl" "$rate" "$fft" "$legendre" <<'PY'
import json, sys
recs = [json.loads(line) for line in open(sys.argv[1])]
header, point = recs[0], next(r for r in recs if r["type"] == "point")
rate, fft, legendre = map(float, sys.argv[2:])
want = {"fft": fft, "legendre": legendre, "fourier": rate, "grid": rate, "spectral": rate}
assert header["stage_mflops"] == {"fft": fft, "legendre": legendre, "fourier": None, "grid": None, "spectral": None}, header["stage_mflops"]
for stage, mflops in want.items():
    got = point[f"{stage}_flops"] / point[f"{stage}_s"] / 1e6
    assert abs(got / mflops - 1) < 1e-3, f"{stage}: {got:.4f} MFlop/s simulated, the platform's {mflops}"
print("smpi stage rates: " + ", ".join(f"{s} {m:g}" for s, m in want.items()) + " MFlop/s: ok")
PY
# What pstrun hands the run, broken by hand: every simulated rank refuses it before its first step.
PYTHONPATH="$here/../python" python3 -m pstlab platform "$dir/staged.toml" "$dir/plat" --problem T42L16 --host-mflops 1000 \
  >"$dir/cfg"
cfg=(); while read -r c; do cfg+=("--cfg=$c"); done <"$dir/cfg"
set +e
PSTSWM_SMPI_STAGE_MFLOPS="fft=2 fft=3" timeout 60 smpirun -np 1 -platform "$dir/plat/platform.xml" -hostfile "$dir/plat/hostfile" \
  "${cfg[@]}" --log=root.thres:critical "$pstswm" "${args[@]}" --out "$dir/bad.jsonl" >/dev/null 2>"$dir/bad.err"
rc=$?
set -e
[[ $rc == 2 ]] || { echo "FAIL: a stage named twice exited $rc, not 2"; cat "$dir/bad.err"; exit 1; }
grep -q "PSTSWM_SMPI_STAGE_MFLOPS='fft=2 fft=3': expected STAGE=MFLOPS items" "$dir/bad.err" ||
  { echo "FAIL: no message naming PSTSWM_SMPI_STAGE_MFLOPS"; cat "$dir/bad.err"; exit 1; }
echo "smpi stage rates refused: ok"
