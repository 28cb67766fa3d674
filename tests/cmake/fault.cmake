# Fault tests (tests/fault-test.sh): a rank killed mid-run ends the job within 30 s with every
# written record complete and no finished file; a stopped rank trips the watchdog (exit 4).
foreach(mode kill stop)
  add_test(NAME fault.${mode} COMMAND ${CMAKE_SOURCE_DIR}/tests/fault-test.sh ${mode} ${CMAKE_CURRENT_BINARY_DIR}/fault-${mode}
    -- ${PSTRUN} -n 2 $<TARGET_FILE:pstswm>)
  set_tests_properties(fault.${mode} PROPERTIES TIMEOUT 180 PROCESSORS 2)
endforeach()
