# pstlab as a site's user installs it (tests/install/end-to-end.sh): this build installed into a
# scratch prefix, then as an ordinary user a wheel of python/ pip-installed into a fresh venv and,
# from an empty directory, `pstlab --version`, `pstlab run quick --dry-run` and one experiment of
# the quick suite with --pstswm P/bin/pstswm writing its report (the whole suite, minutes, runs
# installed in install.easybuild).  The Open MPI build only; skips (77) with one line where no
# package index is reachable, except under CI=true.
pst_kind(install)
if(PST_MPI STREQUAL "openmpi")
  add_test(NAME install.pstlab COMMAND ${CMAKE_SOURCE_DIR}/tests/install/end-to-end.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(install.pstlab PROPERTIES LABELS install TIMEOUT 900 PROCESSORS 2 SKIP_RETURN_CODE 77)
endif()
