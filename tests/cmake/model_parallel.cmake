# The parallel model reproduces the serial one (tests/mpi/test_model_parallel.c): every grid,
# FFT algorithm x Legendre algorithm x overlap, protocols rotating through the catalogue, cases
# 2 and 6.  MPICH busy-polls when oversubscribed: above 2 ranks it runs the protocol subset, and
# above 4 only case 6 with overlap alternating over the algorithm pairs (lean).
add_executable(test_model_parallel ${CMAKE_SOURCE_DIR}/tests/mpi/test_model_parallel.c)
target_link_libraries(test_model_parallel PRIVATE pst_app)
foreach(grid 1x1 2x1 1x2 2x2 4x2 2x4 3x2)
  string(REPLACE "x" ";" dims ${grid})
  list(GET dims 0 px)
  list(GET dims 1 py)
  math(EXPR n "${px} * ${py}")
  set(mode all)
  set(cases 2 6)
  if(n GREATER 2 AND NOT PST_MPI STREQUAL "openmpi")
    set(mode subset)
  endif()
  if(n GREATER 4 AND NOT PST_MPI STREQUAL "openmpi")
    set(mode lean)
    set(cases 6)
  endif()
  foreach(case ${cases})
    add_test(NAME model.parallel.${grid}.case${case}
      COMMAND ${PSTRUN} -n ${n} $<TARGET_FILE:test_model_parallel> ${grid} ${case} 10 2 3 ${mode})
    set_tests_properties(model.parallel.${grid}.case${case} PROPERTIES TIMEOUT 300 PROCESSORS ${n}
      PASS_REGULAR_EXPRESSION ": ok")
  endforeach()
endforeach()

# The one-sided transport (issue 8): every rma protocol on 2x1, 1x2 and 2x2, case 6.
foreach(grid 2x1 1x2 2x2)
  string(REPLACE "x" ";" dims ${grid})
  list(GET dims 0 px)
  list(GET dims 1 py)
  math(EXPR n "${px} * ${py}")
  add_test(NAME model.parallel.rma.${grid}.case6
    COMMAND ${PSTRUN} -n ${n} $<TARGET_FILE:test_model_parallel> ${grid} 6 10 2 3 all rma)
  set_tests_properties(model.parallel.rma.${grid}.case6 PROPERTIES TIMEOUT 300 PROCESSORS ${n}
    PASS_REGULAR_EXPRESSION ": ok")
endforeach()
