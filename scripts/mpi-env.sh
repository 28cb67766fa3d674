# Per-MPI commands on Debian (both MPIs side by side) or the MPI on PATH ("system").
mpi_cc() {
  case "$1" in
    openmpi) echo mpicc.openmpi ;;
    mpich) echo mpicc.mpich ;;
    *) echo mpicc ;;
  esac
}
mpi_exec() {
  case "$1" in
    openmpi) echo mpiexec.openmpi ;;
    mpich) echo mpiexec.mpich ;;
    *) echo mpiexec ;;
  esac
}
