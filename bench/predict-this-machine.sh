#!/usr/bin/env bash
# "This machine": how well does pstswm on a simulated copy of this host predict pstswm on this
# host?  (docs/predict.md, validation.)  Calibrates a platform of this node (scripts/calibrate-node.sh:
# ping-pong, swaps of every pair at once, the kernel, serial model runs of each problem at its levels,
# half and a quarter of them, one per core at once), then compares, for T42L16 and T85L16 at 1x2 and 2x1, the
# step time and each stage's communication time (fft_comm_s, legendre_comm_s of the model's
# records), and the kernel stages at 2 ranks (srtrans FFT, halfsum Legendre, protocol 0,6):
# predicted on the calibrated platform twice, in the real compute mode (this host's time between
# MPI calls, scaled: one run, carrying the host's noise of that moment) and in skeleton mode (each
# stage's analytic flops at the calibrated rate for that stage: deterministic), against measured
# (the Open MPI build, the median of LAUNCHES interleaved launches).  Prints every row and each
# mode's median absolute error (target: at most 15 %).
#
#   bench/predict-this-machine.sh [OUT]
#
# OUT: default results/predict-this-machine-DATE.
# Environment: LAUNCHES (default 5), STEPS (model steps per launch, default 20), ROUNDS (rounds
# of the serial calibration runs, default 3).  Needs
# build/openmpi and build/smpi (scripts/dev/build.sh openmpi|smpi) and the .venv of scripts/dev/setup.sh.
# On a shared host the measured side carries the host's noise: read the spread beside the error.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$root/results/predict-this-machine-$(date +%Y%m%d-%H%M%S)}
launches=${LAUNCHES:-5} steps=${STEPS:-20} rounds=${ROUNDS:-3}
pstlab=("$root/.venv/bin/python" -m pstlab)
problems=("42 16" "85 16")
[[ ! -e $out ]] || { echo "predict-this-machine: $out exists: give another OUT" >&2; exit 2; }
mkdir -p "$out"

echo "== 1. calibrate a platform of this host"
# Exit 3 means a calibration target was missed (docs/predict.md): the validation still says how
# far the platform is from the host.
"$root/scripts/calibrate-node.sh" --problems "42:16 85:16" --rounds "$rounds" --steps "$steps" "$out/calibration" ||
  [[ $? == 3 ]]
cp "$out/calibration/node.toml" "$out/this-machine.toml"
echo "platform: $out/this-machine.toml  sha256 $(sha256sum <"$out/this-machine.toml" | cut -d' ' -f1)"

echo "== 2. the experiments: the model at 1x2 and 2x1, the kernel stages at 2 ranks"
# The suite, in a compute mode: real (the default) or skeleton (the prediction's stages injected
# at the calibrated per-stage rates).
write_suite() { # MODE FILE
  local compute="" trunc levels grid
  [[ $1 == real ]] || compute=", \"--compute\", \"$1\""
  {
    echo "description = \"bench/predict-this-machine.sh: measured here and predicted on the calibrated platform ($1)\""
    for problem in "${problems[@]}"; do
      read -r trunc levels <<<"$problem"
      for grid in 1x2 2x1; do
        printf '\n[[experiment]]\nname = "model-T%sL%s-%s"\nsubcommand = "model"\nranks = 2\n' "$trunc" "$levels" "$grid"
        printf 'args = ["--trunc", "%s", "--levels", "%s", "--steps", "%s", "--grid", "%s", "--legendre-kernel", "dgemm"%s]\n' \
          "$trunc" "$levels" "$steps" "$grid" "$compute"
        printf 'estimate_s = 5\ntimeout_s = 600\n'
      done
    done
    printf '\n[[experiment]]\nname = "kernel-2"\nsubcommand = "kernel"\nranks = 2\n'
    printf 'args = ["--trunc", "42", "--levels", "16", "--grid", "1d", "--algorithms", "srtrans,halfsum", '
    printf '"--protocols", "0,6", "--reps", "10"%s]\nestimate_s = 10\ntimeout_s = 600\n' "$compute"
  } >"$2"
}
suite=$out/this-machine-validation.toml skeleton_suite=$out/this-machine-validation-skeleton.toml
write_suite real "$suite"
write_suite skeleton "$skeleton_suite"

