# The yardsticks of bench/model.sh: each one runs small and checks its own result (a wrong DGEMM
# entry or triad value is exit 3); bad input is exit 2 with the reason.
pst_kind(mpi)
set(pst_ys $<TARGET_FILE:pst_yardstick>)
add_test(NAME yardstick.dgemm COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-output.sh
  "\"what\":\"dgemm\",\"n\":64,.*\"gflops_med\":[0-9]" -- ${pst_ys} dgemm --n 64 --reps 3)
add_test(NAME yardstick.fft COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-output.sh
  "\"what\":\"fft_best\",\"nlon\":32,\"r2c\":40,\"c2r\":25,\"batch\":(4|8)," -- ${pst_ys} fft --nlon 32 --r2c 40 --c2r 25 --batches 4,8 --reps 3 --plan estimate)
add_test(NAME yardstick.legendre COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-output.sh
  "\"what\":\"legendre_analysis\",\"blas\":\"openblas\",\"operands\":\"cache\",\"trunc\":21,\"pairs\":16,\"columns\":8," -- ${pst_ys} legendre --trunc 21 --columns 4,8 --reps 3)
# Each library of --blas in turn, each checked against known entries (a wrong product is exit 3);
# blis-sup apart: it runs, or where BLIS has no small-matrix kernels for this CPU it is refused by name.
add_test(NAME yardstick.legendre_libraries COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-output.sh
  "\"what\":\"legendre_synthesis\",\"blas\":\"blis\",\"operands\":\"cache\",\"trunc\":21,\"pairs\":16,\"columns\":13,"
  -- ${pst_ys} legendre --trunc 21 --columns 13 --blas openblas,blis --reps 3)
add_test(NAME yardstick.legendre_blis_sup COMMAND ${CMAKE_SOURCE_DIR}/tests/blas-value.sh blis-sup
  --stdout "\"what\":\"legendre_synthesis\",\"blas\":\"blis-sup\",\"operands\":\"cache\",\"trunc\":21,\"pairs\":16,\"columns\":13,"
  -- ${pst_ys} legendre --trunc 21 --columns 13 --reps 3)
add_test(NAME yardstick.bad.blas COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2
  "pst_yardstick: --blas mkl: unknown \\(allowed: openblas, blis, blis-sup\\)" - -- ${pst_ys} legendre --trunc 21 --blas openblas,mkl)
add_test(NAME yardstick.bad.blas_twice COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2
  "pst_yardstick: --blas openblas: listed twice" - -- ${pst_ys} legendre --trunc 21 --blas openblas,blis,openblas)
# Operands in cache, in the model's wavenumber-major buffer, and from memory (caches flushed):
# each checked like the others.
add_test(NAME yardstick.legendre_operands COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-output.sh
  "\"what\":\"legendre_analysis\",\"blas\":\"openblas\",\"operands\":\"memory\",\"trunc\":21,"
  -- ${pst_ys} legendre --trunc 21 --columns 8 --operands cache,buffer,memory --reps 2)
add_test(NAME yardstick.bad.operands COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2
  "pst_yardstick: --operands disk: unknown \\(allowed: cache, buffer, memory\\)" - -- ${pst_ys} legendre --trunc 21 --operands cache,disk)
add_test(NAME yardstick.stream COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-output.sh
  "\"what\":\"stream_triad\",\"mib_per_array\":2,.*\"gbs_med\":[0-9]" -- ${pst_ys} stream --mb 2 --reps 3)
add_test(NAME yardstick.bad.option COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2
  "pst_yardstick: --n wants an integer in \\[1, 20000\\], got '0'" - -- ${pst_ys} dgemm --n 0)
add_test(NAME yardstick.bad.fft COMMAND ${CMAKE_SOURCE_DIR}/tests/expect-fail.sh 2
  "pst_yardstick: fft wants --nlon, --r2c and --c2r" - -- ${pst_ys} fft --nlon 32)
set_tests_properties(yardstick.dgemm yardstick.fft yardstick.legendre yardstick.legendre_libraries yardstick.legendre_blis_sup
  yardstick.legendre_operands yardstick.stream
  yardstick.bad.option yardstick.bad.fft yardstick.bad.blas yardstick.bad.blas_twice yardstick.bad.operands PROPERTIES TIMEOUT 60)
