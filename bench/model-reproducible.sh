#!/usr/bin/env bash
# The cost of pstswm model --reproducible on one rank: T85L16 (case 2) with the default choices
# (FFTW plans measured, --blas auto and --legendre-kernel auto timed at set-up) against
# --reproducible (FFTW by estimate, the first named library and kernel: openblas, dgemm), and
# against --reproducible --blas B (the library the default usually picks here, named), in
# interleaved rounds so the host's load drifts over all alike.  Per round the ratio of each
# variant's step time (the median over the steps after warm-up) and set-up time to the default's;
# the figure is the median ratio over rounds with its range.  Not a test: it depends on the
# machine and its load (say which, beside the figure).
#   bench/model-reproducible.sh [--mpi openmpi|mpich] [--build DIR] [--rounds R] [--steps N] [--blas B]
# Records go to results/bench-model-reproducible-<date>/.
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${PSTRUN_MPI:-openmpi} build= rounds=7 steps=40 blas=blis-sup
while (($#)); do
  case "$1" in
    --mpi) mpi=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --blas) blas=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/model-reproducible.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
build=${build:-build/$mpi}
[[ -x $build/pstswm ]] || { echo "bench/model-reproducible.sh: $build/pstswm not built (scripts/dev/build.sh $mpi)" >&2; exit 2; }
out=results/bench-model-reproducible-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
variants=("default" "reproducible" "reproducible-$blas")
options=("" "--reproducible" "--reproducible --blas $blas")
echo "# pstswm model T85L16 case 2, $steps steps, 1 rank, $rounds rounds, $mpi, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), load: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 0; r < rounds; r++)); do
  for v in 0 1 2; do
    # shellcheck disable=SC2086 # the variant's options are words
    scripts/pstrun --mpi "$mpi" -n 1 "$build/pstswm" model --case 2 --trunc 85 --levels 16 --steps "$steps" \
      --noise-probe 0 ${options[$v]} --out "$out/${variants[$v]}-$r.jsonl" >/dev/null
  done
done
python3 - "$out" "$rounds" "${variants[@]}" <<'PY'
import json, pathlib, statistics, sys
out, rounds, variants = pathlib.Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
def point(v, r):
    recs = [json.loads(l) for l in (out / f"{v}-{r}.jsonl").open()]
    return next(x for x in recs if x["type"] == "point")
for v in variants:
    p = [point(v, r) for r in range(rounds)]
    step = [x["step_s"] / point(variants[0], r)["step_s"] for r, x in enumerate(p)]
    setup = [x["setup_s"] / point(variants[0], r)["setup_s"] for r, x in enumerate(p)]
    libs = sorted({f"{x['blas']}/{x['legendre_kernel']}" for x in p})
    print(f"{v:>24}: step {statistics.median(x['step_s'] for x in p) * 1e3:6.2f} ms, step ratio to default median "
          f"{statistics.median(step):.3f} (range {min(step):.3f}-{max(step):.3f}), set-up ratio "
          f"{statistics.median(setup):.2f} ({min(setup):.2f}-{max(setup):.2f}); ran {', '.join(libs)}")
PY
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg); records in $out"
