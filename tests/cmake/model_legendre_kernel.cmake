# pstswm model --legendre-kernel (model/transforms/legendre.h): the Legendre products' P-bar streamed from
# tables (dgemm) or generated per wavenumber and block of latitude pairs (recurrence: through the
# BLAS; simd: pstswm's own register-blocked sums on an instruction-set path, --legendre-isa), or
# the fastest timed at set-up (auto, the default).  All kernels are the same model to round-off:
# case 2's accuracy with each, the recurrence against the tables' fields, every decomposition and
# Legendre algorithm against the serial run, threads bit for bit, the records, bad input.
# MODEL_CASE2_ACCURATE and MODEL_FAST are model.cmake's (included first: its name sorts first).
pst_kind(mpi)
if(NOT DEFINED MODEL_CASE2_ACCURATE)
  message(FATAL_ERROR "model_legendre_kernel.cmake needs MODEL_CASE2_ACCURATE from model.cmake")
endif()

# Case 2 at T42 over the standard five days with each kernel fixed: the bounds of every case 2
# test (model.cmake; measured h_l2 8.6e-14 with either kernel), the kernel the record names, no
# trial times.
set(LK_FIXED "points[0]['legendre_kernel_choice'] == 'fixed'"
  "points[0]['legendre_kernel_dgemm_s'] is None and points[0]['legendre_kernel_recurrence_s'] is None"
  "points[0]['legendre_kernel_simd_s'] is None")
foreach(kernel dgemm recurrence)
  pst_records_test(model.legendre_kernel.${kernel}.np1 1 CHECKS ${MODEL_CASE2_ACCURATE} ${LK_FIXED}
    "points[0]['trunc'] == 42 and points[0]['steps'] * points[0]['dt_s'] == 5 * 86400"
    "points[0]['legendre_kernel'] == '${kernel}' and points[0]['legendre_isa'] is None"
    ARGS model --case 2 --trunc 42 --days 5 --legendre-kernel ${kernel} ${MODEL_FAST})
endforeach()
# simd on each instruction-set path, forced: the same five days within 1e-13 (measured 8.3e-14 on
# every path: the tables' rounding of P-bar), the record naming the path.  A path this CPU lacks
# (read from /proc/cpuinfo here, as the binary reads the CPU's flags) is refused with one line
# instead, exit 2; its values are then unchecked on this host (unit.test_model_legendre_isa says
# SKIPPED for it).
set(LK_CPU_FLAGS "")
if(EXISTS /proc/cpuinfo)
  file(STRINGS /proc/cpuinfo LK_CPU_FLAGS REGEX "^flags" LIMIT_COUNT 1)
endif()
foreach(path "baseline;sse2" "avx2;avx2.* fma|fma.* avx2" "avx512;avx512f")
  list(GET path 0 isa)
  list(GET path 1 needs)
  if(LK_CPU_FLAGS MATCHES " (${needs})( |$)")
    pst_records_test(model.legendre_kernel.simd.${isa}.np1 1 CHECKS ${MODEL_CASE2_ACCURATE} ${LK_FIXED}
      "points[0]['h_l2'] <= 1e-13 and points[0]['steps'] * points[0]['dt_s'] == 5 * 86400"
      "points[0]['legendre_kernel'] == 'simd' and points[0]['legendre_isa'] == '${isa}'"
      ARGS model --case 2 --trunc 42 --days 5 --legendre-kernel simd --legendre-isa ${isa} ${MODEL_FAST})
  else()
    pst_bad_input_test(model.legendre_kernel.simd.${isa}.refused 1 2
      "^pstswm model: error: --legendre-isa: ${isa}: this CPU lacks the instructions \\(this CPU runs: [a-z0-9]+\\)$"
      model --legendre-kernel simd --legendre-isa ${isa} --out ${PST_TEST_OUT})
  endif()
