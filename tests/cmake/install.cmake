# Installing pstswm the way a site's user does (docs/install.md):
#  - install.tree: this build installed into a scratch prefix (as the caller); the installed
#    pstrun launches it with this build's MPI, and its RUNPATH names no build or source directory;
#  - install.prefix (the Open MPI build's tests only: one full build): as an ordinary user
#    (tests/install/as-user.sh), from the source tarball, with FFTW and NetCDF from a prefix of the
#    user's (dpkg -x, CMAKE_PREFIX_PATH) and Open MPI put first on PATH as a module would: build,
#    cmake --install, then with the build tree and sources deleted the installed pstswm and pstrun
#    run (tests/install/prefix.sh);
#  - install.bad_prefix: an unwritable prefix is refused with exit 2 and one line, nothing written;
#  - install.missing: with no MPI on PATH or FFTW hidden, setup and configure list what is
#    missing with its packages and variables, and never call apt or sudo.
pst_kind(install)
set(INSTALL_TESTS ${CMAKE_SOURCE_DIR}/tests/install)
add_test(NAME install.tree COMMAND ${INSTALL_TESTS}/tree.sh ${CMAKE_BINARY_DIR} ${PST_MPI})
set_tests_properties(install.tree PROPERTIES LABELS install TIMEOUT 120 PROCESSORS 2)
if(PST_MPI STREQUAL "openmpi")
  add_test(NAME install.prefix COMMAND ${INSTALL_TESTS}/prefix.sh openmpi)
  set_tests_properties(install.prefix PROPERTIES LABELS install TIMEOUT 600 PROCESSORS 2 SKIP_RETURN_CODE 77)
  add_test(NAME install.bad_prefix COMMAND ${INSTALL_TESTS}/bad-prefix.sh ${CMAKE_BINARY_DIR})
  add_test(NAME install.missing COMMAND ${INSTALL_TESTS}/missing.sh)
  set_tests_properties(install.bad_prefix install.missing PROPERTIES LABELS install TIMEOUT 120)
endif()
