#!/usr/bin/env bash
# Install what pstswm needs, idempotently: as root on Debian/Ubuntu, the missing Debian packages
# (apt-get); then, as anyone, check that the commands the build and the runs need are on PATH
# (a site's modules put them there) and make the Python venv.  Never calls apt or sudo as an
# ordinary user.  A missing command stops it with exit 2 and a list: each command, what it is
# for, its Debian and RHEL/Rocky packages.  The libraries (FFTW, OpenBLAS, NetCDF) are checked
# when CMake configures (scripts/dev/build.sh; cmake/dependencies.cmake lists what it cannot find).
# Usage: scripts/dev/setup.sh WHAT...   (WHAT: openmpi | mpich | system | smpi | cluster)
# system: the MPI on PATH (mpicc, mpiexec), e.g. a cluster's module; no Debian MPI is asked for.
# cluster: Slurm and munge for the emulated cluster the tests launch on (scripts/cluster).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/mpi-env.sh
source scripts/lib/packages.sh

# libblis-pthread-dev: BLIS, which the model may load for its Legendre dgemms (--blas), and the
# blis.h through which --blas blis-sup finds its small-matrix kernels.  help2man: the man page.
# chromium: the test that loads report.html in a real (headless) browser (tests/python/test_browser.py).
# The shellcheck package: tree.shellcheck and tree.bench_shellcheck skip rather than pass without it.
common_pkgs=(cmake ninja-build gcc make pkg-config libfftw3-dev libopenblas-dev libblis-pthread-dev libnetcdf-dev
             python3-venv help2man chromium shellcheck)
declare -A mpi_pkgs=(
  [openmpi]="libopenmpi-dev openmpi-bin netpipe-openmpi"
  [mpich]="libmpich-dev mpich netpipe-mpich2"
  [system]=""
  # SimGrid's SMPI: the unmodified MPI code on a simulated platform (docs/predict.md).
  [smpi]="libsimgrid-dev"
  [cluster]="slurm-wlm munge"
)

want=("${common_pkgs[@]}")
for mpi in "$@"; do
  [[ -v mpi_pkgs[$mpi] ]] || { echo "setup: unknown MPI '$mpi' (allowed: openmpi, mpich, system, smpi, cluster)" >&2; exit 2; }
  read -ra extra <<<"${mpi_pkgs[$mpi]}"
  want+=("${extra[@]}")
done

if [[ $(id -u) == 0 ]]; then
  ensure_debian_packages setup "${want[@]}" || echo "setup: continuing with what is on PATH" >&2
fi

# What each command is for and where it comes from: "for|Debian|RHEL/Rocky".
declare -A about=(
  [cmake]="configures the build (3.20 or newer)|cmake|cmake"
  [cc]="the C compiler (cc, gcc or \$CC)|gcc|gcc"
  [ninja]="runs the build (ninja, or make)|ninja-build|ninja-build"
  [python3]="pstlab's venv (python3 with its venv module)|python3-venv|python3"
  [mpicc.openmpi]="Open MPI's C compiler wrapper|libopenmpi-dev|(Debian names; use MPI=system with openmpi-devel)"
  [mpiexec.openmpi]="starts Open MPI programs|openmpi-bin|(Debian names; use MPI=system with openmpi)"
  [mpicc.mpich]="MPICH's C compiler wrapper|libmpich-dev|(Debian names; use MPI=system with mpich-devel)"
  [mpiexec.mpich]="starts MPICH programs|mpich|(Debian names; use MPI=system with mpich)"
  [mpicc]="the site's MPI C compiler wrapper, on PATH (module load)|libopenmpi-dev or libmpich-dev|openmpi-devel or mpich-devel, then: module load mpi/openmpi-x86_64"
  [mpiexec]="starts the site's MPI programs, on PATH (module load)|openmpi-bin or mpich|openmpi or mpich, then: module load mpi/openmpi-x86_64"
  [smpicc]="SimGrid's SMPI compiler wrapper|libsimgrid-dev|SimGrid from source (scripts/install-simgrid.sh)"
  [smpirun]="SimGrid's SMPI launcher|libsimgrid-dev|SimGrid from source (scripts/install-simgrid.sh)"
)
present() {
  case $1 in
    cc) [[ -n ${CC:-} ]] && command -v "${CC%% *}" >/dev/null || command -v cc >/dev/null || command -v gcc >/dev/null ;;
    ninja) command -v ninja >/dev/null || command -v make >/dev/null ;;
    python3) [[ -x .venv/bin/python ]] || { command -v "${PYTHON:-python3}" >/dev/null && "${PYTHON:-python3}" -c 'import venv, ensurepip' 2>/dev/null; } ;;
    *) command -v "$1" >/dev/null ;;
  esac
}
need=(cmake cc ninja python3)
for mpi in "$@"; do [[ $mpi == cluster ]] || need+=("$(mpi_cc "$mpi")" "$(mpi_exec "$mpi")"); done
absent=()
for t in "${need[@]}"; do present "$t" || absent+=("$t"); done
if ((${#absent[@]})); then
  echo "setup: missing from PATH (install the package, or load your site's module):" >&2
  for t in "${absent[@]}"; do
    IFS='|' read -r what debian rhel <<<"${about[$t]}"
    echo "  $t: $what | Debian/Ubuntu: $debian | RHEL/Rocky: $rhel" >&2
  done
  echo "setup: libraries are checked when CMake configures (FFTW, OpenBLAS, NetCDF; point it at a prefix with CMAKE_PREFIX_PATH, FFTW_ROOT, OpenBLAS_ROOT, NetCDF_ROOT)" >&2
  exit 2
fi

# Python venv for pstlab, pinned; with ReFrame for the ReFrame library's tests (tests/reframe).
py=${PYTHON:-python3}
requirements=(python/requirements.txt python/requirements-reframe.txt)
if ! [[ -x .venv/bin/python ]] || ! cat "${requirements[@]}" | cmp -s - .venv/.requirements.stamp; then
  echo "setup: creating .venv from ${requirements[*]}"
  "$py" -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check "${requirements[@]/#/-r}"
  .venv/bin/pip install -q --disable-pip-version-check --no-deps -e python
  cat "${requirements[@]}" >.venv/.requirements.stamp
fi
