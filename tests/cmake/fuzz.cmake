# Fuzzers (tests/fuzz): seeded, the seed printed for replay.  In process: thousands of command
# lines through every option table and validator.  End to end: a few dozen launches per MPI,
# capped sizes, exit code, message, files and hangs checked.
pst_kind(fuzz)
add_executable(fuzz_cli ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_cli.c)
target_link_libraries(fuzz_cli PRIVATE pst_cmd)
add_test(NAME fuzz.cli COMMAND ${PST_LAUNCH1} $<TARGET_FILE:fuzz_cli> 20000)
set_tests_properties(fuzz.cli PROPERTIES TIMEOUT 300)
pst_singleton(fuzz.cli)
# --reference files: dimensions, types, shapes and attributes changed structurally.
add_executable(fuzz_netcdf ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_netcdf.c)
target_link_libraries(fuzz_netcdf PRIVATE pst_cmd)
add_test(NAME fuzz.netcdf COMMAND ${PST_LAUNCH1} $<TARGET_FILE:fuzz_netcdf> 1500)
set_tests_properties(fuzz.netcdf PROPERTIES TIMEOUT 300)
pst_singleton(fuzz.netcdf)
# End to end: under half a minute per MPI (with Open MPI 71 s before its 1-rank cases started as
# singletons and its refused runs ended without the wait for the SIGKILL, 21 s after).
if(PST_SANITIZE)
  set(e2e_launches 16)
elseif(PST_MPI STREQUAL "openmpi")
  set(e2e_launches 40)
else()
  set(e2e_launches 50)
endif()
# Its 1-rank cases start as MPI singletons where the tests' 1-rank runs do (PST_LAUNCH1), its
# refused runs end without Open MPI's wait before the SIGKILL (PST_FAIL_FAST_ENV).
set(e2e_singleton)
if(NOT PST_LAUNCH1)
  set(e2e_singleton --singleton)
endif()
add_test(NAME fuzz.e2e COMMAND python3 ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_e2e.py --launches ${e2e_launches}
  ${e2e_singleton} -- ${PSTRUN} $<TARGET_FILE:pstswm>)
set_tests_properties(fuzz.e2e PROPERTIES TIMEOUT 600 PROCESSORS 2)
pst_singleton(fuzz.e2e)
pst_fail_fast(fuzz.e2e)
# A refusal is one line of UTF-8 whatever it quotes (the fuzzer found line ends and raw bytes of
# an argument copied into the message).
add_test(NAME errors.one_line_message COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2
  "^pstswm swap: error: --sizes: 'a\\\\x0Ab\\\\xFF' is not a size in bytes" -
  -- bash -c "exec \"\$@\" --sizes=\"\$(printf 'a\\nb\\377')\"" _ ${PST_LAUNCH1} $<TARGET_FILE:pstswm> swap)
set_tests_properties(errors.one_line_message PROPERTIES TIMEOUT 60)
pst_singleton(errors.one_line_message)
