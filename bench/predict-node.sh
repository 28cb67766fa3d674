#!/usr/bin/env bash
# Predict a node's model runs from its own calibration records, and compare with the runs
# (docs/predict.md, "Calibrate a node").
#   bench/predict-node.sh RECORDS [OUT]
# RECORDS: pstswm records of one node, the suite docs/predict.md gives (ping-pong, swaps, kernel,
# serial model runs) and model runs on more ranks (the held-out truth; calibrate never sees
# them).  Calibrates a platform from the rest (`pstlab calibrate`), predicts every multi-rank
# model run in skeleton mode with its own command line, and prints per grid the measured step
# (median of its launches) and spread, the prediction and its error, the FFT and Legendre
# communication times beside their predictions, the speed-ups, and the median absolute step
# error (target 15 %); OUT/speedup.png draws measured against predicted speed-up.
# OUT: default results/predict-node-DATE.  Needs build/smpi (scripts/dev/build.sh smpi) and the
# .venv of scripts/dev/setup.sh.  Simulation is deterministic: the same records give the same table.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
(($#)) || { echo "usage: bench/predict-node.sh RECORDS [OUT]" >&2; exit 2; }
records=$1
out=${2:-$root/results/predict-node-$(date +%Y%m%d-%H%M%S)}
[[ -d $records ]] || { echo "predict-node: $records is not a directory of records" >&2; exit 2; }
[[ ! -e $out ]] || { echo "predict-node: $out exists: give another OUT" >&2; exit 2; }
[[ -f $root/build/smpi/pstswm ]] || { echo "predict-node: build/smpi/pstswm not built (scripts/dev/build.sh smpi)" >&2; exit 2; }
mkdir -p "$out"
PYTHONPATH=$root/python "$root/.venv/bin/python" "$root/bench/predict_node.py" "$records" "$out" | tee "$out/table.txt"
