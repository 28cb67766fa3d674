# The libraries pstswm builds against, found through the usual mechanisms (the MPI compiler
# wrapper on PATH or MPI_C_COMPILER; <Pkg>_ROOT, CMAKE_PREFIX_PATH, the variables module files
# set, pkg-config: FindFFTW.cmake and its siblings).  Whatever is missing is collected, and
# configure fails once with the whole list: each piece, what it is for, its Debian and RHEL/Rocky
# packages and the variable that points CMake at a copy elsewhere.
set(pst_missing "")

# pst_require(FOUND WHAT FOR DEBIAN RHEL FIX): note WHAT as missing unless FOUND is true.
function(pst_require found what for debian rhel fix)
  if(NOT found)
    set(pst_missing "${pst_missing}  ${what}: ${for}\n      Debian/Ubuntu: ${debian} | RHEL/Rocky: ${rhel} | or set: ${fix}\n"
      PARENT_SCOPE)
  endif()
endfunction()

# pst_found_text(PKG): "fftw3.h not found, libfftw3 at /x" style, for the missing list.
function(pst_found_text pkg header library out)
  set(text "")
  foreach(pair "INCLUDE_DIR=${header}" "LIBRARY=${library}")
    string(REPLACE "=" ";" pair "${pair}")
    list(GET pair 0 var)
    list(GET pair 1 name)
    if(${pkg}_${var})
      list(APPEND text "${name} in ${${pkg}_${var}}")
    else()
      list(APPEND text "${name} not found")
    endif()
  endforeach()
  string(REPLACE ";" ", " text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

find_package(MPI COMPONENTS C QUIET)
if(PST_MPI STREQUAL "openmpi")
  set(pst_mpi_debian "libopenmpi-dev openmpi-bin")
  set(pst_mpi_rhel "openmpi-devel (then: module load mpi/openmpi-x86_64)")
elseif(PST_MPI STREQUAL "mpich")
  set(pst_mpi_debian "libmpich-dev mpich")
  set(pst_mpi_rhel "mpich-devel (then: module load mpi/mpich-x86_64)")
elseif(PST_MPI STREQUAL "smpi")
  set(pst_mpi_debian "libsimgrid-dev")
  set(pst_mpi_rhel "SimGrid from source (scripts/install-simgrid.sh)")
else()
  set(pst_mpi_debian "libopenmpi-dev openmpi-bin, or libmpich-dev mpich")
  set(pst_mpi_rhel "openmpi-devel or mpich-devel (then: module load mpi/...)")
endif()
pst_require("${MPI_C_FOUND}" "MPI for C (a compiler wrapper such as mpicc)" "every benchmark"
  "${pst_mpi_debian}" "${pst_mpi_rhel}" "-DMPI_C_COMPILER=/path/to/mpicc, or the site's MPI module on PATH")

find_package(OpenMP COMPONENTS C QUIET)
pst_require("${OpenMP_C_FOUND}" "OpenMP for C (the compiler's -fopenmp and its runtime)" "threads per rank (--threads)"
  "libgomp1 (with gcc), or libomp-dev (with clang)" "libgomp (with gcc)" "a compiler with OpenMP: CC=gcc, or -DOpenMP_C_FLAGS=...")

find_package(FFTW)
pst_found_text(FFTW fftw3.h libfftw3 pst_where)
pst_require("${FFTW_FOUND}" "FFTW 3 (${pst_where})" "the model's and the distributed FFTs"
  "libfftw3-dev" "fftw-devel" "-DFFTW_ROOT=PREFIX or CMAKE_PREFIX_PATH=PREFIX (module files: FFTW_ROOT, FFTW_DIR)")

find_package(OpenBLAS)
pst_found_text(OpenBLAS openblas_config.h libopenblas pst_where)
pst_require("${OpenBLAS_FOUND}" "OpenBLAS (${pst_where})" "the model's Legendre transforms (matrix products)"
  "libopenblas-dev" "openblas-devel" "-DOpenBLAS_ROOT=PREFIX or CMAKE_PREFIX_PATH=PREFIX (module files: OPENBLAS_ROOT, OPENBLAS_DIR)")

find_package(NetCDF)
pst_found_text(NetCDF netcdf.h libnetcdf pst_where)
pst_require("${NetCDF_FOUND}" "NetCDF-C (${pst_where})" "the model's field files (--write-fields, reference solutions)"
  "libnetcdf-dev" "netcdf-devel (EPEL)" "-DNetCDF_ROOT=PREFIX or CMAKE_PREFIX_PATH=PREFIX (module files: NETCDF_ROOT, NETCDF_DIR)")

if(pst_missing)
  message(NOTICE "pstswm cannot be configured; missing (install the package, load the site's module, or set the variable):\n"
    "${pst_missing}")
  message(FATAL_ERROR "pstswm: missing dependencies, listed above")
endif()
message(STATUS "FFTW: ${FFTW_LIBRARY}; OpenBLAS: ${OpenBLAS_LIBRARY}; NetCDF: ${NetCDF_LIBRARY}")
