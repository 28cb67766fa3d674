#!/usr/bin/env bash
# The sanitizer pass of `make test` for one MPI: build with AddressSanitizer and
# UndefinedBehaviorSanitizer (build/<mpi>-sanitize), then run every unit test and fuzzer, every
# bad-input test (each parser and file reader) and a 1-2 rank subset of the runs: the tests
# marked sanitize (tests/marks.cmake).
#   test-sanitize.sh MPI
# Options (docs/hardening.md): allocations past max_allocation_size_mb return NULL, which
# pstswm's allocator turns into exit 3, as under a real memory limit (ASan cannot run under
# `ulimit -v`).  Leak checking is off: the MPI libraries leak at MPI_Finalize and pstswm keeps
# its configuration until exit; every access and every operation is still checked.
set -euo pipefail
cd "$(dirname "$0")/../.."
mpi=$1
scripts/dev/build.sh "$mpi" Sanitize "$(nproc 2>/dev/null || echo 2)"
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=8192:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
echo "== sanitizer tests with $mpi =="
ctest --test-dir "build/$mpi-sanitize" --output-on-failure --no-tests=error -j 2 --timeout 300 -L "^sanitize$"
