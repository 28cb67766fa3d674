# --reproducible and the state checksums (docs/model.md: Reproducibility): five launches of the
# same command, at 1, 2, 3, 1 and 2 threads, must give identical checksums in every point and diag
# record (tests/reproducible-launches.sh); auto choices given explicitly are refused.
pst_kind(mpi)
set(REPRO_ARGS model --case 6 --levels 4 --steps 6 --diag-every 2 --reproducible)
add_test(NAME model.reproducible.launches_1rank COMMAND ${CMAKE_SOURCE_DIR}/tests/reproducible-launches.sh
  ${CMAKE_CURRENT_BINARY_DIR}/repro-1rank 1 -- ${PSTRUN} -n 1 $<TARGET_FILE:pstswm> ${REPRO_ARGS} --trunc 42)
add_test(NAME model.reproducible.launches_2ranks COMMAND ${CMAKE_SOURCE_DIR}/tests/reproducible-launches.sh
  ${CMAKE_CURRENT_BINARY_DIR}/repro-2ranks 2 -- ${PSTRUN} -n 2 $<TARGET_FILE:pstswm> ${REPRO_ARGS} --trunc 21 --grid 1x2)
set_tests_properties(model.reproducible.launches_1rank PROPERTIES TIMEOUT 300 PROCESSORS 1)
set_tests_properties(model.reproducible.launches_2ranks PROPERTIES TIMEOUT 300 PROCESSORS 2)

# Without --reproducible the header says which choices were timed; with it, none is.
pst_records_test(model.reproducible.choices_timed 1 CHECKS
  "not recs[0]['reproducible'] and {c['choice']: c['how'] for c in recs[0]['rounding_choices']}['blas'] == 'timed'"
  "{c['choice']: c['how'] for c in recs[0]['rounding_choices']}['fftw_plan'] == 'timed'"
  "all(len(p['checksums']) == 3 for p in points)"
  ARGS model --case 2 --trunc 21 --steps 2)
pst_records_test(model.reproducible.choices_fixed 1 CHECKS
  "recs[0]['reproducible'] and all(c['how'] != 'timed' for c in recs[0]['rounding_choices'])"
  "{c['choice']: c['value'] for c in recs[0]['rounding_choices']}['legendre_kernel'] == 'recurrence'"
  "{c['choice']: c['value'] for c in recs[0]['rounding_choices']}['fftw_plan'] == 'estimate'"
  ARGS model --case 2 --trunc 21 --steps 2 --reproducible --legendre-kernel recurrence)
pst_records_test(model.reproducible.kernel 2 CHECKS
  "recs[0]['reproducible'] and {c['choice']: c['value'] for c in recs[0]['rounding_choices']}['fftw_plan'] == 'estimate'"
  ARGS kernel --trunc 21 --levels 2 --algorithms alltoallv --protocols 0,0 --reps 2 --reproducible)

pst_bad_input_test(model.bad.reproducible_blas_auto 1 2
  "^pstswm model: error: --reproducible: --blas auto chooses by timing at set-up. name one of openblas, blis, blis-sup$"
  model --trunc 21 --steps 2 --reproducible --blas auto --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.reproducible_legendre_auto 2 2
  "^pstswm model: error: --reproducible: --legendre-kernel auto chooses by timing at set-up. name one of dgemm, recurrence"
  model --trunc 21 --steps 2 --reproducible --legendre-kernel auto --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.reproducible_fftw_measure 1 2
  "^pstswm model: error: --reproducible: --fftw-plan measure times the FFTW plans at set-up. give --fftw-plan estimate or --fftw-wisdom FILE$"
  model --trunc 21 --steps 2 --reproducible --fftw-plan measure --out ${PST_TEST_OUT})
pst_bad_input_test(kernel.bad.reproducible_fftw_patient 1 2
  "^pstswm kernel: error: --reproducible: --fftw-plan patient times the FFTW plans at set-up"
  kernel --trunc 21 --reproducible --fftw-plan patient --out ${PST_TEST_OUT})
