#!/usr/bin/env bash
# pstswm's spectral transforms against SHTns (Schaeffer 2013), per level-step, in one run: the
# model's FFT, Legendre and Fourier-combination stages (one rank, case 2, from its records) and
# their sum, beside SHTns's equivalent set on the same Gaussian grid (3 scalar + 1 vector
# synthesis, 3 scalar + 1 vector analysis, orthonormal, one thread: bench/shtns_set.py), at each
# truncation, interleaved round by round.  SHTns is installed from PyPI into a bench-only venv
# (results/shtns-venv); it is a yardstick, never a dependency of pstswm.  Per truncation: each
# figure the median over rounds, the ratio pstswm set / SHTns set the median of the rounds' ratios
# with their lowest and highest; with several --legendre-kernel values each kernel runs in every
# round, in a rotating order.  Not a test: numbers depend on the machine and its load.
#   bench/model-vs-shtns.sh [--mpi openmpi|mpich] [--build DIR] [--rounds R] [--truncations 42,85,170,341]
#                           [--legendre-kernel auto|dgemm|recurrence|simd[,...]]
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${PSTRUN_MPI:-openmpi} build= rounds=3 truncations=42,85,170,341 kernels=auto
while (($#)); do
  case "$1" in
    --mpi) mpi=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --truncations) truncations=$2; shift 2 ;;
    --legendre-kernel) kernels=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/model-vs-shtns.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "bench/model-vs-shtns.sh: --rounds needs a positive count (got '$rounds')" >&2; exit 2; }
IFS=, read -ra mlist <<<"$truncations"
for m in "${mlist[@]}"; do
  [[ $m =~ ^[1-9][0-9]*$ ]] || { echo "bench/model-vs-shtns.sh: --truncations takes numbers like 42,85 (got '$m')" >&2; exit 2; }
done
IFS=, read -ra klist <<<"$kernels"
for k in "${klist[@]}"; do
  [[ $k =~ ^(auto|dgemm|recurrence|simd)$ ]] || { echo "bench/model-vs-shtns.sh: --legendre-kernel takes auto, dgemm, recurrence, simd (got '$k')" >&2; exit 2; }
done
build=${build:-build/$mpi}
[[ -x $build/pstswm ]] || { echo "bench/model-vs-shtns.sh: $build/pstswm not built (scripts/dev/build.sh $mpi)" >&2; exit 2; }
venv=results/shtns-venv
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import shtns' 2>/dev/null; then
  echo "# installing SHTns from PyPI into $venv (bench only)"
  python3 -m venv "$venv" && "$venv/bin/pip" install -q numpy shtns ||
    { echo "bench/model-vs-shtns.sh: could not install SHTns into $venv (pip install shtns needs FFTW's headers: libfftw3-dev)" >&2; exit 2; }
fi
out=results/bench-model-vs-shtns-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
echo "# $(OMP_NUM_THREADS=1 "$venv/bin/python" -c 'import shtns' 2>&1 | head -1); pstswm $build; $rounds rounds; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= rounds; r++)); do
  for m in "${mlist[@]}"; do
    levels=16 steps=$((m <= 85 ? 20 : m <= 170 ? 6 : 3))
    ((m > 170)) && levels=4
    nk=${#klist[@]}
    for ((j = 0; j < nk; j++)); do # rotate the kernels' order round by round
      k=${klist[$(((j + r) % nk))]}
      rec=$out/T$m-R$r-$k.jsonl
      scripts/pstrun --mpi "$mpi" -n 1 "$build/pstswm" model --case 2 --trunc "$m" --levels "$levels" --steps "$steps" \
        --warmup 1 --legendre-kernel "$k" --out "$rec" >"${rec%.jsonl}.out" 2>&1 ||
        { echo "bench/model-vs-shtns.sh: T$m $k failed (${rec%.jsonl}.out)" >&2; exit 1; }
    done
    read -r nlat nlon < <(python3 -c "import json,sys; p=[json.loads(l) for l in open(sys.argv[1]) if '\"point\"' in l][0]; print(p['nlat'], p['nlon'])" "$rec")
    OMP_NUM_THREADS=1 "$venv/bin/python" bench/shtns_set.py "$m" "$nlat" "$nlon" $((m <= 85 ? 100 : m <= 170 ? 30 : 10)) \
      >"$out/shtns-T$m-R$r.json" 2>/dev/null
  done
  echo "# round $r of $rounds done"
done
python3 - "$out" <<'PY'
import json, pathlib, re, statistics, sys
out = pathlib.Path(sys.argv[1])
rows = {}
for f in sorted(out.glob("T*-R*-*.jsonl")):
    m, r, kernel = re.match(r"T(\d+)-R(\d+)-(\w+)", f.name).groups()
    m, r = int(m), int(r)
    p = next(json.loads(l) for l in f.read_text().splitlines() if '"point"' in l)
    s = json.loads((out / f"shtns-T{m}-R{r}.json").read_text().splitlines()[-1])
    per = {k: p[k + "_s"] / p["levels"] for k in ("fft", "legendre", "fourier")}
    per["set"] = sum(per.values())
    per["shtns"] = s["median_s"]
    rows.setdefault((m, f"{p['nlat']}x{p['nlon']}", kernel), []).append(per)
print(f"{'trunc':>6} {'grid':>9} {'kernel':>10} {'fft':>8} {'legendre':>9} {'fourier':>8} {'pstswm':>8} {'SHTns':>8}  pstswm/SHTns (lowest-highest)")
for (m, grid, kernel), rs in sorted(rows.items()):
    med = {k: statistics.median(r[k] for r in rs) for k in rs[0]}
    ratios = [r["set"] / r["shtns"] for r in rs]
    print(f"{'T%d' % m:>6} {grid:>9} {kernel:>10} " + " ".join(f"{med[k] * 1e3:>8.3f}" for k in ("fft", "legendre", "fourier", "set", "shtns"))
          + f"  {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})")
print(f"# ms per level-step, median over rounds; records in {out}")
PY
