#!/usr/bin/env bash
# Run `pstswm model` with --out and check the run record: every model field of the record format (README) present,
# case 2 errors at round-off, and --write-fields produced a NetCDF file.
#   model-record.sh PSTRUN... -- PSTSWM
set -euo pipefail
launcher=()
while [[ $1 != -- ]]; do launcher+=("$1"); shift; done
shift
pstswm=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"${launcher[@]}" -n 1 "$pstswm" model --case 2 --alpha pi/4 --trunc 21 --levels 4 --days 1 --diag-every 12 \
  --fftw-plan estimate --out "$dir/m.jsonl" --write-fields "$dir/f.nc" >"$dir/stdout"
python3 - "$dir/m.jsonl" "$dir/f.nc" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
kinds = [r["type"] for r in recs]
assert kinds[0] == "header" and kinds.count("point") == 1 and kinds.count("diag") >= 1, kinds
run = next(r for r in recs if r["type"] == "point")
need = ["case", "trunc", "levels", "grid", "fft", "legendre", "fft_protocol", "legendre_protocol", "transport",
        "fft_comm_s", "legendre_comm_s", "comm_s", "dt_s", "steps", "wall_s", "step_s",
        "flops_per_step", "mflops", "h_l1", "h_l2", "h_linf", "v_l2", "mass_rel", "energy_rel", "enstrophy_rel",
        "fft_s", "legendre_s", "grid_s", "spectral_s", "t_min", "t_med", "t_mean", "t_max", "reps"]
missing = [k for k in need if k not in run]
assert not missing, f"missing fields {missing}"
assert run["bench"] == "model" and run["case"] == 2 and run["trunc"] == 21 and run["levels"] == 4
assert run["h_l2"] < 1e-11 and abs(run["mass_rel"]) < 1e-11, run
assert run["step_s"] > 0 and run["mflops"] > 0 and run["flops_per_step"] > 0
assert run["grid"] == "1x1" and run["fft"] == run["legendre"] == "serial" and run["comm_s"] == 0
with open(sys.argv[2], "rb") as f:
    assert f.read(3) == b"CDF", "not a NetCDF classic file"
print("model record ok:", {k: run[k] for k in ("dt_s", "steps", "h_l2", "mflops")})
PY
