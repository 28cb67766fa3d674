#!/usr/bin/env bash
# Is the model's FFT stage held back by the SIMD codelets the distribution's FFTW was built with?
# Debian 12's FFTW 3.3.10 has sse2 and avx codelets only; FFTW's configure can add avx2 (with
# FMA) and avx512.  This builds such an FFTW from its source into a scratch prefix (never into
# the project), builds pstswm against it (FFTW_ROOT, as for any site FFTW: docs/install.md), and
# runs both binaries' model (case 2, 1 rank, --fftw-plan measure) in interleaved pairs, the order
# alternating per pair.  Per truncation: each binary's FFT stage (fft_s) and step, the median over
# pairs, and the site/distribution ratio of the FFT stage with the range of the per-pair ratios;
# then pst_yardstick fft (the stage's FFTs alone, at their best batch) the same way.  The run
# header of each names the codelet sets (math_libraries.fftw_simd) and the CPU's level.
# Not a test: numbers depend on the machine and its load.
#   bench/fft-codelets.sh [--mpi openmpi|mpich] [--pairs N] [--truncations 42,85,170] [--levels L]
#                         [--steps N] (--fftw PREFIX | --fftw-source fftw-3.3.x.tar.gz [--simd "SETS"])
# --fftw-source: an FFTW release tarball (Debian: apt-get source --download-only fftw3, with a
# deb-src line for your mirror, gives fftw3_3.3.10.orig.tar.gz); it is configured with
# --enable-<set> for each of --simd (default: the sets this CPU runs of sse2 avx avx2 avx512,
# with --enable-fma where it has FMA; avx512's codelets alone take longer to compile than the rest
# of FFTW) into results/fft-codelets/fftw (built once).  Records go to results/fft-codelets/<date>/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/mpi-env.sh
mpi=${PSTRUN_MPI:-openmpi} pairs=5 truncations=42,85,170 levels=16 steps=20 prefix= source= simd=
while (($#)); do
  case "$1" in
    --mpi) mpi=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --truncations) truncations=$2; shift 2 ;;
    --levels) levels=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --fftw) prefix=$2; shift 2 ;;
    --fftw-source) source=$2; shift 2 ;;
    --simd) simd=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/fft-codelets.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
