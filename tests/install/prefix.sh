#!/usr/bin/env bash
# The prefix install of docs/install.md as a site's user takes it, with the site's libraries:
# from the source tarball (scripts/dev/dist.sh), with FFTW and NetCDF unpacked from Debian's packages
# (dpkg -x) into a prefix of the user's and found through CMAKE_PREFIX_PATH, the MPI through
# its compiler wrapper first on PATH (as `module load` puts it; MPI=system), configure, build,
# `cmake --install` into a scratch prefix; then, with the build tree and the sources deleted and
# no LD_LIBRARY_PATH: `pstswm --version` names its libraries, ldd resolves every library (FFTW's
# and NetCDF's from the user's prefix, not /usr), the installed pstrun runs a 2-rank swap with
# the MPI the build used, and the share files, docs and man page are in place; the installed
# pstrun's SMPI mode without pstlab says so; no apt or sudo is called (fakes first on PATH record
# any call).
#   tests/install/prefix.sh MPI          (openmpi | mpich: the Debian MPI that plays the module;
#                                         make test runs it with openmpi)
# As root: fetches the .deb files into /var/cache/pstswm-tests/debs (apt-get download, reused;
# not root: ~/.cache/pstswm-tests/debs), makes the tarball, runs the rest as the user of
# tests/install/as-user.sh.  Each phase's time goes to stdout.
# Exit: 0 passed; 77 skipped with one line (not a git checkout; the .deb files cannot be fetched,
# except under CI=true, where that fails); 1 failed (the scratch directory is kept and named).
set -euo pipefail
debs=(libfftw3-dev libfftw3-double3 libnetcdf-dev libnetcdf19)

test_name="prefix test"
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The Debian MPI MPI's commands under the plain names a module gives them, in DIR (MPICH's
# mpiexec starts the hydra_pmi_proxy beside it).
fake_module() {
  local mpi=$1 dir=$2
  mkdir -p "$dir"
  ln -s "$(command -v "mpicc.$mpi")" "$dir/mpicc"
  ln -s "$(command -v "mpiexec.$mpi")" "$dir/mpiexec"
  if [[ $mpi == mpich ]]; then ln -s "$(command -v hydra_pmi_proxy)" "$dir/hydra_pmi_proxy"; fi
}

# apt-get, apt and sudo that record their calls in FILE and fail.
fake_admin_tools() {
  local dir=$1 log=$2 t
  mkdir -p "$dir"
  for t in apt-get apt sudo; do
    printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 100\n' "$t" "$log" >"$dir/$t"
    chmod +x "$dir/$t"
  done
}

# The installed tree: pstswm and pstrun only in bin/, the share files, docs, man page or help text.
check_layout() {
  local prefix=$1 f
  [[ $(ls "$prefix/bin" | paste -sd' ') == "pstrun pstswm" ]] || fail "bin/ holds: $(ls "$prefix/bin")"
  for f in libexec/pstswm/mpi-env.sh share/pstswm/suites/quick.toml share/pstswm/platforms/t3e-900.toml \
           share/pstswm/schema.json share/pstswm/reframe/pstswm_checks.py share/pstswm/reframe/pstswm.toml \
           share/doc/pstswm/README.md share/doc/pstswm/docs/running.md; do
    [[ -s $prefix/$f ]] || fail "not installed: $f"
  done
  if command -v help2man >/dev/null; then
    f=$prefix/share/man/man1/pstswm.1
    grep -q '^\.SH "BUILT WITH"' "$f" && grep -q '^FFTW: fftw' "$f" && grep -q '^swap' "$f" ||
      fail "the man page lacks its subcommands or its BUILT WITH section: $(head -c 300 "$f" 2>&1)"
  else
    grep -q '^usage: pstswm' "$prefix/share/doc/pstswm/pstswm-help.txt" || fail "no man page and no --help text"
  fi
}

