# Fault tests (tests/fault-test.sh): a rank killed mid-run ends the job within 30 s with every
# written record complete and no finished file; a stopped rank trips the watchdog (exit 4).
pst_kind(mpi)
foreach(mode kill stop)
  add_test(NAME fault.${mode} COMMAND ${CMAKE_SOURCE_DIR}/tests/fault-test.sh ${mode} ${CMAKE_CURRENT_BINARY_DIR}/fault-${mode}
    -- ${PSTRUN} -n 2 $<TARGET_FILE:pstswm>)
  set_tests_properties(fault.${mode} PROPERTIES TIMEOUT 180 PROCESSORS 2)
endforeach()

# The planted slowdown (PSTSWM_FAULT_DELAY_US, src/runtime/fault.h): 2 ms before every send phase
# shows in every exchange's fastest time and in the header's env; a value that is not whole
# microseconds is refused by name.
pst_records_test(fault.delay 2
  CHECKS "all(p['t_min'] >= 2e-3 for p in points)" "header['env']['PSTSWM_FAULT_DELAY_US'] == '2000'"
  ARGS swap --protocols 1,0,0,6 --sizes 8,4K --reps 3 --noise-probe 0)
pst_bad_input_test(fault.delay.bad 2 2 "PSTSWM_FAULT_DELAY_US=2ms: expected whole microseconds"
  swap --sizes 8 --reps 3 --noise-probe 0 --out ${PST_TEST_OUT})
set_tests_properties(fault.delay PROPERTIES ENVIRONMENT PSTSWM_FAULT_DELAY_US=2000)
set_tests_properties(fault.delay.bad PROPERTIES ENVIRONMENT PSTSWM_FAULT_DELAY_US=2ms)
