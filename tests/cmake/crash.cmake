# pstlab killed and resumed (tests/crash-resume.py on the short suite tests/crash.toml): SIGKILL
# of pstlab's process group at two seeded points inside launches, then one --resume must finish every launch with
# whole records, and nothing of the killed run may be alive 10 s after the kill.  SIGTERM and
# SIGINT (exit 130, one-line resume hint, the resume finishes) are tests/python/test_run.py's;
# on the emulated cluster: tests/cluster/crash.sh.
pst_kind(mpi)
add_test(NAME crash.kill COMMAND ${CMAKE_SOURCE_DIR}/.venv/bin/python ${CMAKE_SOURCE_DIR}/tests/crash-resume.py
  --suite ${CMAKE_SOURCE_DIR}/tests/crash.toml --pstlab ${CMAKE_SOURCE_DIR}/.venv/bin/pstlab
  --work ${CMAKE_CURRENT_BINARY_DIR}/crash-kill --signal KILL --random 2 --seed 54 --in-launch 3
  -- --mpi ${PST_MPI} --pstswm $<TARGET_FILE:pstswm>)
set_tests_properties(crash.kill PROPERTIES TIMEOUT 300 PROCESSORS 2 ENVIRONMENT PSTSWM_ROOT=${CMAKE_SOURCE_DIR})
