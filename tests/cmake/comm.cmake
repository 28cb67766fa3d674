# Communication layer: every protocol as SWAP and SENDRECV, verified, at 2/3/4/8 ranks (MPICH's
# oversubscribed 8 ranks with the shifts 1, 2, P-1 and one size per protocol in turn: it
# busy-polls, and every shift and size took 61 s there; the 4-rank run keeps them all).
pst_kind(mpi)
add_executable(test_mpi_comm ${CMAKE_SOURCE_DIR}/tests/mpi/test_comm.c)
target_link_libraries(test_mpi_comm PRIVATE pst_comm)
foreach(n 2 3 4 8)
  set(mode full)
  if(n GREATER 4 AND NOT PST_MPI STREQUAL "openmpi")
    set(mode sample)
  endif()
  add_test(NAME comm.protocols.np${n} COMMAND ${PSTRUN} -n ${n} $<TARGET_FILE:test_mpi_comm> mpi ${mode})
  set_tests_properties(comm.protocols.np${n} PROPERTIES TIMEOUT 300 PROCESSORS ${n})
endforeach()

# A check that fails on some ranks only ends every rank with exit 2 and names the first failing
# rank; none is left waiting in a collective (the test's timeout catches a hang).
add_executable(test_usage_check_all ${CMAKE_SOURCE_DIR}/tests/mpi/test_usage_check_all.c)
target_link_libraries(test_usage_check_all PRIVATE pst_core)
add_test(NAME errors.check_all.np4_some COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2
  "^test_usage_check_all: error: cannot read 'f' here \\(on rank 1; 2 of 4 ranks failed this check\\)$" -
  -- ${PSTRUN} -n 4 $<TARGET_FILE:test_usage_check_all> 3 1)
add_test(NAME errors.check_all.np2_all COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2
  "^test_usage_check_all: error: cannot read 'f' here$" - -- ${PSTRUN} -n 2 $<TARGET_FILE:test_usage_check_all> 0 1)
# expect-output.sh: the line and exit 0 (PASS_REGULAR_EXPRESSION alone ignores the exit code).
add_test(NAME errors.check_all.np4_none COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-output.sh "all ranks passed"
  -- ${PSTRUN} -n 4 $<TARGET_FILE:test_usage_check_all>)
set_tests_properties(errors.check_all.np4_some errors.check_all.np2_all errors.check_all.np4_none PROPERTIES TIMEOUT 60)
