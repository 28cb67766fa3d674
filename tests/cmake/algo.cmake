# Parallel algorithms (src/algo) against the MPI collectives / serial FFTW they are equivalent
# to, every protocol and both overlap settings, at 1, 2, 3, 4 and 8 ranks.
foreach(prog transpose vsum dfft)
  add_executable(test_algo_${prog} ${CMAKE_SOURCE_DIR}/tests/mpi/test_algo_${prog}.c)
  target_link_libraries(test_algo_${prog} PRIVATE pst_app)
  foreach(n 1 2 3 4 8)
    add_test(NAME algo.${prog}.np${n} COMMAND ${PSTRUN} -n ${n} $<TARGET_FILE:test_algo_${prog}>)
    set_tests_properties(algo.${prog}.np${n} PROPERTIES TIMEOUT 300 PROCESSORS ${n})
  endforeach()
endforeach()
