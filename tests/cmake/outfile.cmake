# Atomic --out: FILE.partial renamed on success, an existing FILE untouched by a failed run, exit 3
# on a failed write, devices, pipes and symlinks handled (tests/outfile-test.sh).
pst_kind(mpi)
add_test(NAME outfile.atomic COMMAND ${CMAKE_SOURCE_DIR}/tests/outfile-test.sh ${CMAKE_CURRENT_BINARY_DIR}/outfile
  -- ${PSTRUN} -n 2 $<TARGET_FILE:pstswm>)
set_tests_properties(outfile.atomic PROPERTIES TIMEOUT 120 PROCESSORS 2)
# The fields file must be a real file, and not the records file.
pst_bad_input_test(model.bad.write_fields_is_out 1 2 "--write-fields and --out name the same file"
  model --trunc 10 --steps 2 --write-fields ${PST_TEST_OUT} --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.write_fields_device 1 2 "--write-fields: '/dev/null' is not a regular file"
  model --trunc 10 --steps 2 --write-fields /dev/null --out ${PST_TEST_OUT})
