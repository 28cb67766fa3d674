# pstlab killed and resumed (tests/crash-resume.py on the short suite tests/crash.toml): SIGKILL
# of pstlab's process group at seeded points, then one --resume must finish every launch with
# whole records, and nothing of the killed run may be alive 10 s after the kill; SIGTERM still
# stops cleanly (exit 130, one-line resume hint).  On the emulated cluster: tests/cluster/crash.sh.
set(crash_driver ${CMAKE_SOURCE_DIR}/.venv/bin/python ${CMAKE_SOURCE_DIR}/tests/crash-resume.py
  --suite ${CMAKE_SOURCE_DIR}/tests/crash.toml --pstlab ${CMAKE_SOURCE_DIR}/.venv/bin/pstlab)
set(crash_run -- --mpi ${PST_MPI} --pstswm $<TARGET_FILE:pstswm>)
add_test(NAME crash.kill COMMAND ${crash_driver} --work ${CMAKE_CURRENT_BINARY_DIR}/crash-kill
  --signal KILL --random 2 --seed 56 --span 8 ${crash_run})
add_test(NAME crash.term COMMAND ${crash_driver} --work ${CMAKE_CURRENT_BINARY_DIR}/crash-term
  --signal TERM --at 4 ${crash_run})
set_tests_properties(crash.kill crash.term PROPERTIES TIMEOUT 300 PROCESSORS 2
  ENVIRONMENT PSTSWM_ROOT=${CMAKE_SOURCE_DIR})
