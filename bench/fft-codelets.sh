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
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
cd "$bench_root"
# shellcheck source=scripts/lib/mpi-env.sh
source scripts/lib/mpi-env.sh
mpi=${PSTRUN_MPI:-openmpi} pairs=5 truncations=42,85,170 levels=16 steps=20 fftw='' fftw_source='' simd=''
bench_parse "mpi pairs truncations levels steps fftw fftw-source simd" "$@"
bench_positive pairs levels steps
[[ -n $fftw || -n $fftw_source ]] || bench_die "give --fftw PREFIX (an FFTW with more SIMD sets) or --fftw-source TARBALL"
bench_need_build "build/$mpi" pstswm
distro=build/$mpi/pstswm
work=results/fft-codelets
mkdir -p "$work"

if [[ -z $fftw ]]; then
  [[ -f $fftw_source ]] || bench_die "--fftw-source: no such file '$fftw_source'"
  fftw=$PWD/$work/fftw
  flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
  if [[ -z $simd ]]; then
    for name in sse2 avx avx2 avx512; do [[ $flags == *" ${name/avx512/avx512f} "* ]] && simd+=" $name"; done
  fi
  enable=()
  for name in $simd; do enable+=(--enable-"$name"); done
  [[ $flags == *" fma "* ]] && enable+=(--enable-fma)
  if [[ ! -f $fftw/lib/libfftw3.so ]]; then
    echo "# building FFTW from $fftw_source into $fftw (${enable[*]})"
    rm -rf "$work/fftw-src" && mkdir -p "$work/fftw-src"
    tar xzf "$fftw_source" -C "$work/fftw-src" --strip-components=1
    (cd "$work/fftw-src" && ./configure --prefix="$fftw" --enable-shared --disable-static --disable-fortran \
      "${enable[@]}" >configure.log &&
      make -j "$(nproc)" >make.log && make install >install.log) || bench_die "the FFTW build failed (see $work/fftw-src/*.log)"
  fi
fi
[[ -f $fftw/include/fftw3.h ]] || bench_die "--fftw $fftw: no include/fftw3.h"

site_build=$work/build-$mpi
if [[ ! -x $site_build/pstswm ]]; then
  echo "# building pstswm against $fftw in $site_build"
  args=(-DCMAKE_BUILD_TYPE=Release -DPST_MPI="$mpi" -DFFTW_ROOT="$fftw")
  if wrapper=$(command -v "$(mpi_cc "$mpi")"); then args+=(-DMPI_C_COMPILER="$wrapper"); fi
  if launcher=$(command -v "$(mpi_exec "$mpi")"); then args+=(-DMPIEXEC_EXECUTABLE="$launcher"); fi
  cmake -S . -B "$site_build" "${args[@]}" >"$work/cmake-$mpi.log" || bench_die "configure failed ($work/cmake-$mpi.log)"
  cmake --build "$site_build" -j 2 --target pstswm pst_yardstick >"$work/build-$mpi.log" || bench_die "build failed ($work/build-$mpi.log)"
fi
site=$site_build/pstswm
distro_fftw=$("$distro" --version | sed -n 's/^FFTW: //p') site_fftw=$("$site" --version | sed -n 's/^FFTW: //p')
[[ $site_fftw != "$distro_fftw" ]] || bench_die "the site build runs the same FFTW ($site_fftw): check $site_build's FFTW_ROOT"

out=$work/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
bench_context "$distro" "$out/$bench_name.context.json"
echo "# FFT stage: distribution $distro_fftw vs site $site_fftw; $pairs pairs; T$truncations L$levels, $steps steps"
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

bench_py fft_codelets "$out"
