#!/usr/bin/env bash
# Run every test (C unit + MPI via CTest, Python via pytest) against one MPI build.
#   test.sh MPI [--mpi-runs-only]
# --mpi-runs-only (make test passes it for MPICH when Open MPI's pass runs too): pytest runs only
# the tests marked mpi, those that launch this build; the rest use the fake pstswm and give the
# same result under either MPI, so they run once, in the other pass.
set -euo pipefail
cd "$(dirname "$0")/../.."
mpi=$1
echo "== tests with $mpi =="
ctest --test-dir "build/$mpi" --output-on-failure -j 2 --timeout 300
if [[ -d tests/python ]] && compgen -G "tests/python/test_*.py" >/dev/null; then
  export PSTSWM_BUILD="build/$mpi" PSTSWM_MPI="$mpi"
  # The tests without MPI on both cores (pytest-xdist, a test file a worker); those that launch
  # this build one at a time, as CTest runs its MPI tests.  Both run even when the first fails.
  rc=0
  if [[ ${2:-} != --mpi-runs-only ]]; then
    .venv/bin/python -m pytest -q tests/python -m "not mpi" -n 2 --dist loadfile || rc=1
  fi
  .venv/bin/python -m pytest -q tests/python -m mpi || rc=1
  exit $rc
fi