echo "== 3. measured: $launches interleaved launches of the Open MPI build"
"${pstlab[@]}" run "$suite" --mpi openmpi --launches "$launches" --out "$out/measured" >"$out/measured.log"
echo "== 4. predicted: the SMPI build on the calibrated platform"
"${pstlab[@]}" predict --platform "$out/this-machine.toml" "$suite" --out "$out/predicted" >"$out/predicted.log"
"${pstlab[@]}" predict --platform "$out/this-machine.toml" "$skeleton_suite" --out "$out/predicted-skeleton" \
  >"$out/predicted-skeleton.log"

echo "== 5. predicted against measured"
"$root/.venv/bin/python" - "$out/measured" "$out/predicted" "$out/predicted-skeleton" <<'EOF'
import statistics
import sys

from pstlab.io import records

TARGET = 0.15


def figures(directory):
    """{(what, quantity): [seconds per launch]} of a results directory."""
    out = {}
    for p in records.load(directory).points("model"):
        if p.get("step_s") is None:
            continue  # per-step diagnostics
        what = f"T{p['trunc']}L{p['levels']} {p['grid']}"
        for quantity in ("step_s", "fft_comm_s", "legendre_comm_s"):
            out.setdefault((what, quantity), []).append(p[quantity])
    for p in records.load(directory).points("kernel"):
        schedule = " +ov" if p.get("overlap") else ""
        out.setdefault((f"kernel {p['algorithm']} 2 ranks", f"{p['stage']} stage{schedule}"), []).append(p["t_med"])
    return out


measured = figures(sys.argv[1])
modes = {"real": figures(sys.argv[2]), "skeleton": figures(sys.argv[3])}
print(f"{'experiment':<26} {'quantity':<16} {'measured ms':>12} {'spread':>7} {'fastest ms':>11}"
      + "".join(f" {mode + ' ms':>12} {'error':>7} {'vs fast':>7}" for mode in modes))
errors = {mode: ([], []) for mode in modes}  # against the median launch, against the fastest
for key in sorted(measured):
    runs = measured[key]
    median, fastest = statistics.median(runs), min(runs)
    spread = (max(runs) - min(runs)) / median if median else 0.0
    line = f"{key[0]:<26} {key[1]:<16} {median * 1e3:12.4f} {spread:7.0%} {fastest * 1e3:11.4f}"
    for mode, predicted in modes.items():
        guess = statistics.median(predicted[key]) if key in predicted else None
        error = error_fastest = ""
        if guess is None:
            error = "none"
        elif median == 0:
            error = "no comm" if guess == 0 else "comm?"
        else:
            errors[mode][0].append(abs(guess - median) / median)
            error = f"{(guess - median) / median:+.0%}"
            if fastest > 0:
                errors[mode][1].append(abs(guess - fastest) / fastest)
                error_fastest = f"{(guess - fastest) / fastest:+.0%}"
        shown = f"{guess * 1e3:12.4f}" if guess is not None else f"{'–':>12}"
        line += f" {shown} {error:>7} {error_fastest:>7}"
    print(line)
print("\nspread: (max - min) / median of the measured launches; vs fast: against the fastest launch (a host")
print("without interference, which is what SMPI simulates)")
for mode, (against_median, against_fastest) in errors.items():
    if against_median:
        med = statistics.median(against_median)
        verdict = "met" if med <= TARGET else "missed"
        print(f"{mode:>8}: median absolute error {med:.1%} over {len(against_median)} rows (target <= {TARGET:.0%}: "
              f"{verdict}); against the fastest launch {statistics.median(against_fastest):.1%}")
EOF
echo "records: $out"
