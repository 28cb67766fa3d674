#!/usr/bin/env bash
# Configure and build pstswm against one MPI in build/<mpi>.  Usage: build.sh MPI [TYPE] [JOBS]
# A configure that fails (a missing library: CMake lists them all) exits 2.  Ninja builds it when
# it is on PATH, else make.  Extra CMake settings for a site's libraries come from the environment
# (CMAKE_PREFIX_PATH, FFTW_ROOT, OpenBLAS_ROOT, NetCDF_ROOT, as module files set them).
# TYPE Sanitize builds with AddressSanitizer + UndefinedBehaviorSanitizer in build/<mpi>-sanitize.
# smpi with an smpicc on PATH other than Debian's builds in build/smpi-<SimGrid version>, e.g.
#   PATH=$(scripts/install-simgrid.sh 4.1)/bin:$PATH scripts/dev/build.sh smpi Release 2   # build/smpi-4.1
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/mpi-env.sh
mpi=$1 type=${2:-Release} jobs=${3:-2}
dir=$(build_dir "$mpi") sanitize=OFF
if [[ $type == Sanitize ]]; then
  dir=$dir-sanitize type=RelWithDebInfo sanitize=ON
fi
generator=Ninja made=build.ninja
command -v ninja >/dev/null || generator="Unix Makefiles" made=Makefile
if [[ ! -f $dir/$made ]]; then
  if [[ $mpi == smpi ]]; then
    # SimGrid's smpicc is the compiler itself (its output is a shared object smpirun loads);
    # SMPI_PRETEND_CC=1 lets configure-time test programs link and run as ordinary executables;
    # the RPATH lets them (and ldd) find the libsimgrid this smpicc links (its -L), wherever it is
    # installed (scripts/install-simgrid.sh).
    smpicc=$(command -v smpicc)
    simgrid_libdir=$("$smpicc" -show pst.c | grep -o -- '-L[^ ]*' | head -1 | cut -c3-)
    SMPI_PRETEND_CC=1 cmake -S . -B "$dir" -G "$generator" -DCMAKE_BUILD_TYPE="$type" -DPST_MPI=smpi -DPST_SANITIZE="$sanitize" \
      -DCMAKE_C_COMPILER="$smpicc" -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath,$simgrid_libdir" >/dev/null || exit 2
  else
    mpi_args=()
    if wrapper=$(command -v "$(mpi_cc "$mpi")"); then mpi_args+=(-DMPI_C_COMPILER="$wrapper"); fi
    if launcher=$(command -v "$(mpi_exec "$mpi")"); then mpi_args+=(-DMPIEXEC_EXECUTABLE="$launcher"); fi
    cmake -S . -B "$dir" -G "$generator" -DCMAKE_BUILD_TYPE="$type" -DPST_MPI="$mpi" -DPST_SANITIZE="$sanitize" \
      "${mpi_args[@]}" >/dev/null || exit 2
  fi
fi
cmake --build "$dir" -j "$jobs"
