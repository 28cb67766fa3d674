# pstlab as a site's user installs it (tests/install/end-to-end.sh): this build installed into a
# scratch prefix, then as an ordinary user a wheel of python/ pip-installed into a fresh venv and,
# from an empty directory, `pstlab --version` and `pstlab run quick --max-ranks 2 --pstswm
# P/bin/pstswm` writing its report.  The Open MPI build only (the quick suite takes minutes);
# skips (77) with one line where no package index is reachable, except under CI=true.
pst_kind(install)
if(PST_MPI STREQUAL "openmpi")
  add_test(NAME install.pstlab COMMAND ${CMAKE_SOURCE_DIR}/tests/install/end-to-end.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(install.pstlab PROPERTIES LABELS install TIMEOUT 900 PROCESSORS 2 SKIP_RETURN_CODE 77)
endif()