# The part run as the ordinary user: WORK holds the tarball, the .deb files and this script.
as_user() {
  local work=$1 mpi=$2
  local src=$work/src build=$work/build prefix=$work/prefix site=$work/site calls=$work/admin-calls
  fake_admin_tools "$work/admin" "$calls"
  fake_module "$mpi" "$work/module/bin"
  export PATH=$work/admin:$work/module/bin:$PATH
  unset LD_LIBRARY_PATH

  phase_start "unpack: the tarball and the site's FFTW and NetCDF (dpkg -x)"
  mkdir -p "$src" "$site"
  tar -C "$src" --strip-components=1 -xzf "$(echo "$work"/pstswm-*.tar.gz)"
  local deb
  for deb in "$work"/debs/*.deb; do dpkg -x "$deb" "$site"; done
  export CMAKE_PREFIX_PATH=$site/usr
  phase_end

  phase_start "configure (MPI=system, BUILD_TESTING=OFF)"
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPST_MPI=system -DBUILD_TESTING=OFF >"$work/configure.log" 2>&1 ||
    fail "configure: $(tail -n 5 "$work/configure.log")"
  phase_end
  local var
  for var in FFTW_INCLUDE_DIR FFTW_LIBRARY NetCDF_INCLUDE_DIR NetCDF_LIBRARY; do
    grep -q "^$var:[A-Z]*=$site/" "$build/CMakeCache.txt" ||
      fail "CMake took $var from outside the site prefix: $(grep "^$var:" "$build/CMakeCache.txt")"
  done
  grep -q "^MPI_C_COMPILER:FILEPATH=$work/module/bin/mpicc$" "$build/CMakeCache.txt" ||
    fail "CMake did not take the MPI wrapper first on PATH: $(grep '^MPI_C_COMPILER:' "$build/CMakeCache.txt")"

  phase_start "build"
  cmake --build "$build" -j "$(nproc)" >"$work/build.log" 2>&1 || fail "build: $(tail -n 5 "$work/build.log")"
  phase_end

  phase_start "install"
  cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || fail "install: $(tail -n 5 "$work/install.log")"
  phase_end
  rm -rf "$build" "$src"
  check_layout "$prefix"

  local out lib
  out=$("$prefix/bin/pstswm" --version) || fail "installed pstswm --version failed: $out"
  local -A library=([openmpi]="MPI library: Open MPI v" [mpich]="MPI library: MPICH Version:")
  for line in "^pstswm [0-9.]+ \([0-9a-f]+(-dirty)?\), record schema [0-9]+$" "^MPI flavour: system$" "^compiler: " \
              "^${library[$mpi]}" "^MPI standard: [0-9]\.[0-9]$" "^FFTW: fftw-3" "^OpenBLAS: OpenBLAS [0-9]" "^BLIS: " \
              "^NetCDF: [0-9]" "^CPU target: " "^CPU flags: "; do
    grep -Eq "$line" <<<"$out" || fail "pstswm --version has no line /$line/: $out"
  done
  out=$(ldd "$prefix/bin/pstswm")
  grep -q "not found" <<<"$out" && fail "ldd without LD_LIBRARY_PATH: $(grep 'not found' <<<"$out")"
  for lib in libfftw3.so.3 libnetcdf.so.19; do
    grep -Eq "^\s*$lib => $site/" <<<"$out" || fail "$lib resolves outside the site prefix: $(grep "$lib" <<<"$out")"
  done
  grep -q '^default_mpi=system$' "$prefix/bin/pstrun" || fail "the installed pstrun's default MPI is not the build's"

  phase_start "installed pstrun: a 2-rank swap, from an empty directory"
  mkdir "$work/empty"
  (cd "$work/empty" && "$prefix/bin/pstrun" -n 2 "$prefix/bin/pstswm" swap --protocols 0,6 --sizes 8,64K --reps 2 \
    --warmup 1 --timeout 60 --out swap.jsonl) >"$work/swap.log" 2>&1 || fail "pstrun swap: $(tail -n 3 "$work/swap.log")"
  phase_end
  grep -q '"verified": *true' "$work/empty/swap.jsonl" || fail "the swap wrote no verified point ($work/empty/swap.jsonl)"

  local rc=0
  out=$(PYTHONNOUSERSITE=1 PATH=$work/admin:/usr/bin:/bin "$prefix/bin/pstrun" --mpi smpi \
    --platform "$prefix/share/pstswm/platforms/t3e-900.toml" -n 2 "$prefix/bin/pstswm" --version 2>&1) || rc=$?
  [[ $rc == 2 && $out == "pstrun: --mpi smpi needs the Python package pstlab"* && $(wc -l <<<"$out") == 1 ]] ||
    fail "installed pstrun --mpi smpi without pstlab: exit $rc, said: $out"
  [[ ! -e $calls ]] || fail "apt or sudo was called: $(cat "$calls")"
}

if [[ ${1:-} == --as-user ]]; then
  as_user "$2" "$3"
  exit
fi

mpi=${1:-}
[[ $mpi == openmpi || $mpi == mpich ]] || { echo "usage: tests/install/prefix.sh openmpi|mpich" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
git -C "$root" rev-parse --git-dir >/dev/null 2>&1 || skip "$root is not a git checkout (scripts/dev/dist.sh needs one)"

phase_start "Debian packages of the site's FFTW and NetCDF"
if [[ $(id -u) == 0 ]]; then cache=/var/cache/pstswm-tests/debs; else cache=${XDG_CACHE_HOME:-$HOME/.cache}/pstswm-tests/debs; fi
mkdir -p "$cache"
for p in "${debs[@]}"; do
  compgen -G "$cache/${p}_*.deb" >/dev/null && continue
  command -v apt-get >/dev/null && command -v dpkg >/dev/null || skip "no apt-get or dpkg to fetch $p"
  if ! (cd "$cache" && apt-get download -q "$p" >/dev/null 2>&1); then
    # A package list older than the archive names versions it no longer has: refresh it (root only).
    [[ $(id -u) == 0 ]] && apt-get update -qq >/dev/null 2>&1 && (cd "$cache" && apt-get download -q "$p" >/dev/null 2>&1) ||
      skip "apt-get download $p failed (no package index or network)"
  fi
done
phase_end

phase_start "source tarball"
work=$(mktemp -d /tmp/pstswm-prefix.XXXXXX)
"$root/scripts/dev/dist.sh" "$work" >/dev/null || fail "scripts/dev/dist.sh $work"
mkdir "$work/debs"
for p in "${debs[@]}"; do cp "$cache/${p}"_*.deb "$work/debs/"; done
phase_end
rc=0
hand_over "$work" "$0" "$mpi" || rc=$?
exit "$rc"
