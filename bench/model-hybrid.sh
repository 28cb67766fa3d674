#!/usr/bin/env bash
# Ranks x threads: the model (case 2, preset gen) on every split of this node's cores into R ranks
# x T OpenMP threads per rank (R x T = the cores this script may use: 2x1 and 1x2 on 2 cores,
# 64x1 ... 1x64 on 64), and on 1x1 for the efficiency, placed by scripts/pstrun (each rank on T
# cores of its own, docs/howto-ranks-threads.md).  Launches are interleaved: launch k runs every
# problem x split before launch k + 1 starts, so load drift hits the splits alike.  One table:
# per split and problem the step time (median over launches, with the lowest-highest), each
# stage's time (compute less its communication), the communication, and the efficiency against
# 1x1: T(1x1) / (cores x T(split)), ideal 1, and its time over the problem's fastest row with the
# 95 % interval over launches (paired by launch; "best" marks the fastest, "tie" an interval that
# holds 1).  With --grids all, each split's ranks run on every processor grid PXxPY = R (rows
# R x T@PXxPY), so a split is compared with the best grid of its ranks, not only the default one.
# Beside the efficiency, the node's ceiling measured in the same run (bench/node-ceiling.sh, one
# round per launch, interleaved with the model's): the concurrent-DGEMM per-core rate over one
# core's, of one process's threads for 1xT and of one process per core otherwise, and the split's
# efficiency over that ceiling, so 0.80 reads as the node's limit (near 1) or the model's (well
# below 1).  --ceiling 0 leaves it out.
# Not a test: numbers depend on the machine and its load.
#   bench/model-hybrid.sh [--mpi openmpi|mpich] [--build DIR] [--launches N] [--problems T42L16,T85L16]
#                         [--steps N] [--grids default|all] [--ceiling 1|0]
# Records go to results/bench-model-hybrid-<date>/<problem>-<R>x<T>[@<grid>]-L<k>.jsonl, the
# ceiling's samples to node-ceiling.samples beside them (pstlab's report reads both).
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${PSTRUN_MPI:-openmpi} build= launches=3 problems=T42L16,T85L16 steps=20 grids=default ceiling=1
while (($#)); do
  case "$1" in
    --mpi) mpi=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --launches) launches=$2; shift 2 ;;
    --problems) problems=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --grids) grids=$2; shift 2 ;;
    --ceiling) ceiling=$2; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/model-hybrid.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ $launches =~ ^[1-9][0-9]*$ ]] || { echo "bench/model-hybrid.sh: --launches needs a positive count (got '$launches')" >&2; exit 2; }
[[ $steps =~ ^[1-9][0-9]*$ ]] || { echo "bench/model-hybrid.sh: --steps needs a positive count (got '$steps')" >&2; exit 2; }
[[ $grids == default || $grids == all ]] || { echo "bench/model-hybrid.sh: --grids takes default or all (got '$grids')" >&2; exit 2; }
[[ $ceiling == 0 || $ceiling == 1 ]] || { echo "bench/model-hybrid.sh: --ceiling takes 1 or 0 (got '$ceiling')" >&2; exit 2; }
IFS=, read -ra plist <<<"$problems"
for p in "${plist[@]}"; do
  [[ $p =~ ^T[0-9]+L[0-9]+$ ]] || { echo "bench/model-hybrid.sh: --problems takes TnnLmm names (got '$p')" >&2; exit 2; }
done
build=${build:-build/$mpi}
[[ -x $build/pstswm ]] || { echo "bench/model-hybrid.sh: $build/pstswm not built (scripts/dev/build.sh $mpi)" >&2; exit 2; }

cores=$(nproc)
splits=("1x1")
for ((t = 1; t <= cores; t++)); do
  ((cores % t == 0)) && splits+=("$((cores / t))x$t")
