# pstswm model: end-to-end runs, the record, --write-fields/--reference, bad input.
# The numerics are tested by tests/unit/test_model_*.c (case 2 at T42 and T85 over 5 days, etc.).
pst_kind(mpi)
set(MODEL_FAST --fftw-plan estimate)

# Case 2 is a steady state with an analytic solution: its error norms are round-off (measured
# 1e-14 to 1e-13; a wrong sign or coefficient anywhere gives 1e-3 or more).  Case 5 has no
# analytic solution: mass is conserved to round-off, energy to the diffusion's small share.
set(MODEL_CASE2_ACCURATE "len(points) == 1 and points[0]['h_l2'] < 1e-11 and points[0]['h_linf'] < 1e-11 and points[0]['v_l2'] < 1e-10"
  "abs(points[0]['mass_rel']) < 1e-12 and abs(points[0]['energy_rel']) < 1e-10")
pst_records_test(model.case2.t42l16 1 CHECKS ${MODEL_CASE2_ACCURATE} "points[0]['levels'] == 16 and points[0]['steps'] == 12"
  ARGS model --case 2 --trunc 42 --levels 16 --steps 12 ${MODEL_FAST})
pst_records_test(model.case5.t21 1 CHECKS
  "len(points) == 1 and points[0]['case'] == 5 and points[0]['steps'] == 48 and 'h_l2' not in points[0]"
  "abs(points[0]['mass_rel']) < 1e-12 and abs(points[0]['energy_rel']) < 1e-4"
  "[r['type'] for r in recs].count('diag') == 1"
  ARGS model --case 5 --trunc 21 --days 2 --diag-every 24 --robert 0.01 --hdiff 1e15 ${MODEL_FAST})
pst_records_test(model.case2.explicit 1 CHECKS ${MODEL_CASE2_ACCURATE} "points[0]['steps'] == 100"
  ARGS model --case 2 --trunc 21 --explicit --days 1 ${MODEL_FAST})

add_test(NAME model.record COMMAND ${CMAKE_SOURCE_DIR}/tests/model-record.sh ${PSTRUN} -- $<TARGET_FILE:pstswm>)
set_tests_properties(model.record PROPERTIES TIMEOUT 120)

# A case 6 reference written by one run, used by another at a lower resolution.
set(MODEL_REF ${CMAKE_CURRENT_BINARY_DIR}/model-case6-ref.nc)
add_test(NAME model.reference.write COMMAND ${PSTRUN} -n 1 $<TARGET_FILE:pstswm> model --case 6 --trunc 42 --days 0.5
  --dt 300 --write-fields ${MODEL_REF} ${MODEL_FAST})
set_tests_properties(model.reference.write PROPERTIES TIMEOUT 120 FIXTURES_SETUP model_ref)
pst_output_test(model.reference.use 1 "errors \\(vs reference\\)  h: l1 [0-9.]+e-0[3-6]"
  $<TARGET_FILE:pstswm> model --case 6 --trunc 21 --days 0.5 --dt 600 --reference ${MODEL_REF} ${MODEL_FAST})
set_tests_properties(model.reference.use PROPERTIES TIMEOUT 120 FIXTURES_REQUIRED model_ref)
pst_bad_input_test(model.bad.reference_case 1 2 "--reference: .*model-case6-ref.nc is a run of case 6 \\(alpha 0\\), this is case 2"
  model --case 2 --reference ${MODEL_REF} --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.reference_day 1 2 "--reference: .*model-case6-ref.nc is at day 0.5, this run ends at day 1"
  model --case 6 --trunc 21 --days 1 --reference ${MODEL_REF} --out ${PST_TEST_OUT})
set_tests_properties(model.bad.reference_case model.bad.reference_day PROPERTIES FIXTURES_REQUIRED model_ref)

# --fftw-wisdom: a first run (no file yet) plans by timing and saves the wisdom; a second takes
# every plan from it, on every rank (rank 0 loads it, then shares it).
set(MODEL_WISDOM ${CMAKE_CURRENT_BINARY_DIR}/model-wisdom.fftw)
add_test(NAME model.fftw_wisdom.clean COMMAND ${CMAKE_COMMAND} -E rm -f ${MODEL_WISDOM})
set_tests_properties(model.fftw_wisdom.clean PROPERTIES FIXTURES_SETUP wisdom_clean)
pst_records_test(model.fftw_wisdom.first 2 CHECKS
  "all(not p['fftw_wisdom_loaded'] and p['fftw_plans'] > 0 and p['fftw_wisdom'].endswith('model-wisdom.fftw') for p in points)"
  ARGS model --case 2 --trunc 21 --levels 2 --steps 2 --grid 1x2 --fftw-plan measure --fftw-wisdom ${MODEL_WISDOM})
