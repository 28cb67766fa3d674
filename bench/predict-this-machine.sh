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
#   bench/predict-this-machine.sh [--out DIR] [--launches N] [--steps N] [--rounds N]
#
# --out: default results/predict-this-machine-DATE; --launches: measured launches (default 5);
# --steps: model steps per launch (default 20); --rounds: rounds of the serial calibration runs
# (default 3).  Needs
# build/openmpi and build/smpi (scripts/dev/build.sh openmpi|smpi) and the .venv of scripts/dev/setup.sh.
# On a shared host the measured side carries the host's noise: read the spread beside the error.
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
root=$bench_root out='' launches=5 steps=20 rounds=3
bench_parse "out launches steps rounds" "$@"
bench_positive launches steps rounds
out=${out:-$root/results/predict-this-machine-$(date +%Y%m%d-%H%M%S)}
problems=("42 16" "85 16")
[[ ! -e $out ]] || bench_die "$out exists: give another --out"
bench_need_build "$root/build/openmpi" pstswm
bench_need_build "$root/build/smpi" pstswm
mkdir -p "$out"
bench_context "$root/build/openmpi/pstswm" "$out/$bench_name.context.json"

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
bench_pstlab run "$suite" --mpi openmpi --launches "$launches" --out "$out/measured" >"$out/measured.log"
echo "== 4. predicted: the SMPI build on the calibrated platform"
bench_pstlab predict --platform "$out/this-machine.toml" "$suite" --out "$out/predicted" >"$out/predicted.log"
bench_pstlab predict --platform "$out/this-machine.toml" "$skeleton_suite" --out "$out/predicted-skeleton" \
  >"$out/predicted-skeleton.log"

echo "== 5. predicted against measured"
bench_py predict_this_machine "$out/measured" "$out/predicted" "$out/predicted-skeleton"
echo "records: $out"
