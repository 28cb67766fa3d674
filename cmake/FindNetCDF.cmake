# NetCDF-C (netcdf.h, libnetcdf): NetCDF_ROOT, CMAKE_PREFIX_PATH, NETCDF_ROOT / NETCDF_DIR /
# NETCDF_HOME / NETCDF / EBROOTNETCDF as module files set them, pkg-config netcdf.
# Target NetCDF::NetCDF.
include(${CMAKE_CURRENT_LIST_DIR}/pst-find.cmake)
pst_find_header_and_library(NetCDF HEADER netcdf.h LIBRARY netcdf PKGCONFIG netcdf
  HINT_VARS NETCDF_ROOT NETCDF_DIR NETCDF_HOME NETCDF EBROOTNETCDF)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NetCDF REQUIRED_VARS NetCDF_LIBRARY NetCDF_INCLUDE_DIR)
