# Installing pstswm with EasyBuild 5 and Lmod (docs/install.md, packaging/easybuild/): as an ordinary
# user, from the source tarball into a scratch prefix, with the system's MPI, FFTW, BLAS and
# NetCDF mapped in by EasyBuild's --try-toolchain=SYSTEM and --filter-deps; then `module load pstswm`,
# `pstswm --version` and `pstlab run quick --max-ranks 2` from an empty directory
# (tests/install/easybuild.sh).  The Open MPI build's tests only: one full build is enough.  Skips
# (77) where Lmod cannot be installed or no package index answers, except under CI=true.
pst_kind(install)
if(PST_MPI STREQUAL "openmpi")
  add_test(NAME install.easybuild COMMAND ${CMAKE_SOURCE_DIR}/tests/install/easybuild.sh)
  set_tests_properties(install.easybuild PROPERTIES LABELS install TIMEOUT 1200 PROCESSORS 2 SKIP_RETURN_CODE 77)
endif()
