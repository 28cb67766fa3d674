#!/usr/bin/env bash
# Cost curves of the serial model: T21, T42, T85, T170 and T341 with one level (case 2), plus
# T42L16 and T85L16, on one rank, in interleaved rounds.  Prints a markdown table of the median
# step time and each stage's share, fits each stage's time to c·M^p over the one-level runs (least
# squares on logs) and draws time per step and per stage against M (log-log) into a PNG.
# Expected: about M³ for the Legendre stage (M wavenumbers x M degrees x M latitudes) and
# M² log M for the FFT (M latitudes x M log M per transform), so p ≈ 2.3 for the FFT over this
# range; the Fourier-space combinations and the grid and spectral stages are M².  Not a test: numbers depend on the machine.
#   bench/model-scaling.sh [--mpi openmpi|mpich] [--build DIR] [--rounds R] [--plot FILE.png] [--records FILE]
# Records go to results/bench-model-scaling-<date>.jsonl; --records FILE analyses an earlier run's
# records instead of running.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/noise.sh
source bench/noise.sh
mpi=${PSTRUN_MPI:-openmpi} build= rounds=3 plot= records=
while (($#)); do
  case "$1" in
    --mpi) mpi=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --plot) plot=$2; shift 2 ;;
    --records) records=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/model-scaling.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
build=${build:-build/$mpi}
python=.venv/bin/python
[[ -x $python ]] || python=python3
mkdir -p results
stamp=$(date +%Y%m%d-%H%M%S)
out=${records:-results/bench-model-scaling-$stamp.jsonl}
plot=${plot:-results/bench-model-scaling-$stamp.png}
if [[ -n $records ]]; then
  [[ -r $records ]] || { echo "bench/model-scaling.sh: cannot read --records $records" >&2; exit 2; }
  rounds=0
else
  [[ -x $build/pstswm ]] || { echo "bench/model-scaling.sh: $build/pstswm not built (scripts/dev/build.sh $mpi)" >&2; exit 2; }
  : >"$out"
fi
# truncation levels steps: about a second of stepping each on a current core.
configs=("21 1 400" "42 1 200" "85 1 60" "170 1 15" "341 1 6" "42 16 60" "85 16 20")
[[ -n $records ]] || echo "# pstswm model scaling, case 2, 1 rank, $rounds rounds, $mpi, $(nproc) cores, load: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= rounds; r++)); do
  for cfg in "${configs[@]}"; do
    read -r M L steps <<<"$cfg"
    tmp=$(mktemp)
    noise_counted scripts/pstrun --mpi "$mpi" -n 1 "$build/pstswm" model --case 2 --trunc "$M" --levels "$L" --steps "$steps" \
      --warmup 2 --fftw-plan measure --out "$tmp" >/dev/null
    grep '"type":"point"' "$tmp" >>"$out"
    rm -f "$tmp"
  done
done
"$python" - "$out" "$plot" <<'PY'
import json, math, statistics, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
stages = ["fft", "legendre", "fourier", "grid", "spectral"]
rows = {}
for r in recs:
    rows.setdefault((r["trunc"], r["levels"]), []).append(r)
med = lambda rs, k: statistics.median(x[k] for x in rs)
print("| config | step ms | " + " | ".join(f"{s} %" for s in stages) + " | FFTW planning s | max RSS MB |")
print("|---|---:|" + "---:|" * len(stages) + "---:|---:|")
for (M, L), rs in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    t = med(rs, "t_med")
    parts = [med(rs, s + "_s") for s in stages]
    total = sum(parts)
    print(f"| T{M}L{L} | {t * 1e3:.3f} | " + " | ".join(f"{100 * p / total:.0f}" for p in parts)
          + f" | {med(rs, 'fft_plan_s'):.3f} | {med(rs, 'max_rss_bytes') / 1e6:.0f} |")
one = sorted((M, rs) for (M, L), rs in rows.items() if L == 1)
Ms = [M for M, _ in one]
def fit(ys):
    """Least-squares slope and intercept of log y against log M."""
    xs = [math.log(M) for M in Ms]
    ls = [math.log(y) for y in ys]
    mx, my = statistics.fmean(xs), statistics.fmean(ls)
    p = sum((x - mx) * (y - my) for x, y in zip(xs, ls)) / sum((x - mx) ** 2 for x in xs)
    return p, math.exp(my - p * mx)
print("\nfitted growth, one level, time ∝ M^p over T%d..T%d:" % (Ms[0], Ms[-1]))
series = {"step": [med(rs, "t_med") for _, rs in one]}
for s in stages:
    series[s] = [med(rs, s + "_s") for _, rs in one]
fits = {}
for name, ys in series.items():
    fits[name] = fit(ys)
    print(f"  {name:9} p = {fits[name][0]:.2f}")
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("# matplotlib not available: no plot (make venv installs it)")
    sys.exit(0)
fig, ax = plt.subplots(figsize=(6.4, 4.4))
for name, ys in series.items():
    p, c = fits[name]
    line, = ax.loglog(Ms, [y * 1e3 for y in ys], "o-" if name == "step" else "o--", label=f"{name} (M^{p:.2f})")
ax.set_xticks(Ms, [f"T{M}" for M in Ms])
ax.minorticks_off()
ax.set_xlabel("truncation (one level, case 2)")
ax.set_ylabel("time per step, ms")
ax.set_title("pstswm model cost against truncation, 1 rank")
ax.grid(True, which="both", alpha=0.3)
ax.legend()
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
print(f"# plot: {sys.argv[2]}")
PY
echo "# step: median step time after 2 warm-up steps; stage shares of the mean per-step stage times; medians over"
echo "# the rounds.  Records: $out"
[[ -n $records ]] || noise_summary
