#!/usr/bin/env bash
# Configure and build pstswm against one MPI in build/<mpi>.  Usage: build.sh MPI [TYPE] [JOBS]
# TYPE Sanitize builds with AddressSanitizer + UndefinedBehaviorSanitizer in build/<mpi>-sanitize.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/mpi-env.sh
mpi=$1 type=${2:-Release} jobs=${3:-2}
dir=build/$mpi sanitize=OFF
if [[ $type == Sanitize ]]; then
  dir=build/$mpi-sanitize type=RelWithDebInfo sanitize=ON
fi
if [[ ! -f $dir/build.ninja ]]; then
  if [[ $mpi == smpi ]]; then
    # SimGrid's smpicc is the compiler itself (its output is a shared object smpirun loads);
    # SMPI_PRETEND_CC=1 lets configure-time test programs link and run as ordinary executables.
    SMPI_PRETEND_CC=1 cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" -DPST_MPI=smpi -DPST_SANITIZE="$sanitize" \
      -DCMAKE_C_COMPILER="$(command -v smpicc)" >/dev/null
  else
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" -DPST_MPI="$mpi" -DPST_SANITIZE="$sanitize" \
      -DMPI_C_COMPILER="$(command -v "$(mpi_cc "$mpi")")" \
      -DMPIEXEC_EXECUTABLE="$(command -v "$(mpi_exec "$mpi")")" >/dev/null
  fi
fi
cmake --build "$dir" -j "$jobs"
