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
