# Threads per rank in the model and the kernel (--threads): the records say how many threads ran,
# where they came from and where they ran; threads on a row and a column keep case 2 at round-off;
# oversubscription is counted in threads; bad thread counts and levels are refused.  That threads
# change no bit of the model is model.threads.bitwise.* (model_parallel.cmake).
pst_kind(mpi)
set(THREAD_FAST --trunc 21 --levels 4 --steps 4 --warmup 1 --fftw-plan estimate --blas openblas)
pst_records_test(model.threads.records 1 CHECKS
  "header['threads'] == 2 and header['threads_source'] == '--threads'"
  "header['binding'][0]['threads'] == 2 and len(header['binding'][0]['thread_cpus'].split(',')) == 2"
  "header['thread_level_provided'] in ('funneled', 'serialized', 'multiple')"
  "points[0]['threads'] == 2 and points[0]['thread_wait_s'] >= 0 and points[0]['h_l2'] < 1e-12"
  ARGS model --threads 2 ${THREAD_FAST})
pst_records_test(model.threads.row_2x1 2 CHECKS
  "header['threads'] == 2 and points[0]['grid'] == '2x1' and points[0]['h_l2'] < 1e-12 and points[0]['fft_comm_s'] > 0"
  ARGS model --grid 2x1 --threads 2 ${THREAD_FAST})
pst_records_test(model.threads.column_1x2 2 CHECKS
  "header['threads'] == 2 and points[0]['grid'] == '1x2' and points[0]['h_l2'] < 1e-12 and points[0]['legendre_comm_s'] > 0"
  ARGS model --grid 1x2 --threads 2 ${THREAD_FAST})
# 2 ranks x 3 threads on this 2-core host: oversubscribed, counted in threads.
pst_records_test(model.threads.oversubscribed 2 CHECKS
  "header['oversubscribed'] is True and all(b['threads'] == 3 for b in header['binding'])"
  ARGS model --grid 1x2 --threads 3 ${THREAD_FAST})
# OMP_NUM_THREADS when --threads is absent (the model honours it; pstrun leaves it alone then).
set(out ${CMAKE_CURRENT_BINARY_DIR}/model.threads.omp_num_threads.jsonl)
add_test(NAME model.threads.omp_num_threads COMMAND ${CMAKE_SOURCE_DIR}/tests/records-test.sh ${out}
  -- ${PSTRUN} -n 1 $<TARGET_FILE:pstswm> model ${THREAD_FAST} --out ${out}
  -- "header['threads'] == 2 and header['threads_source'] == 'OMP_NUM_THREADS' and points[0]['threads'] == 2")
set_tests_properties(model.threads.omp_num_threads PROPERTIES TIMEOUT 120 PROCESSORS 1 ENVIRONMENT OMP_NUM_THREADS=2)
# The kernel's vector sums share their dgemms' rows among the threads; verified as always.
pst_records_test(kernel.threads.sums 2 CHECKS
  "header['threads'] == 2 and header['threads_source'] == '--threads'"
  "points and all(p.get('verified', True) is not False for p in points)"
  ARGS kernel --grid 1x2 --algorithms halfsum,ringpipe --protocols 0,6 --overlap off --trunc 21 --levels 4 --reps 3 --threads 2)

foreach(bad "0;0 is out of range" "-3;-3 is out of range" "abc;'abc' is not an integer" "1025;1025 is out of range")
  list(GET bad 0 value)
  list(GET bad 1 message)
  pst_bad_input_test(model.bad.threads_${value} 1 2 "--threads: ${message}" model --threads ${value} ${THREAD_FAST} --out ${PST_TEST_OUT})
endforeach()
pst_bad_input_test(kernel.bad.threads_0 1 2 "--threads: 0 is out of range" kernel --threads 0 --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.threads_level 1 2 "--threads 2 needs MPI_THREAD_FUNNELED or more. asked for single"
  model --threads 2 --thread-level single ${THREAD_FAST} --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.comm_threads_level 1 2 "--comm-threads needs MPI_THREAD_MULTIPLE. asked for funneled"
  model --threads 2 --comm-threads --thread-level funneled ${THREAD_FAST} --out ${PST_TEST_OUT})
add_test(NAME model.bad.omp_num_threads COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2
  "OMP_NUM_THREADS='abc' is not a thread count from 1 to 1024" ${PST_TEST_OUT}
  -- ${PSTRUN} -n 1 $<TARGET_FILE:pstswm> model ${THREAD_FAST} --out ${PST_TEST_OUT})
set_tests_properties(model.bad.omp_num_threads PROPERTIES TIMEOUT 60 ENVIRONMENT OMP_NUM_THREADS=abc)
# --comm-threads: the threads share out the level blocks with their own transposes and sums.
pst_records_test(model.threads.comm_threads_2x1 2 CHECKS
  "header['thread_level_provided'] == 'multiple' and points[0]['comm_threads'] is True and points[0]['threads'] == 2"
  "points[0]['h_l2'] < 1e-12 and points[0]['fft_comm_s'] > 0"
  ARGS model --grid 2x1 --threads 2 --comm-threads --level-block 2 ${THREAD_FAST})
pst_bad_input_test(model.bad.comm_threads_one 1 2 "--comm-threads shares the level blocks among the threads: give --threads 2 or more"
  model --comm-threads ${THREAD_FAST} --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.comm_threads_blocks 1 2 "--comm-threads with 2 threads needs 2 level blocks or more"
  model --comm-threads --threads 2 ${THREAD_FAST} --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.sync_wait_comm_threads 2 2 "--sync-wait times the master's communication. with --comm-threads"
  model --grid 1x2 --comm-threads --threads 2 --level-block 2 --sync-wait ${THREAD_FAST} --out ${PST_TEST_OUT})
pst_bad_input_test(model.bad.comm_threads_pipeline 2 2 "--comm-threads and --level-pipeline both overlap"
  model --grid 1x2 --legendre allreduce --comm-threads --threads 2 --level-block 2 --level-pipeline ${THREAD_FAST} --out ${PST_TEST_OUT})
