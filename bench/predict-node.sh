#!/usr/bin/env bash
# Predict a node's model runs from its own calibration records, and compare with the runs
# (docs/predict.md, "Calibrate a node").
#   bench/predict-node.sh --records DIR [--out DIR]
# --records: pstswm records of one node, the suite docs/predict.md gives (ping-pong, swaps, kernel,
# serial model runs) and model runs on more ranks (the held-out truth; calibrate never sees
# them).  Calibrates a platform from the rest (`pstlab calibrate`), predicts every multi-rank
# model run in skeleton mode with its own command line, and prints per grid the measured step
# (median of its launches) and spread, the prediction and its error, the FFT and Legendre
# communication times beside their predictions, the speed-ups, and the median absolute step
# error (target 15 %); speedup.png in --out draws measured against predicted speed-up.
# --out: default results/predict-node-DATE.  Needs build/smpi (scripts/dev/build.sh smpi) and the
# .venv of scripts/dev/setup.sh.  Simulation is deterministic: the same records give the same table.
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
root=$bench_root records='' out=''
bench_parse "records out" "$@"
[[ -n $records ]] || bench_die "give --records DIR (bench/predict-node.sh --help)"
out=${out:-$root/results/predict-node-$(date +%Y%m%d-%H%M%S)}
[[ -d $records ]] || bench_die "$records is not a directory of records"
[[ ! -e $out ]] || bench_die "$out exists: give another --out"
[[ -f $root/build/smpi/pstswm ]] || bench_die "build/smpi/pstswm not built (scripts/dev/build.sh smpi)"
mkdir -p "$out"
bench_context "" "$out/$bench_name.context.json"
bench_py predict_node "$records" "$out" | tee "$out/table.txt"
