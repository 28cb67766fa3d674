# Fuzzers (tests/fuzz): seeded, the seed printed for replay.  In process: thousands of command
# lines through every option table and validator.  End to end: a few dozen launches per MPI,
# capped sizes, exit code, message, files and hangs checked.
add_executable(fuzz_cli ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_cli.c)
target_link_libraries(fuzz_cli PRIVATE pst_bench)
add_test(NAME fuzz.cli COMMAND ${PSTRUN} -n 1 $<TARGET_FILE:fuzz_cli> 20000)
set_tests_properties(fuzz.cli PROPERTIES TIMEOUT 300)
# A refusal is one line of UTF-8 whatever it quotes (the fuzzer found line ends and raw bytes of
# an argument copied into the message).
add_test(NAME errors.one_line_message COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2
  "^pstswm swap: error: --sizes: 'a\\\\x0Ab\\\\xFF' is not a size in bytes" -
  -- bash -c "exec \"\$@\" --sizes=\"\$(printf 'a\\nb\\377')\"" _ ${PSTRUN} -n 1 $<TARGET_FILE:pstswm> swap)
set_tests_properties(errors.one_line_message PROPERTIES TIMEOUT 60)