done
[[ ${splits[1]} == 1x1 ]] && splits=("1x1")  # one core: 1x1 is the only split
out=results/bench-model-hybrid-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
echo "# pstswm model, case 2, preset gen, $steps steps; splits of $cores cores: ${splits[*]}; $launches launches; $mpi; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((k = 1; k <= launches; k++)); do
  for p in "${plist[@]}"; do
    trunc=${p#T} trunc=${trunc%L*} levels=${p#*L}
    for s in "${splits[@]}"; do
      ranks=${s%x*} threads=${s#*x}
      grid_list=("")  # pstswm's default grid for the ranks
      if [[ $grids == all && $ranks -gt 1 ]]; then
        grid_list=()
        for ((px = 1; px <= ranks; px++)); do ((ranks % px == 0)) && grid_list+=("${px}x$((ranks / px))"); done
      fi
      for g in "${grid_list[@]}"; do
        file=$out/$p-$s${g:+@$g}-L$k.jsonl
        scripts/pstrun --mpi "$mpi" -n "$ranks" "$build/pstswm" model --case 2 --trunc "$trunc" --levels "$levels" \
          --steps "$steps" --preset gen --threads "$threads" ${g:+--grid "$g"} --out "$file" >"${file%.jsonl}.out" 2>&1 ||
          { echo "bench/model-hybrid.sh: $p on $s${g:+ grid $g} failed (${file%.jsonl}.out)" >&2; exit 1; }
      done
    done
  done
  if ((ceiling)) && ((cores > 1)); then
    bench/node-ceiling.sh --build "$build" --rounds 1 --out "$out" >"$out/node-ceiling-L$k.out" 2>&1 ||
      { echo "bench/model-hybrid.sh: the node ceiling failed ($out/node-ceiling-L$k.out)" >&2; exit 1; }
  fi
  echo "# launch $k of $launches done"
done

python=.venv/bin/python
[[ -x $python ]] || python=python3
PYTHONPATH=python "$python" - "$out" "$cores" <<'EOF'
import json, math, pathlib, re, statistics, sys
from pstlab.benches import ceiling
from pstlab.stats.stats import paired_ratio

out, cores = pathlib.Path(sys.argv[1]), int(sys.argv[2])
# stage: (field, its communication to take off); comm: fft_comm_s + legendre_comm_s (comm_s)
STAGES = (("fft", "fft_s", "fft_comm_s"), ("legendre", "legendre_s", "legendre_comm_s"), ("fourier", "fourier_s", None),
          ("grid", "grid_s", None), ("spectral", "spectral_s", None))
runs = {}
for f in sorted(out.glob("*.jsonl")):
    problem, split, _ = re.match(r"(T\d+L\d+)-(\d+x\d+(?:@\d+x\d+)?)-L(\d+)\.jsonl", f.name).groups()
    recs = [json.loads(line) for line in f.read_text().splitlines()]
    header = recs[0]
    point = next(r for r in recs if r.get("type") == "point" and "step_s" in r)
    runs.setdefault((problem, split), []).append((point, header.get("oversubscribed")))
ms = lambda x: f"{x * 1e3:.3g}"
node = ceiling.ceilings(ceiling.load(out))
cols = ["split", "problem", "step ms", "low-high", *(s for s, _, _ in STAGES), "comm", "efficiency", "ceiling",
        "eff/ceil", "vs best [95 %]", ""]
steps = lambda key: [p["step_s"] for p, _ in runs[key]]
best = {pr: min((k for k in runs if k[0] == pr), key=lambda k: statistics.median(steps(k))) for pr, _ in runs}

def vs_best(key):
    """The row's step over the fastest row's of its problem, paired by launch."""
    if key == best[key[0]]:
        return "best"
    a, b = steps(key), steps(best[key[0]])
    n = min(len(a), len(b))
    pr = paired_ratio(a[:n], b[:n], 0.95)
    if not math.isfinite(pr.lo):
        return f"{pr.ratio:.2f} (few launches)"
    return f"{pr.ratio:.2f} [{pr.lo:.2f}, {pr.hi:.2f}]{' tie' if pr.lo <= 1 <= pr.hi else ''}"

print("  ".join(f"{c:>10}" for c in cols))
by_rank = lambda key: (key[0], -int(key[1].split("x")[0]) if key[1] != "1x1" else -10**9, key[1])
for problem, split in sorted(runs, key=by_rank):
    pts = [p for p, _ in runs[(problem, split)]]
    med = lambda field, minus=None: statistics.median(p.get(field, 0) - (p.get(minus, 0) if minus else 0) for p in pts)
    step = med("step_s")
    base = statistics.median(steps((problem, "1x1"))) if (problem, "1x1") in runs else None
    eff = base / (cores * step) if base and split != "1x1" else None
    ranks, threads = (int(x) for x in split.split("@")[0].split("x"))
    ceil = ceiling.for_split(node, ranks, threads)
    over = "oversubscribed" if any(o for _, o in runs[(problem, split)]) else ""
    row = [split, problem, ms(step), f"{ms(min(p['step_s'] for p in pts))}-{ms(max(p['step_s'] for p in pts))}",
           *(ms(med(f, m)) for _, f, m in STAGES), ms(med("comm_s")), f"{eff:.2f}" if eff else "–",
           ceiling.fmt_ratio(ceil), f"{eff / ceil.ratio:.2f}" if eff and ceil else "–", vs_best((problem, split)), over]
    print("  ".join(f"{c:>10}" for c in row))
print(f"# step: median over launches of each run's median step; stages: compute less communication; "
      f"efficiency: T(1x1) / ({cores} x T(split)); ceiling: the node's concurrent-DGEMM per-core rate over "
      f"one core's in the same launches, median [lowest, highest] (threads for 1xT, processes otherwise); "
      f"eff/ceil: efficiency over its median; records in {out}")
if node:
    print("# the node's ceiling (bench/node-ceiling.sh, one round per launch):")
    for line in ceiling.lines(node):
        print("#", line)
EOF