set_tests_properties(model.fftw_wisdom.first PROPERTIES FIXTURES_REQUIRED wisdom_clean FIXTURES_SETUP wisdom)
pst_records_test(model.fftw_wisdom.use 2 CHECKS
  "all(p['fftw_wisdom_loaded'] and p['fftw_plans'] > 0 and p['fftw_plans_from_wisdom'] == p['fftw_plans'] for p in points)"
  ARGS model --case 2 --trunc 21 --levels 2 --steps 2 --grid 1x2 --fftw-plan measure --fftw-wisdom ${MODEL_WISDOM})
set_tests_properties(model.fftw_wisdom.use PROPERTIES FIXTURES_REQUIRED wisdom)
# Written afresh by each test run: a run that saved over it would leave valid wisdom behind.
add_test(NAME model.fftw_wisdom.garbage_file COMMAND sh -c "echo 'not FFTW wisdom' > ${CMAKE_CURRENT_BINARY_DIR}/not-wisdom.txt")
set_tests_properties(model.fftw_wisdom.garbage_file PROPERTIES FIXTURES_SETUP wisdom_garbage)
pst_bad_input_test(model.bad.fftw_wisdom_garbage 2 2 "--fftw-wisdom: '.*not-wisdom.txt' is not FFTW wisdom that fftw-3[^ ]* can read"
  model --trunc 21 --fftw-wisdom ${CMAKE_CURRENT_BINARY_DIR}/not-wisdom.txt --out ${PST_TEST_OUT})
set_tests_properties(model.bad.fftw_wisdom_garbage PROPERTIES FIXTURES_REQUIRED wisdom_garbage)
pst_bad_input_test(model.bad.fftw_wisdom_directory 1 2 "--fftw-wisdom: '.*' is not a regular file"
  model --trunc 21 --fftw-wisdom ${CMAKE_CURRENT_BINARY_DIR} --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.fftw_wisdom_no_dir 1 2 "--fftw-wisdom: cannot write in the directory of '/nonexistent-pstswm/w.fftw'"
  model --trunc 21 --fftw-wisdom /nonexistent-pstswm/w.fftw --out ${PST_TEST_OUT})

pst_bad_input_test(model.bad.trunc 1 2 "--trunc: 0 is out of range \\(allowed: 1 \\.\\.\\. 21843\\)" model --trunc 0 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.nlat 1 2 "--nlat: 32 latitudes are too few for T42 \\(need an even number >= 64"
  model --trunc 42 --nlat 32 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.nlat_odd 1 2 "--nlat: 65 latitudes are too few for T42" model --nlat 65 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.nlon 1 2 "--nlon: 120 longitudes do not fit T42 \\(need an even number >= 127"
  model --nlon 120 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.nlon_prime 1 2 "--nlon: 142 longitudes do not fit T42 .*prime factors 2, 3, 5 only"
  model --nlon 142 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.dt_zero 1 2 "--dt: 0 s is not a positive time step" model --dt 0 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.dt_negative 1 2 "--dt: -5 s is not a positive time step" model --dt -5 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.dt_nan 1 2 "--dt: 'nan' is not a finite number" model --dt nan --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.case 1 2 "--case: 3 is not a supported test case \\(allowed: 1, 2, 5, 6\\)"
  model --case 3 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.levels 1 2 "--levels: 0 is out of range \\(allowed: 1 \\.\\.\\. 4096\\)"
  model --levels 0 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.level_block 1 2 "--level-block: 2 does not divide --levels 3"
  model --levels 3 --level-block 2 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.steps_days 1 2 "--steps and --days are exclusive" model --steps 5 --days 1 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.days 1 2 "--days: 0.31 days is not a whole number of 2160 s time steps \\(12.4000\\)"
  model --days 0.31 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.alpha_case 1 2 "--alpha: the rotation angle applies to cases 1 and 2 only \\(case 6\\)"
  model --case 6 --alpha 0.5 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.alpha 1 2 "--alpha: 'pi/x' is not an angle in radians" model --alpha pi/x --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.fftw_plan 1 2 "--fftw-plan: unknown value 'fast' \\(allowed: estimate, measure, patient\\)"
  model --fftw-plan fast --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.reference_missing 1 2 "--reference: /nonexistent/ref.nc: No such file or directory"
  model --reference /nonexistent/ref.nc --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.write_fields 1 2 "--write-fields: cannot write '/nonexistent/f.nc'"
  model --write-fields /nonexistent/f.nc --out ${PST_TEST_OUT})

