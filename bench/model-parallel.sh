#!/usr/bin/env bash
# Parallel efficiency of the model on this machine: T85L16 case 2 on 1x1, then on 2x1 and 1x2 with
# each algorithm choice, in rounds (each round runs every configuration once, so load drifts hit
# them alike); efficiency = t(1x1) / (2 t(grid)) from the median step times of the best round.
# Not a test: numbers depend on the machine and its load.
#   bench/model-parallel.sh [--mpi openmpi|mpich] [--build DIR] [--trunc M] [--levels L] [--steps N] [--rounds R]
# Records go to results/bench-model-parallel-<date>.jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${PSTRUN_MPI:-openmpi} build= trunc=85 levels=16 steps=12 rounds=3
while (($#)); do
  case "$1" in
    --mpi) mpi=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --trunc) trunc=$2; shift 2 ;;
    --levels) levels=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/model-parallel.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
build=${build:-build/$mpi}
[[ -x $build/pstswm ]] || { echo "bench/model-parallel.sh: $build/pstswm not built (scripts/build.sh $mpi)" >&2; exit 2; }
mkdir -p results
out=results/bench-model-parallel-$(date +%Y%m%d-%H%M%S).jsonl
: >"$out"
configs=(
  "1x1"
  "1x2 --legendre exchsum" "1x2 --legendre halfsum" "1x2 --legendre ringsum" "1x2 --legendre ringpipe"
  "1x2 --legendre coll" "1x2 --legendre srtrans"
  "2x1 --fft srtrans" "2x1 --fft coll" "2x1 --fft dfft"
)
echo "# pstswm model T${trunc}L${levels} case 2, $steps steps, $rounds rounds, $mpi, $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= rounds; r++)); do
  for cfg in "${configs[@]}"; do
    read -r grid rest <<<"$cfg"
    n=$((${grid%x*} * ${grid#*x}))
    # shellcheck disable=SC2086  # rest holds separate options
    scripts/pstrun --mpi "$mpi" -n "$n" "$build/pstswm" model --case 2 --trunc "$trunc" --levels "$levels" \
      --steps "$steps" --warmup 2 --grid "$grid" $rest --out "$out.part" >/dev/null
    cat "$out.part" >>"$out"
  done
done
rm -f "$out.part"
python3 - "$out" <<'PY'
import json, sys
from collections import defaultdict
runs = defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "point":
        key = (r["grid"], r["fft"], r["legendre"])
        runs[key].append(r)
serial = min(r["t_med"] for r in runs[("1x1", "serial", "serial")])
print(f"{'grid':5} {'fft':8} {'legendre':9} {'best med ms':>11} {'comm ms':>8} {'efficiency':>10}")
for key, rs in sorted(runs.items(), key=lambda kv: min(r["t_med"] for r in kv[1])):
    best = min(rs, key=lambda r: r["t_med"])
    p = best["px"] * best["py"]
    eff = serial / (p * best["t_med"])
    print(f"{key[0]:5} {key[1]:8} {key[2]:9} {best['t_med'] * 1e3:11.2f} {best['comm_s'] * 1e3:8.2f} {eff:10.1%}")
PY
echo "# records: $out"
