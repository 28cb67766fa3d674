# Every default --help prints is the one the command runs with: each "(default V)" passed as
# --option V leaves the validated settings as no options do (tests/mpi/test_cli_defaults.c).
pst_kind(mpi)
add_executable(test_cli_defaults ${CMAKE_SOURCE_DIR}/tests/mpi/test_cli_defaults.c)
target_link_libraries(test_cli_defaults PRIVATE pst_cmd)
add_test(NAME cli.defaults COMMAND ${PSTRUN} -n 2 $<TARGET_FILE:test_cli_defaults>)
set_tests_properties(cli.defaults PROPERTIES TIMEOUT 120 PROCESSORS 2)