# A numerical blow-up ends the run with exit 3 naming the step (the header record is written by then).
add_test(NAME model.blowup COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 3
  "numerical blow-up at step [0-9]+ \\(day [0-9.]+\\): non-finite spectral coefficients" -
  -- ${PSTRUN} -n 1 $<TARGET_FILE:pstswm> model --case 2 --trunc 21 --explicit --dt 7200 --steps 400 ${MODEL_FAST})
set_tests_properties(model.blowup PROPERTIES TIMEOUT 60)
# Values past every limit are refused before anything is allocated (they ran case 2 as case
# 4294967298, dereferenced NULL after asking for 2.4e10 steps, blew up at alpha = 1e308*pi).
pst_bad_input_test(model.bad.case_overflow 1 2 "--case: 4294967298 is not a supported test case"
  model --case 4294967298 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.days_too_many_steps 1 2 "--days: 1e\\+09 days are 2.4e\\+10 time steps"
  model --trunc 10 --days 1e9 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.alpha_huge 1 2 "--alpha: '1e308\\*pi' is not an angle in radians within one turn"
  model --alpha 1e308*pi --out ${PST_TEST_OUT})
# A problem larger than memory is refused before anything is allocated, with the estimate (it
# asked for two 25.8 GB tables at T2047 and dereferenced NULL).  The limit is an address-space
# limit, so the test refuses on any machine and allocates nothing; sanitizer builds reserve
# terabytes of address space and cannot run under one.  T1200 is within the --trunc limit there
# (T3807 on 6 GB, the step's one-level buffers with the Legendre recurrence): the whole estimate,
# with the P-bar tables --legendre-kernel auto builds to time them, refuses it.
if(NOT PST_SANITIZE)
  add_test(NAME model.bad.memory_estimate COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2
    "model T1200L1 on 1802 x 3750 points needs about [0-9.]+ GB per rank, more than a process may map here \\(ulimit -v / -d: 6.00 GB\\)"
    ${PST_TEST_OUT} -- prlimit --as=6000000000 -- ${PSTRUN} -n 1 $<TARGET_FILE:pstswm> model --trunc 1200 --steps 1
    --out ${PST_TEST_OUT})
  set_tests_properties(model.bad.memory_estimate PROPERTIES TIMEOUT 60)
  # The --trunc limit, derived from the time step's memory estimate: just over it both
  # subcommands exit 2 naming it and the estimate; at it the model passes on to its whole estimate.
  add_test(NAME model.trunc_limit COMMAND ${CMAKE_SOURCE_DIR}/tests/trunc-limit.sh 6.00 ${PST_TEST_OUT}
    -- prlimit --as=6000000000 -- ${PSTRUN} -n 1 $<TARGET_FILE:pstswm>)
  set_tests_properties(model.trunc_limit PROPERTIES TIMEOUT 120)
endif()
# The estimate the refusal rests on (what the rank holds before allocating: MPI, libraries and
# the program, plus the model's arrays) against the peak resident set it predicts, from T42 to
# T341, serial and on a 1x2 grid (measured: 0.87-0.95).
set(pst_rss_check "0.75 <= points[0]['memory_estimate_bytes'] / points[0]['max_rss_bytes'] <= 1.25")
set(pst_rss_ranks "points[0]['max_rss_bytes'] == max(points[0]['rss_bytes_per_rank'])")
pst_records_test(model.memory_estimate.t42 1
  CHECKS "len(points) == 1" "${pst_rss_check}" "${pst_rss_ranks}"
  "[r['type'] for r in recs if r['type'] == 'diag'] == ['diag'] and all(r['max_rss_bytes'] > 0 for r in recs if r['type'] == 'diag')"
  ARGS model --trunc 42 --steps 3 --diag-every 2 ${MODEL_FAST})
