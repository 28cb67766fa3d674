#!/usr/bin/env bash
# Configure and build pstswm against one MPI in build/<mpi>.  Usage: build.sh MPI [TYPE] [JOBS]
# TYPE Sanitize builds with AddressSanitizer + UndefinedBehaviorSanitizer in build/<mpi>-sanitize.
# smpi with an smpicc on PATH other than Debian's builds in build/smpi-<SimGrid version>, e.g.
#   PATH=$(scripts/install-simgrid.sh 4.1)/bin:$PATH scripts/build.sh smpi Release 2   # build/smpi-4.1
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/mpi-env.sh
mpi=$1 type=${2:-Release} jobs=${3:-2}
dir=$(build_dir "$mpi") sanitize=OFF
if [[ $type == Sanitize ]]; then
  dir=$dir-sanitize type=RelWithDebInfo sanitize=ON
fi
if [[ ! -f $dir/build.ninja ]]; then
  if [[ $mpi == smpi ]]; then
    # SimGrid's smpicc is the compiler itself (its output is a shared object smpirun loads);
    # SMPI_PRETEND_CC=1 lets configure-time test programs link and run as ordinary executables;
    # the RPATH lets them (and ldd) find the libsimgrid this smpicc links (its -L), wherever it is
    # installed (scripts/install-simgrid.sh).
    smpicc=$(command -v smpicc)
    simgrid_libdir=$("$smpicc" -show pst.c | grep -o -- '-L[^ ]*' | head -1 | cut -c3-)
    SMPI_PRETEND_CC=1 cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" -DPST_MPI=smpi -DPST_SANITIZE="$sanitize" \
      -DCMAKE_C_COMPILER="$smpicc" -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath,$simgrid_libdir" >/dev/null
  else
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" -DPST_MPI="$mpi" -DPST_SANITIZE="$sanitize" \
      -DMPI_C_COMPILER="$(command -v "$(mpi_cc "$mpi")")" \
      -DMPIEXEC_EXECUTABLE="$(command -v "$(mpi_exec "$mpi")")" >/dev/null
  fi
fi
cmake --build "$dir" -j "$jobs"
