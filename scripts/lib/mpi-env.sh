# shellcheck shell=bash
# Per-MPI commands on Debian (both MPIs side by side), the MPI on PATH ("system") or SimGrid's
# SMPI ("smpi": the program runs on a simulated platform, docs/predict.md).
mpi_cc() {
  case "$1" in
    openmpi) echo mpicc.openmpi ;;
    mpich) echo mpicc.mpich ;;
    smpi) echo smpicc ;;
    *) echo mpicc ;;
  esac
}
mpi_exec() {
  case "$1" in
    openmpi) echo mpiexec.openmpi ;;
    mpich) echo mpiexec.mpich ;;
    smpi) echo smpirun ;;
    *) echo mpiexec ;;
  esac
}
# The build directory of an MPI: build/<mpi>, and build/smpi-<version> for an smpicc on PATH other
# than Debian's (scripts/install-simgrid.sh), so that two SimGrids never share a CMake cache.
build_dir() {
  local smpicc
  if [[ $1 == smpi ]] && smpicc=$(command -v smpicc) && [[ $smpicc != /usr/bin/smpicc ]]; then
    echo "build/smpi-$("$smpicc" -version | sed 's/^SimGrid version //')"
  else
    echo "build/$1"
  fi
}
