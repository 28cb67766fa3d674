#!/usr/bin/env bash
# The sanitizer pass of `make test` for one MPI: build with AddressSanitizer and
# UndefinedBehaviorSanitizer (build/<mpi>-sanitize), then run every unit test and fuzzer, every
# bad-input test (each parser and file reader) and a 1-2 rank subset of the runs: the tests
# marked sanitize (tests/marks.cmake).
#   test-sanitize.sh MPI [--mpi-paths-only]
# --mpi-paths-only (make test passes it for Open MPI when MPICH's pass runs too): only the tests
# whose code paths depend on the MPI (the 1-2 rank runs, outfile, watchdog); the unit tests,
# fuzzers and bad-input tests check pstswm's own parsers before any communication and run in the
# other MPI's pass.  They are launch-bound: a bad-input test takes 3.2 s with Open MPI's
# mpiexec/orted/PMIx start-up under ASan against 0.5-0.75 s with MPICH's Hydra (2-core Zen 3,
# load 14), which made Open MPI's pass 505 s against MPICH's 116 s.
# Options (docs/hardening.md): allocations past max_allocation_size_mb return NULL, which
# pstswm's allocator turns into exit 3, as under a real memory limit (ASan cannot run under
# `ulimit -v`).  Leak checking is off: the MPI libraries leak at MPI_Finalize and pstswm keeps
# its configuration until exit; every access and every operation is still checked.
set -euo pipefail
cd "$(dirname "$0")/../.."
mpi=$1
select=(-L "^sanitize$")
[[ ${2:-} != --mpi-paths-only ]] || select+=(-LE '^(unit|fuzz)$' -E '\.bad\.|^errors\.')
scripts/dev/build.sh "$mpi" Sanitize "$(nproc 2>/dev/null || echo 2)"
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=8192:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
echo "== sanitizer tests with $mpi${2:+ ($2)} =="
ctest --test-dir "build/$mpi-sanitize" --output-on-failure --no-tests=error -j 2 --timeout 300 "${select[@]}"
