#!/usr/bin/env bash
# Run every test (C unit + MPI via CTest, Python via pytest) against one MPI build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mpi=$1
echo "== tests with $mpi =="
ctest --test-dir "build/$mpi" --output-on-failure -j 2 --timeout 300
if [[ -d tests/python ]] && compgen -G "tests/python/test_*.py" >/dev/null; then
  PSTSWM_BUILD="build/$mpi" PSTSWM_MPI="$mpi" .venv/bin/python -m pytest -q tests/python
fi