endforeach()
# The recurrence on a column (ringpipe's just-in-time blocks) ends where the serial tables' run
# ended, in case 5 (case 2 without rotation is zonal: every wavenumber but 0 multiplies zeros):
# the fields' differences are round-off (measured h_l2 2e-16, v_l2 3e-14), within the 1e-12 that
# every decomposition keeps to the serial run.
set(LK_REF ${CMAKE_CURRENT_BINARY_DIR}/model-legendre-kernel-dgemm.nc)
set(LK_CASE5 --case 5 --trunc 42 --days 1 ${MODEL_FAST})
add_test(NAME model.legendre_kernel.dgemm.write COMMAND ${PSTRUN} -n 1 $<TARGET_FILE:pstswm> model ${LK_CASE5}
  --legendre-kernel dgemm --write-fields ${LK_REF})
set_tests_properties(model.legendre_kernel.dgemm.write PROPERTIES TIMEOUT 120 FIXTURES_SETUP legendre_kernel_ref)
pst_records_test(model.legendre_kernel.recurrence.np2 2 CHECKS
  "len(points) == 1 and points[0]['grid'] == '1x2' and points[0]['legendre'] == 'ringpipe'"
  "points[0]['legendre_kernel'] == 'recurrence' and points[0]['legendre_kernel_choice'] == 'fixed'"
  "points[0]['legendre_kernel_dgemm_s'] is None and points[0]['legendre_kernel_recurrence_s'] is None"
  "points[0]['error_ref'] == 'reference' and points[0]['h_l2'] < 1e-12 and points[0]['h_linf'] < 1e-12 and points[0]['v_l2'] < 1e-12"
  ARGS model --grid 1x2 --legendre ringpipe ${LK_CASE5} --legendre-kernel recurrence --reference ${LK_REF})
set_tests_properties(model.legendre_kernel.recurrence.np2 PROPERTIES FIXTURES_REQUIRED legendre_kernel_ref)

# auto (the default, and named) times every kernel at set-up and keeps the fastest only when it
# was at least 5 % faster than dgemm (model/libs/fastest.h: the slowest rank's best times, so every
# rank chooses alike); the record gives the choice and every time, and the run stays at round-off.
set(LK_AUTO "len(points) == 1 and points[0]['legendre_kernel_choice'] == 'auto'"
  "points[0]['legendre_kernel_dgemm_s'] > 0 and points[0]['legendre_kernel_recurrence_s'] > 0 and points[0]['legendre_kernel_simd_s'] > 0"
  "(points[0]['legendre_kernel'] == 'dgemm') == (min(points[0]['legendre_kernel_recurrence_s'], points[0]['legendre_kernel_simd_s']) >= 0.95 * points[0]['legendre_kernel_dgemm_s'])"
  "points[0]['legendre_kernel'] == 'dgemm' or points[0]['legendre_kernel_' + points[0]['legendre_kernel'] + '_s'] == min(points[0]['legendre_kernel_dgemm_s'], points[0]['legendre_kernel_recurrence_s'], points[0]['legendre_kernel_simd_s'])"
  "(points[0]['legendre_isa'] is not None) == (points[0]['legendre_kernel'] == 'simd')"
  "points[0]['h_l2'] < 1e-12 and points[0]['v_l2'] < 1e-12")
set(LK_SMALL --case 2 --trunc 21 --levels 4 --steps 6 ${MODEL_FAST})
pst_records_test(model.legendre_kernel.auto.np1 1 CHECKS ${LK_AUTO} ARGS model ${LK_SMALL})
pst_records_test(model.legendre_kernel.auto.np2 2 CHECKS ${LK_AUTO} "points[0]['grid'] == '1x2'"
  ARGS model --grid 1x2 --legendre-kernel auto ${LK_SMALL})

