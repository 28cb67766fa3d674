#!/usr/bin/env bash
# What an ordinary user (tests/install/as-user.sh) sees when something is missing, with fake
# apt-get, apt and sudo first on PATH that record any call (none may happen):
#  - `make MPI=system build` and `scripts/dev/setup.sh system` with no MPI on PATH: exit 2 and the
#    list of the missing commands (mpicc, mpiexec) with their Debian and RHEL/Rocky packages and
#    the variables that point CMake at the libraries; nothing that is present is listed;
#  - a configure where FFTW cannot be found (FFTW_ROOT an empty directory, the system's headers
#    and libraries hidden with CMAKE_IGNORE_PATH, pkg-config finding nothing): it fails once,
#    listing FFTW with its packages and FFTW_ROOT, and NetCDF (hidden too), and not OpenBLAS or
#    MPI, which it found.
#   tests/install/missing.sh
set -euo pipefail
fail() { echo "missing test: FAIL: $*" >&2; exit 1; }

as_user() {
  local root=$1 work=$2 calls=$2/admin-calls t out rc
  mkdir "$work/admin" "$work/nompi" "$work/tree" "$work/empty"
  for t in apt-get apt sudo; do
    printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 100\n' "$t" "$calls" >"$work/admin/$t"
    chmod +x "$work/admin/$t"
  done
  # A PATH with every command of /usr/bin and /bin but the MPIs' (as before `module load mpi`).
  for t in /usr/bin/* /bin/*; do
    case ${t##*/} in mpi* | *mpicc* | *mpiexec* | *mpirun* | orte* | opal* | smpi* | hydra* | osh*) continue ;; esac
    [[ -e $work/nompi/${t##*/} ]] || ln -s "$t" "$work/nompi/${t##*/}"
  done
  # The files `make build` runs before CMake, copied so nothing can write into the checkout.
  mkdir -p "$work/tree/scripts/dev" "$work/tree/scripts/lib"
  cp "$root/Makefile" "$work/tree/"
  cp "$root"/scripts/dev/{setup.sh,build.sh} "$work/tree/scripts/dev/"
  cp "$root"/scripts/lib/{mpi-env.sh,packages.sh} "$work/tree/scripts/lib/"

  for cmd in "make -s -C $work/tree MPI=system build" "$work/tree/scripts/dev/setup.sh system"; do
    rc=0
    out=$(PATH=$work/admin:$work/nompi $cmd 2>&1) || rc=$?
    [[ $rc == 2 ]] || fail "$cmd without an MPI on PATH: exit $rc, said: $out"
    for t in "^setup: missing from PATH" "^  mpicc: .*Debian/Ubuntu: libopenmpi-dev or libmpich-dev .*RHEL/Rocky: openmpi-devel or mpich-devel" \
             "^  mpiexec: .*Debian/Ubuntu: openmpi-bin or mpich .*RHEL/Rocky: openmpi or mpich" \
             "CMAKE_PREFIX_PATH, FFTW_ROOT, OpenBLAS_ROOT, NetCDF_ROOT"; do
      grep -Eq "$t" <<<"$out" || fail "$cmd: no line /$t/ in: $out"
    done
    grep -Eq "^  (cmake|cc|ninja):" <<<"$out" && fail "$cmd lists a command that is present: $out"
  done

  local arch
  arch=$(cc -print-multiarch 2>/dev/null || true)
  rc=0
  out=$(PATH=$work/admin:$PATH PKG_CONFIG_LIBDIR= cmake -S "$root" -B "$work/build" -DPST_MPI=system -DBUILD_TESTING=OFF \
    -DFFTW_ROOT="$work/empty" "-DCMAKE_IGNORE_PATH=/usr/include;/usr/lib/$arch;/lib/$arch;/usr/lib64;/usr/lib;/lib" 2>&1) || rc=$?
  [[ $rc != 0 ]] || fail "configure without FFTW succeeded"
  for t in "^  FFTW 3 \(fftw3.h not found, libfftw3 not found\): " \
           "Debian/Ubuntu: libfftw3-dev \| RHEL/Rocky: fftw-devel \| or set: -DFFTW_ROOT=PREFIX or CMAKE_PREFIX_PATH=PREFIX" \
           "^  NetCDF-C \(netcdf.h not found" "Debian/Ubuntu: libnetcdf-dev \| RHEL/Rocky: netcdf-devel" \
           "pstswm: missing dependencies, listed above"; do
    grep -Eq "$t" <<<"$out" || fail "configure without FFTW: no line /$t/ in: $out"
  done
  grep -Eq "^  (OpenBLAS|MPI for C)" <<<"$out" && fail "configure lists what it found: $out"
  [[ $(grep -c "pstswm cannot be configured" <<<"$out") == 1 ]] || fail "configure did not fail once with one list: $out"
  [[ ! -e $calls ]] || fail "apt or sudo was called: $(cat "$calls")"
  echo "ok: missing MPI commands and a hidden FFTW listed with their packages and variables; no apt or sudo"
}

if [[ ${1:-} == --as-user ]]; then
  as_user "$2" "$3"
  exit
fi
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/pstswm-missing.XXXXXX)
trap 'rm -rf "$work"' EXIT
[[ $(id -u) == 0 ]] && chown "$("$here/as-user.sh" id -un):" "$work"
"$here/as-user.sh" bash "$0" --as-user "$(cd "$here/../.." && pwd)" "$work"
