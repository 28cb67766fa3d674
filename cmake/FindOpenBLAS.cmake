# OpenBLAS (openblas_config.h beside its cblas.h, libopenblas): OpenBLAS_ROOT, CMAKE_PREFIX_PATH,
# OPENBLAS_ROOT / OPENBLAS_DIR / OPENBLAS_HOME / EBROOTOPENBLAS as module files set them,
# pkg-config openblas.  Debian keeps each variant in include/<arch>/openblas-pthread and
# lib/<arch>/openblas-pthread (or -openmp, -serial): header and library are taken from the same
# one.  Target OpenBLAS::OpenBLAS.
include(${CMAKE_CURRENT_LIST_DIR}/pst-find.cmake)
pst_find_header_and_library(OpenBLAS HEADER openblas_config.h LIBRARY openblas PKGCONFIG openblas
  HEADER_SUFFIXES openblas-pthread openblas-openmp openblas-serial openblas include/openblas
  LIBRARY_SUFFIXES openblas-pthread openblas-openmp openblas-serial
  HINT_VARS OPENBLAS_ROOT OPENBLAS_DIR OPENBLAS_HOME EBROOTOPENBLAS)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(OpenBLAS REQUIRED_VARS OpenBLAS_LIBRARY OpenBLAS_INCLUDE_DIR)
