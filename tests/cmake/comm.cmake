# Communication layer: every protocol as SWAP and SENDRECV, verified, at 2/3/4/8 ranks.
add_executable(test_mpi_comm ${CMAKE_SOURCE_DIR}/tests/mpi/test_comm.c)
target_link_libraries(test_mpi_comm PRIVATE pst_comm)
foreach(n 2 3 4 8)
  add_test(NAME comm.protocols.np${n} COMMAND ${PSTRUN} -n ${n} $<TARGET_FILE:test_mpi_comm>)
  set_tests_properties(comm.protocols.np${n} PROPERTIES TIMEOUT 300 PROCESSORS ${n})
endforeach()
