# pst_find_header_and_library(PKG HEADER file [HEADER_SUFFIXES dir...] LIBRARY name...
#                             [LIBRARY_SUFFIXES dir...] [PKGCONFIG module] [HINT_VARS var...])
# The search of the Find modules beside this file (FindFFTW.cmake, ...): the header and the
# library each by find_path / find_library, so the usual mechanisms decide, in CMake's order:
# <PKG>_ROOT (variable or environment), CMAKE_PREFIX_PATH (the variable), then the prefixes named
# by HINT_VARS (CMake or environment variables that module files set, e.g. FFTW_DIR, EBROOTFFTW),
# the environment's CMAKE_PREFIX_PATH, what pkg-config says, then the system.  pkg-config is only a hint: Debian's .pc files hard-code
# prefix=/usr, so a copy unpacked elsewhere must be found under CMAKE_PREFIX_PATH first.
# Sets the cache variables PKG_INCLUDE_DIR and PKG_LIBRARY (NOTFOUND when absent) and, when both
# are found, the imported target PKG::PKG.
function(pst_find_header_and_library pkg)
  cmake_parse_arguments(PARSE_ARGV 1 F "" "HEADER;PKGCONFIG" "HEADER_SUFFIXES;LIBRARY;LIBRARY_SUFFIXES;HINT_VARS")
  set(hints "")
  foreach(v ${F_HINT_VARS})
    if(${v})
      list(APPEND hints "${${v}}")
    endif()
    if(DEFINED ENV{${v}})
      list(APPEND hints "$ENV{${v}}")
    endif()
  endforeach()
  # Each as a prefix (its include/, lib/<arch>/, lib64/, lib/), after CMAKE_PREFIX_PATH (this
  # function's copy), and as a directory itself (Cray's FFTW_DIR names the library directory).
  set(CMAKE_PREFIX_PATH ${CMAKE_PREFIX_PATH} ${hints})
  set(include_hints ${hints})
  set(library_hints ${hints})
  if(F_PKGCONFIG)
    find_package(PkgConfig QUIET)
    if(PKG_CONFIG_FOUND)
      pkg_check_modules(PST_PC_${pkg} QUIET ${F_PKGCONFIG})
      list(APPEND include_hints ${PST_PC_${pkg}_INCLUDE_DIRS})
      list(APPEND library_hints ${PST_PC_${pkg}_LIBRARY_DIRS})
    endif()
  endif()
  find_path(${pkg}_INCLUDE_DIR ${F_HEADER} HINTS ${include_hints} PATH_SUFFIXES ${F_HEADER_SUFFIXES} include
    DOC "directory of ${F_HEADER}")
  find_library(${pkg}_LIBRARY NAMES ${F_LIBRARY} HINTS ${library_hints} PATH_SUFFIXES ${F_LIBRARY_SUFFIXES} lib64 lib
    DOC "the ${pkg} library")
  if(${pkg}_INCLUDE_DIR AND ${pkg}_LIBRARY AND NOT TARGET ${pkg}::${pkg})
    add_library(${pkg}::${pkg} UNKNOWN IMPORTED)
    set_target_properties(${pkg}::${pkg} PROPERTIES IMPORTED_LOCATION "${${pkg}_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${${pkg}_INCLUDE_DIR}")
  endif()
endfunction()
