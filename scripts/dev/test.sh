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
  select=()
  [[ ${2:-} != --mpi-runs-only ]] || select=(-m mpi)
  PSTSWM_BUILD="build/$mpi" PSTSWM_MPI="$mpi" .venv/bin/python -m pytest -q tests/python "${select[@]}"
fi
