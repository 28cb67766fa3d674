# pstswm's ReFrame library (packaging/reframe) under ReFrame from the venv (tests/reframe/library.sh):
# references from a run of its suite, a pass and a planted regression, on this machine (local
# scheduler, scripts/pstrun). The same on the emulated Slurm cluster is in cluster.cmake.
pst_kind(cluster)
add_test(NAME reframe.local COMMAND ${CMAKE_SOURCE_DIR}/tests/reframe/library.sh local ${PST_MPI} $<TARGET_FILE:pstswm>
  ${CMAKE_CURRENT_BINARY_DIR}/reframe/local)
set_tests_properties(reframe.local PROPERTIES TIMEOUT 600 PROCESSORS 2)
