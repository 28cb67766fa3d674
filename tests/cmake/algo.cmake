# Parallel algorithms (src/algo) against the MPI collectives / serial FFTW they are equivalent
# to: every algorithm x every protocol x overlap off/on at 1, 2, 3, 4 and 8 ranks.  MPICH above 2
# oversubscribed ranks (~10 ms per message step) runs the representative protocol subset of
# tests/mpi/algo_test.h; Open MPI runs every protocol there.
pst_kind(mpi)
foreach(prog transpose vsum dfft)
  add_executable(test_algo_${prog} ${CMAKE_SOURCE_DIR}/tests/mpi/test_algo_${prog}.c)
  target_link_libraries(test_algo_${prog} PRIVATE pst_algo)
  foreach(n 1 2 3 4 8)
    set(args "")
    if(n GREATER 2 AND NOT PST_MPI STREQUAL "openmpi")
      set(args subset)
    endif()
    add_test(NAME algo.${prog}.np${n} COMMAND ${PSTRUN} -n ${n} $<TARGET_FILE:test_algo_${prog}> ${args})
    set_tests_properties(algo.${prog}.np${n} PROPERTIES TIMEOUT 300 PROCESSORS ${n})
  endforeach()
endforeach()

# pst_exchange's callbacks may overwrite the send buffer once a chunk is in (every protocol, 4 MiB
# swaps, overlap off and on, prepared transfers restarted): tests/mpi/test_algo_exchange.c.
add_executable(test_algo_exchange ${CMAKE_SOURCE_DIR}/tests/mpi/test_algo_exchange.c)
target_link_libraries(test_algo_exchange PRIVATE pst_algo)
foreach(n 2 4)
  set(args "")
  if(n GREATER 2 AND NOT PST_MPI STREQUAL "openmpi")
    set(args subset)
  endif()
  add_test(NAME algo.exchange.np${n} COMMAND ${PSTRUN} -n ${n} $<TARGET_FILE:test_algo_exchange> ${args})
  set_tests_properties(algo.exchange.np${n} PROPERTIES TIMEOUT 300 PROCESSORS ${n})
endforeach()