# Every decomposition and Legendre algorithm with the recurrence reproduces the serial run with it
# (within 1e-12; tests/mpi/test_model_parallel.c, which also compares that serial run with the
# tables'; a 1x1 grid bit for bit).  A column runs every Legendre algorithm (transposes, vector
# sums with ringpipe, the library's, the level pipeline) against every protocol; 2x2 and the
# oversubscribed 4x2 (Open MPI) every FFT x Legendre pair; oversubscribed MPICH on 2x2 each
# algorithm once (9 s; the subset took 30 s there).  Mostly case 5, whose mountain fills every
# wavenumber (case 6 fills multiples of 4).
# One test per run "GRID:CASE:MODE" of test_model_parallel with METHOD.  Oversubscribed MPICH
# busy-polls: beyond 2 ranks it runs each algorithm once, and not beyond 4 ranks.
function(pst_legendre_parallel_tests method prefix)
  foreach(spec ${ARGN})
    string(REPLACE ":" ";" run ${spec})
    list(GET run 0 grid)
    list(GET run 1 case)
    list(GET run 2 mode)
    string(REPLACE "x" ";" dims ${grid})
    list(GET dims 0 px)
    list(GET dims 1 py)
    math(EXPR n "${px} * ${py}")
    if(n GREATER 2 AND NOT PST_MPI STREQUAL "openmpi")
      if(n GREATER 4)
        continue()
      endif()
      set(mode once)
    endif()
    pst_output_test(${prefix}.${grid}.case${case} ${n} "Legendre kernel ${method}: .*: ok$"
      $<TARGET_FILE:test_model_parallel> ${grid} ${case} 10 2 3 ${mode} mpi ${method})
  endforeach()
endfunction()
pst_kind(model-matrix)
pst_legendre_parallel_tests(recurrence model.legendre_kernel.parallel 1x1:5:all 1x2:5:all 2x1:6:all 2x2:5:all 4x2:6:all)
# The same with simd (the best path this CPU runs), sampled: each algorithm once on 1, 2, 4 and
# the oversubscribed 8 ranks (Open MPI; MPICH to 4), every one of them on the column.
pst_legendre_parallel_tests(simd model.legendre_kernel.simd.parallel 1x1:5:once 1x2:5:all 2x2:6:once 4x2:5:once)
pst_kind(mpi)
# Threads change no bit with the recurrence either (each thread generates into its own work area):
# tests/mpi/test_model_threads.c's configurations, --comm-threads included, 2 and 3 threads
# against one (oversubscribed MPICH on 2x2: 2 threads, 25 s), in case 5: a thread that used
# another's generated block would change the sums of every wavenumber (in case 2, zonal, only
# wavenumber 0's).
foreach(grid 1x1 1x2 2x2)
  pst_threads_bitwise_test(model.legendre_kernel.threads.${grid} ${grid}
    "kernel recurrence chunks cache comm-threads: @MAX_THREADS@ threads bit-identical to one$" 5 recurrence)
endforeach()
foreach(grid 1x1 1x2)
  pst_threads_bitwise_test(model.legendre_kernel.simd.threads.${grid} ${grid}
    "kernel simd chunks cache comm-threads: @MAX_THREADS@ threads bit-identical to one$" 5 simd)
endforeach()

# Bad input: one line naming the option and its values, exit 2, on 2 ranks too.
pst_bad_input_test(model.legendre_kernel.bad.nonsense 2 2
  "^pstswm model: error: --legendre-kernel: unknown value 'nonsense' \\(allowed: auto, dgemm, recurrence, simd\\)$"
  model --legendre-kernel nonsense --out ${PST_TEST_OUT})
pst_bad_input_test(model.legendre_kernel.bad.missing 1 2 "^pstswm model: error: --legendre-kernel needs a value \\(K\\)$"
  model --out ${PST_TEST_OUT} --legendre-kernel)
pst_bad_input_test(model.legendre_kernel.bad.isa 2 2
  "^pstswm model: error: --legendre-isa: unknown value 'sse4' \\(allowed: auto, baseline, avx2, avx512\\)$"
  model --legendre-isa sse4 --out ${PST_TEST_OUT})
