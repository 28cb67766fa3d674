# FFTW 3 in double precision (fftw3.h, libfftw3): FFTW_ROOT, CMAKE_PREFIX_PATH, FFTW_DIR /
# FFTW_HOME / EBROOTFFTW as module files set them, pkg-config fftw3.  Target FFTW::FFTW.
include(${CMAKE_CURRENT_LIST_DIR}/pst-find.cmake)
pst_find_header_and_library(FFTW HEADER fftw3.h LIBRARY fftw3 PKGCONFIG fftw3
  HINT_VARS FFTW_DIR FFTW_HOME FFTW_INC EBROOTFFTW)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(FFTW REQUIRED_VARS FFTW_LIBRARY FFTW_INCLUDE_DIR)