pst_records_test(model.memory_estimate.t85l16 1
  CHECKS "len(points) == 1" "${pst_rss_check}" ARGS model --trunc 85 --levels 16 --steps 1 ${MODEL_FAST})
pst_records_test(model.memory_estimate 1
  CHECKS "len(points) == 1" "${pst_rss_check}" ARGS model --trunc 341 --steps 1 ${MODEL_FAST})
pst_records_test(model.memory_estimate.1x2 2
  CHECKS "len(points) == 1" "${pst_rss_check}" "${pst_rss_ranks}" "len(points[0]['rss_bytes_per_rank']) == 2"
  ARGS model --grid 1x2 --trunc 341 --steps 1 ${MODEL_FAST})
# The watchdog is armed as soon as the options are parsed, so set-up is guarded too (the model's
# Legendre tables at T341 take about a second; before, nothing watched them).
pst_bad_input_test(model.watchdog_setup 1 4 "timeout: experiment 'set-up of model \\(before the first experiment\\)' ran longer than 0.2 s"
  model --trunc 341 --steps 1 --timeout 0.2 --out ${PST_TEST_OUT})

# --blas on any CPU: each value either runs and verifies (the library it names, case 2's error
# norms at round-off: BLIS gives OpenBLAS's answers to round-off) or refuses by name (exit 2, the
# value and why: BLIS not installed, or blis-sup where BLIS runs a configuration without
# small-matrix kernels).  openblas is linked and auto falls back to it, so both must run.
function(pst_blas_test name ranks value)
  cmake_parse_arguments(PARSE_ARGV 3 BT "" "" "OPTIONS;CHECKS;ARGS")
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${name}.jsonl)
  if(value STREQUAL "auto")
    set(named "points[0]['blas_choice'] == 'auto'" "points[0]['blas'] in ('openblas', 'blis', 'blis-sup')"
      "points[0]['blas_openblas_s'] > 0")
  else()
    set(named "points[0]['blas'] == '${value}'" "points[0]['blas_choice'] == 'fixed'")
  endif()
  add_test(NAME ${name} COMMAND ${CMAKE_SOURCE_DIR}/tests/blas-value.sh ${value} --out ${out} ${BT_OPTIONS}
    -- ${PSTRUN} -n ${ranks} $<TARGET_FILE:pstswm> model --case 2 --trunc 21 --levels 4 --days 1 ${MODEL_FAST} ${BT_ARGS}
    -- "len(points) == 1" ${named} "points[0]['blas_version']" "points[0]['h_l2'] < 1e-11" "points[0]['v_l2'] < 1e-10"
    "header['math_libraries']['openblas_core'] and header['math_libraries']['fftw_version'].startswith('fftw-')"
    "'sse2' in header['cpu_vector_extensions'] or 'asimd' in header['cpu_vector_extensions']" ${BT_CHECKS})
  set_tests_properties(${name} PROPERTIES TIMEOUT 120 PROCESSORS ${ranks} SKIP_RETURN_CODE 77)
endfunction()
pst_blas_test(model.blas.openblas 1 openblas OPTIONS --must-run)
pst_blas_test(model.blas.blis 1 blis CHECKS "points[0]['blas_version'].startswith('BLIS ')" "points[0]['blas_blis_s'] is None"
  "points[0]['blas_version'] == 'BLIS ' + header['math_libraries']['blis_version']")
# blis-sup: the same BLIS's small-matrix kernels called directly (checked against a triple loop
# when bound); where they run, the same error norms as --blas blis to the last digit on this case.
pst_blas_test(model.blas.blis_sup 1 blis-sup
  CHECKS "points[0]['blas_version'] == 'BLIS ' + header['math_libraries']['blis_version'] + ', ' + header['math_libraries']['blis_arch'] + ' small-matrix kernels'")
pst_blas_test(model.blas.blis_sup_grid 4 blis-sup ARGS --grid 2x2)
# auto times every library that runs at set-up (every rank the same choice).
pst_blas_test(model.blas.auto 2 auto OPTIONS --must-run ARGS --grid 1x2
  CHECKS "(points[0]['blas_blis_s'] is None) == (header['math_libraries']['blis_arch'] is None)"
         "points[0]['blas_blis_sup_s'] is None or points[0]['blas_blis_sup_s'] > 0")
