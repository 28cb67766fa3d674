# Test helpers shared by every tests/*.cmake module (included first: name sorts before others).
#
# pst_mpi_test(NAME RANKS ARGS...)
#   run `pstswm ARGS...` on RANKS ranks through the launcher wrapper; passes on exit 0.
#   MPICH busy-polls when oversubscribed, so tests above 8 ranks only run with Open MPI.
# pst_bad_input_test(NAME RANKS RC REGEX ARGS...)
#   run `pstswm ARGS...` and require exit code RC, a stderr line matching REGEX and that the
#   file ${PST_TEST_OUT} (pass it as --out where relevant) is not created; one rank starts as an
#   MPI singleton where the MPI allows (PST_LAUNCH1), more through the launcher wrapper.
# pst_output_test(NAME RANKS REGEX PROGRAM ARGS...)
#   run PROGRAM ARGS... on RANKS ranks; passes on exit 0 and an output line matching REGEX (ERE).
# Lanes (CONTRIBUTING.md): every test carries one kind label, an area label and maybe marks.
#   kinds  unit (C unit tests, 1 rank), tree (checks over the source tree), mpi (runs of pstswm
#          and the MPI test programs), model-matrix (the parallel model over every grid, algorithm
#          and protocol), install (prefix, tarball, EasyBuild, pstlab installs), cluster (the
#          emulated Slurm cluster, ReFrame), smpi (the SMPI build), fuzz (fuzzers, random input)
#   area   area:<module>: the tests/cmake/<module>.cmake file's name up to its first '_'
#          (model_grid.cmake -> area:model), so `ctest -L area:model` narrows to one area
#   marks  smoke (make check's 2-rank smoke of each subcommand), sanitize (the sanitizer build's
#          subset, scripts/dev/test-sanitize.sh), slow (over 60 s on a loaded 2-core host)
# pst_kind(KIND): the tests a module registers from here on are KIND (each module starts with one).
# pst_mark(MARK NAME...): add a mark to tests already registered (a name not registered is an error
# where the test exists in both MPIs' builds: pass OPTIONAL to allow a test only one MPI has).
# tests/CMakeLists.txt calls pst_kind_end() after each module; tree.lanes checks the result.
set(PST_TEST_KINDS unit tree mpi model-matrix install cluster smpi fuzz)
set(PST_TEST_MARKS smoke sanitize slow)

function(pst_label_new_tests)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t ${tests})
    get_test_property(${t} LABELS labels)
    set(has_kind FALSE)
    set(has_area FALSE)
    foreach(label ${labels})
      if(label IN_LIST PST_TEST_KINDS OR label STREQUAL "kind-missing")
        set(has_kind TRUE)
      elseif(label MATCHES "^area:")
        set(has_area TRUE)
      endif()
    endforeach()
    if(NOT has_kind AND PST_KIND)
      set_property(TEST ${t} APPEND PROPERTY LABELS ${PST_KIND})
    elseif(NOT has_kind)
      # Registered before any pst_kind() of its module: tree.lanes names it.
      set_property(TEST ${t} APPEND PROPERTY LABELS kind-missing)
    endif()
    if(NOT has_area AND PST_AREA)
      set_property(TEST ${t} APPEND PROPERTY LABELS area:${PST_AREA})
    endif()
  endforeach()
endfunction()

macro(pst_kind kind)
  if(NOT "${kind}" IN_LIST PST_TEST_KINDS)
    message(FATAL_ERROR "pst_kind(${kind}): not a kind of tests/helpers.cmake (${PST_TEST_KINDS})")
  endif()
  pst_label_new_tests()
  set(PST_KIND ${kind})
endmacro()

macro(pst_kind_end)
  pst_label_new_tests()
  unset(PST_KIND)
endmacro()

function(pst_mark mark)
  cmake_parse_arguments(PARSE_ARGV 1 MK "OPTIONAL" "" "")
  if(NOT mark IN_LIST PST_TEST_MARKS)
    message(FATAL_ERROR "pst_mark(${mark}): not a mark of tests/helpers.cmake (${PST_TEST_MARKS})")
  endif()
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t ${MK_UNPARSED_ARGUMENTS})
    if(t IN_LIST tests)
      set_property(TEST ${t} APPEND PROPERTY LABELS ${mark})
    elseif(NOT MK_OPTIONAL)
      message(FATAL_ERROR "pst_mark(${mark}): no test ${t}")
    endif()
  endforeach()
endfunction()

set(PST_TEST_OUT ${CMAKE_CURRENT_BINARY_DIR}/bad-input-should-not-exist.jsonl)

function(pst_mpi_test name ranks)
  if(ranks GREATER 8 AND NOT PST_MPI STREQUAL "openmpi")
    return()
  endif()
  add_test(NAME ${name} COMMAND ${PSTRUN} -n ${ranks} $<TARGET_FILE:pstswm> ${ARGN})
  set_tests_properties(${name} PROPERTIES TIMEOUT 300 PROCESSORS ${ranks})
endfunction()

# PST_LAUNCH1: the command that starts a program on one rank.  With Open MPI or MPICH, none: the
# program starts alone, an MPI singleton, where mpiexec costs Open MPI seconds per test; Open MPI's
# isolated singleton starts no daemon (these programs spawn nothing), and as root it needs leave as
# under mpiexec: pst_singleton(NAME...) gives the tests started so that environment.  SMPI's
# programs start only under smpirun, and a system MPI's maybe only under its own launcher.
if(PST_MPI MATCHES "^(openmpi|mpich)$")
  set(PST_LAUNCH1)
else()
  set(PST_LAUNCH1 ${PSTRUN} -n 1)
endif()
function(pst_singleton)
  if(NOT PST_LAUNCH1)
    set_property(TEST ${ARGN} APPEND PROPERTY ENVIRONMENT OMPI_MCA_ess_singleton_isolated=1
      OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
  endif()
endfunction()

# PST_FAIL_FAST_ENV: after a rank exits non-zero, Open MPI's mpiexec waits a second
# (odls_base_sigkill_timeout) between the SIGTERM and the SIGKILL it sends the job's other ranks,
# and a failing 2-rank launch took 1.5 s against 0.5 s without it (2-core Zen 3); the ranks of a
# refused run have all left by then.  For the tests that expect a failure: pst_fail_fast(NAME...).
set(PST_FAIL_FAST_ENV)
if(PST_MPI STREQUAL "openmpi")
  set(PST_FAIL_FAST_ENV OMPI_MCA_odls_base_sigkill_timeout=0)
endif()
function(pst_fail_fast)
  if(PST_FAIL_FAST_ENV)
    set_property(TEST ${ARGN} APPEND PROPERTY ENVIRONMENT ${PST_FAIL_FAST_ENV})
  endif()
endfunction()

function(pst_bad_input_test name ranks rc regex)
  # The launcher as the caller has it (smpi.cmake sets its platform after this file is read).
  set(launch ${PSTRUN} -n ${ranks})
  if(ranks EQUAL 1 AND NOT PST_LAUNCH1)
    set(launch)
  endif()
  add_test(NAME ${name} COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh ${rc} ${regex} ${PST_TEST_OUT}
    -- ${launch} $<TARGET_FILE:pstswm> ${ARGN})
  set_tests_properties(${name} PROPERTIES TIMEOUT 60 PROCESSORS ${ranks})
  if(ranks EQUAL 1)
    pst_singleton(${name})
  else()
    pst_fail_fast(${name})
  endif()
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
