# Test helpers shared by every tests/*.cmake module (included first: name sorts before others).
#
# pst_mpi_test(NAME RANKS ARGS...)
#   run `pstswm ARGS...` on RANKS ranks through the launcher wrapper; passes on exit 0.
#   MPICH busy-polls when oversubscribed, so tests above 8 ranks only run with Open MPI.
# pst_bad_input_test(NAME RANKS RC REGEX ARGS...)
#   run `pstswm ARGS...` and require exit code RC, a stderr line matching REGEX and that the
#   file ${PST_TEST_OUT} (pass it as --out where relevant) is not created.
# pst_output_test(NAME RANKS REGEX PROGRAM ARGS...)
#   run PROGRAM ARGS... on RANKS ranks; passes on exit 0 and an output line matching REGEX (ERE).
set(PST_TEST_OUT ${CMAKE_CURRENT_BINARY_DIR}/bad-input-should-not-exist.jsonl)

function(pst_mpi_test name ranks)
  if(ranks GREATER 8 AND NOT PST_MPI STREQUAL "openmpi")
    return()
  endif()
  add_test(NAME ${name} COMMAND ${PSTRUN} -n ${ranks} $<TARGET_FILE:pstswm> ${ARGN})
  set_tests_properties(${name} PROPERTIES TIMEOUT 300 PROCESSORS ${ranks})
endfunction()

function(pst_bad_input_test name ranks rc regex)
  add_test(NAME ${name} COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh ${rc} ${regex} ${PST_TEST_OUT}
    -- ${PSTRUN} -n ${ranks} $<TARGET_FILE:pstswm> ${ARGN})
  set_tests_properties(${name} PROPERTIES TIMEOUT 60 PROCESSORS ${ranks})
endfunction()

function(pst_output_test name ranks regex)
  add_test(NAME ${name} COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-output.sh ${regex}
    -- ${PSTRUN} -n ${ranks} ${ARGN})
  set_tests_properties(${name} PROPERTIES TIMEOUT 300 PROCESSORS ${ranks})
endfunction()

# pst_records_test(NAME RANKS CHECKS expr... ARGS args...)
#   run `pstswm args... --out FILE` (exit 0 required), then require every Python expression
#   expr to hold over FILE's records (tests/check-records.py; no ';' in expressions).
function(pst_records_test name ranks)
  cmake_parse_arguments(PARSE_ARGV 2 RT "" "" "CHECKS;ARGS")
  if(ranks GREATER 8 AND NOT PST_MPI STREQUAL "openmpi")
    return()
  endif()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${name}.jsonl)
  add_test(NAME ${name} COMMAND ${CMAKE_SOURCE_DIR}/tests/records-test.sh ${out}
    -- ${PSTRUN} -n ${ranks} $<TARGET_FILE:pstswm> ${RT_ARGS} --out ${out} -- ${RT_CHECKS})
  set_tests_properties(${name} PROPERTIES TIMEOUT 300 PROCESSORS ${ranks})
endfunction()

# pstswm kernel's record counts follow from the registry its run header carries, so an added
# algorithm needs no edit in the tests: per (algorithm, stage) pair the protocol alternatives, one
# point per collective pair, a sensitivity and a Table 4 summary per pair that is not a collective.
# PST_NPROTOCOLS: the two-sided protocols "all" selects: 44, and 0,7 / 2,7 with MPI_Isendrecv,
# 0,8 / 2,8 with partitioned communication; PST_NPLAIN: those that are not overlap codes, each
# also run with the overlap schedule (+ov) where the kernel compares every alternative.
set(PST_NPROTOCOLS 44)
set(PST_NPLAIN 31)
foreach(feature PST_HAVE_MPI_ISENDRECV PST_HAVE_MPI_PARTITIONED)
  if(${feature})
    math(EXPR PST_NPROTOCOLS "${PST_NPROTOCOLS} + 2")
    math(EXPR PST_NPLAIN "${PST_NPLAIN} + 1")
  endif()
endforeach()
# KERNEL_PAIRS_ANY: the pairs of algorithms without a constraint on the ranks (dfft's power of two).
set(KERNEL_PAIRS "sum(len(a['stages']) for a in header['algorithms'] if not a['collective'])")
set(KERNEL_PAIRS_ANY "sum(len(a['stages']) for a in header['algorithms'] if not a['collective'] and not a['needs'])")
set(KERNEL_COLLS "sum(len(a['stages']) for a in header['algorithms'] if a['collective'] and a['available'])")
# KERNEL_LIBS: the pairs of library collectives other than the comparators (ialltoallv, ...): a
# Table 4 summary each (against the comparator), no sensitivity summary.
# KERNEL_SUMS: the summaries of single algorithms (the family verdicts, one per stage and family
# with two or more members, are counted apart: KERNEL_FAMILIES).
set(KERNEL_SUMS "len([s for s in summaries if s['summary'] != 'family'])")
set(KERNEL_FAMILIES "len([s for s in summaries if s['summary'] == 'family'])")
set(KERNEL_LIBS "sum(len(a['stages']) for a in header['algorithms'] if a['collective'] and not a['coll_for'] and a['available'])")
