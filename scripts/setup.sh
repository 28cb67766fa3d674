#!/usr/bin/env bash
# Install what pstswm needs, idempotently: system packages (as root with apt) and the
# Python venv. Without root/apt, check what is on PATH and say exactly what is missing.
# Usage: scripts/setup.sh WHAT...   (WHAT: openmpi | mpich | system | smpi | cluster)
# cluster: Slurm and munge for the emulated cluster the tests launch on (scripts/cluster).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/mpi-env.sh
source scripts/packages.sh

# libblis-pthread-dev: BLIS, which the model may load for its Legendre dgemms (--blas), and the
# blis.h through which --blas blis-sup finds its small-matrix kernels.
common_pkgs=(cmake ninja-build gcc make pkg-config libfftw3-dev libopenblas-dev libblis-pthread-dev libnetcdf-dev python3-venv)
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

ensure_debian_packages setup "${want[@]}" || echo "setup: continuing with what is on PATH" >&2

# Tools every build needs, whichever way they were installed.
need=(cmake ninja cc)
for mpi in "$@"; do [[ $mpi == cluster ]] || need+=("$(mpi_cc "$mpi")" "$(mpi_exec "$mpi")"); done
absent=()
for t in "${need[@]}"; do command -v "$t" >/dev/null || absent+=("$t"); done
if ((${#absent[@]})); then
  echo "setup: required commands not found: ${absent[*]}" >&2
  echo "setup: install them (Debian: apt-get install ${want[*]}) or load your site's modules" >&2
  exit 1
fi

# Python venv for pstlab, pinned.
py=${PYTHON:-python3}
if ! [[ -x .venv/bin/python ]] || ! cmp -s python/requirements.txt .venv/.requirements.stamp; then
  echo "setup: creating .venv from python/requirements.txt"
  "$py" -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r python/requirements.txt
  .venv/bin/pip install -q --disable-pip-version-check --no-deps -e python
  cp python/requirements.txt .venv/.requirements.stamp
fi