# BLIS's generic configuration, which it runs on a CPU its build has no configuration for (an AMD
# host with Debian's BLIS 0.9), forced here whatever the CPU: blis-sup refuses by name, plain BLIS
# runs, auto leaves blis-sup out and says why.
pst_blas_test(model.blas.generic.blis_sup 1 blis-sup OPTIONS --blis-arch generic --must-refuse
  "--blas blis-sup: BLIS [0-9.]+ runs its generic configuration on this CPU, which has no small-matrix dgemm kernels.*--blas blis")
# generic is older than any x86 CPU's vectors: the header lists BLIS among the libraries behind the
# CPU and the summary says so in one line with what to do (the warning path, whatever this CPU).
pst_blas_test(model.blas.generic.blis 1 blis OPTIONS --blis-arch generic --must-run
  --stdout "! kernels +BLIS generic \\(generic\\): older kernels than this [a-z0-9]+ CPU runs; use a site BLIS.*docs/install.md"
  CHECKS "header['math_libraries']['blis_arch'] == 'generic'" "header['env']['BLIS_ARCH_TYPE']"
         "'blis' in header['math_libraries']['blas_behind_cpu'] and header['math_libraries']['blis_isa'] == 'generic'")
pst_blas_test(model.blas.generic.auto 1 auto OPTIONS --blis-arch generic --must-run
  --stdout "Legendre dgemms (openblas|blis) .*--blas auto.*\\(BLIS [0-9.]+ runs its generic configuration on this CPU"
  CHECKS "header['math_libraries']['blis_arch'] == 'generic'" "points[0]['blas'] != 'blis-sup'"
         "points[0]['blas_blis_sup_s'] is None and points[0]['blas_blis_s'] > 0")
pst_records_test(model.blas.auto_without_blis 1
  CHECKS "points[0]['blas'] == 'openblas'" "points[0]['blas_blis_s'] is None" "points[0]['blas_blis_sup_s'] is None"
         "points[0]['blas_openblas_s'] > 0" "header['math_libraries']['blis_arch'] is None"
  ARGS model --case 2 --trunc 21 --steps 4 ${MODEL_FAST})
pst_bad_input_test(model.bad.blas_missing 2 2
  "--blas blis: BLIS is not available: /nonexistent/libblis.so.4: cannot open shared object file.*apt install libblis4-pthread"
  model --trunc 21 --steps 2 --blas blis --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.blas_sup_missing 2 2
  "--blas blis-sup: BLIS is not available: /nonexistent/libblis.so.4: cannot open shared object file"
  model --trunc 21 --steps 2 --blas blis-sup --out ${PST_TEST_OUT})
set_tests_properties(model.blas.auto_without_blis model.bad.blas_missing model.bad.blas_sup_missing PROPERTIES
  ENVIRONMENT PST_BLIS_LIBRARY=/nonexistent/libblis.so.4)
pst_bad_input_test(model.bad.blas_name 1 2 "--blas: unknown value 'mkl' \\(allowed: auto, openblas, blis, blis-sup\\)"
  model --blas mkl --out ${PST_TEST_OUT})

# tests/mpi/test_model_threads.c on one grid (PXxPY) and case, 1 to 3 threads per rank compared
# bit for bit (3 threads on this 2-core host are oversubscribed: correctness only; MPICH, which
# busy-polls when oversubscribed, compares 2 threads beyond 2 ranks: 49 s with 3 on 2x2); the
# expected line's @MAX_THREADS@ becomes that count; further arguments go to the program.
function(pst_threads_bitwise_test name grid regex case)
  string(REPLACE "x" ";" dims ${grid})
  list(GET dims 0 px)
  list(GET dims 1 py)
  math(EXPR n "${px} * ${py}")
  set(max_threads 3)
  if(n GREATER 2 AND NOT PST_MPI STREQUAL "openmpi")
    set(max_threads 2)
  endif()
  string(REPLACE "@MAX_THREADS@" ${max_threads} regex "${regex}")
  pst_output_test(${name} ${n} "${regex}" $<TARGET_FILE:test_model_threads> ${grid} ${case} 21 4 3 ${max_threads} ${ARGN})
endfunction()
