#!/usr/bin/env bash
# Serial model performance: time per step, MFlop/s (analytic count) and the per-stage split for
# T42L16 and T85L16 (case 2), on one rank.  Not a test: numbers depend on the machine and its load.
#   bench/model.sh [--mpi openmpi|mpich] [--build DIR] [--steps-t42 N] [--steps-t85 N] [--level-block B]
# Records go to results/bench-model-<date>.jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${PSTRUN_MPI:-openmpi} build= steps42=100 steps85=40 block=2
while (($#)); do
  case "$1" in
    --mpi) mpi=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --steps-t42) steps42=$2; shift 2 ;;
    --steps-t85) steps85=$2; shift 2 ;;
    --level-block) block=$2; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/model.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
build=${build:-build/$mpi}
[[ -x $build/pstswm ]] || { echo "bench/model.sh: $build/pstswm not built (cmake --build $build)" >&2; exit 2; }
mkdir -p results
out=results/bench-model-$(date +%Y%m%d-%H%M%S).jsonl
: >"$out"
echo "# pstswm model, case 2, 1 rank, level block $block, $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-8s %7s %10s %10s %10s %9s %9s %9s %9s\n" config steps "med ms" "min ms" "MFlop/s" "fft ms" "leg ms" "grid ms" "spec ms"
for cfg in "42 $steps42" "85 $steps85"; do
  read -r M steps <<<"$cfg"
  tmp=$(mktemp)
  scripts/pstrun --mpi "$mpi" -n 1 "$build/pstswm" model --case 2 --trunc "$M" --levels 16 --level-block "$block" \
    --steps "$steps" --warmup 3 --fftw-plan measure --out "$tmp" >/dev/null
  cat "$tmp" >>"$out"
  python3 - "$tmp" "$M" <<'PY'
import json, sys
r = next(json.loads(l) for l in open(sys.argv[1]) if '"type":"point"' in l)
ms = lambda k: r[k] * 1e3
print(f"T{sys.argv[2]}L16  {r['steps']:7d} {ms('t_med'):10.2f} {ms('t_min'):10.2f} {r['mflops']:10.0f} "
      f"{ms('fft_s'):9.2f} {ms('legendre_s'):9.2f} {ms('grid_s'):9.2f} {ms('spectral_s'):9.2f}")
PY
  rm -f "$tmp"
done
echo "# med/min: median and minimum time per step after 3 warm-up steps; stage times are means per step;"
echo "# MFlop/s = analytic flops per step / median step time.  Records: $out"