die() { echo "bench/fft-codelets.sh: $*" >&2; exit 2; }
for v in pairs levels steps; do [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "--$v needs a positive count (got '${!v}')"; done
[[ -n $prefix || -n $source ]] || die "give --fftw PREFIX (an FFTW with more SIMD sets) or --fftw-source TARBALL"
distro=build/$mpi/pstswm
[[ -x $distro ]] || die "$distro not built (scripts/dev/build.sh $mpi)"
work=results/fft-codelets
mkdir -p "$work"

if [[ -z $prefix ]]; then
  [[ -f $source ]] || die "--fftw-source: no such file '$source'"
  prefix=$PWD/$work/fftw
  flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
  if [[ -z $simd ]]; then
    for name in sse2 avx avx2 avx512; do [[ $flags == *" ${name/avx512/avx512f} "* ]] && simd+=" $name"; done
  fi
  enable=()
  for name in $simd; do enable+=(--enable-"$name"); done
  [[ $flags == *" fma "* ]] && enable+=(--enable-fma)
  if [[ ! -f $prefix/lib/libfftw3.so ]]; then
    echo "# building FFTW from $source into $prefix (${enable[*]})"
    rm -rf "$work/fftw-src" && mkdir -p "$work/fftw-src"
    tar xzf "$source" -C "$work/fftw-src" --strip-components=1
    (cd "$work/fftw-src" && ./configure --prefix="$prefix" --enable-shared --disable-static --disable-fortran \
      "${enable[@]}" >configure.log &&
      make -j "$(nproc)" >make.log && make install >install.log) || die "the FFTW build failed (see $work/fftw-src/*.log)"
  fi
fi
[[ -f $prefix/include/fftw3.h ]] || die "--fftw $prefix: no include/fftw3.h"

site_build=$work/build-$mpi
if [[ ! -x $site_build/pstswm ]]; then
  echo "# building pstswm against $prefix in $site_build"
  args=(-DCMAKE_BUILD_TYPE=Release -DPST_MPI="$mpi" -DFFTW_ROOT="$prefix")
  if wrapper=$(command -v "$(mpi_cc "$mpi")"); then args+=(-DMPI_C_COMPILER="$wrapper"); fi
  if launcher=$(command -v "$(mpi_exec "$mpi")"); then args+=(-DMPIEXEC_EXECUTABLE="$launcher"); fi
  cmake -S . -B "$site_build" "${args[@]}" >"$work/cmake-$mpi.log" || die "configure failed ($work/cmake-$mpi.log)"
  cmake --build "$site_build" -j 2 --target pstswm pst_yardstick >"$work/build-$mpi.log" || die "build failed ($work/build-$mpi.log)"
fi
site=$site_build/pstswm
distro_fftw=$("$distro" --version | sed -n 's/^FFTW: //p') site_fftw=$("$site" --version | sed -n 's/^FFTW: //p')
[[ $site_fftw != "$distro_fftw" ]] || die "the site build runs the same FFTW ($site_fftw): check $site_build's FFTW_ROOT"

out=$work/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
echo "# FFT stage: distribution $distro_fftw vs site $site_fftw; $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //');" \
  "$pairs pairs; T$truncations L$levels, $steps steps; load: $(cut -d' ' -f1-3 /proc/loadavg)"
IFS=, read -ra tlist <<<"$truncations"
# yardstick DIR RECORDS: the model run's FFTs alone (its grid from its records, as bench/model.sh
# counts them: 8 r2c and 5 c2r per latitude and level), by DIR's pst_yardstick.
yardstick() {
  local nlon nlat
  nlon=$(grep -o '"nlon":[0-9]*' "$2" | head -1 | cut -d: -f2) nlat=$(grep -o '"nlat":[0-9]*' "$2" | head -1 | cut -d: -f2)
  "$1/pst_yardstick" fft --nlon "$nlon" --r2c $((nlat * 8 * levels)) --c2r $((nlat * 5 * levels)) --reps 5 | grep fft_best
}
for ((k = 1; k <= pairs; k++)); do
  order=(distro site)
  ((k % 2)) || order=(site distro)
  for m in "${tlist[@]}"; do
    for which in "${order[@]}"; do
      bin=$distro
      [[ $which == site ]] && bin=$site
      scripts/pstrun --mpi "$mpi" -n 1 "$bin" model --case 2 --trunc "$m" --levels "$levels" --steps "$steps" \
        --noise-probe 0 --out "$out/$which-T$m-P$k.jsonl" >/dev/null
      yardstick "$(dirname "$bin")" "$out/$which-T$m-P$k.jsonl" | sed "s/^{/{\"which\":\"$which\",\"trunc\":$m,\"pair\":$k,/" >>"$out/yardsticks.txt"
    done
  done
done

python=.venv/bin/python
[[ -x $python ]] || python=python3
"$python" - "$out" <<'PY'
import json, pathlib, re, statistics, sys

out = pathlib.Path(sys.argv[1])
runs, libs = {}, {}
for f in sorted(out.glob("*.jsonl")):
    which, m, _ = re.match(r"(distro|site)-T(\d+)-P(\d+)\.jsonl", f.name).groups()
    recs = [json.loads(line) for line in f.read_text().splitlines()]
    libs[which] = recs[0]["math_libraries"]
    point = next(r for r in recs if r.get("type") == "point" and "step_s" in r)
    runs.setdefault((int(m), which), []).append(point)
yard = {}
for line in (out / "yardsticks.txt").read_text().splitlines():
    y = json.loads(line)
    yard.setdefault((y["trunc"], y["which"]), []).append(y["t_med"])
for which, l in libs.items():
    print(f"# {which}: {l['fftw_version']}, SIMD sets this CPU runs {'+'.join(l['fftw_simd'] or [])} "
          f"(fftw_isa {l.get('fftw_isa')}), CPU {l.get('cpu_isa')}")
ms = lambda x: f"{x * 1e3:.4g}"
print(f"{'trunc':>6} {'FFT distro ms':>14} {'FFT site ms':>12} {'site/distro':>12} {'pair range':>14} "
      f"{'step distro':>12} {'step site':>10} {'FFTs alone s/d':>15} {'range':>12}")
for m in sorted({m for m, _ in runs}):
    d, s = runs[(m, "distro")], runs[(m, "site")]
    fd, fs = [p["fft_s"] for p in d], [p["fft_s"] for p in s]
    ratios = [b / a for a, b in zip(fd, fs)]
    yd, ys = yard[(m, "distro")], yard[(m, "site")]
    yr = [b / a for a, b in zip(yd, ys)]
    print(f"{m:>6} {ms(statistics.median(fd)):>14} {ms(statistics.median(fs)):>12} {statistics.median(ratios):>12.3f} "
          f"{min(ratios):>6.3f}-{max(ratios):<7.3f} {ms(statistics.median(p['step_s'] for p in d)):>12} "
          f"{ms(statistics.median(p['step_s'] for p in s)):>10} {statistics.median(yr):>15.3f} {min(yr):>5.3f}-{max(yr):.3f}")
print(f"# FFT: the model's FFT stage per step (fft_s, 1 rank); site/distro < 1: the distribution's codelets hold it back; "
      f"FFTs alone: pst_yardstick fft at its best batch; records in {out}")
PY
