#!/usr/bin/env bash
# What to run after a change (`make check`, CONTRIBUTING.md): set up and build one MPI, then the
# quick lanes: CTest's unit and tree tests and the 2-rank smoke of each subcommand (labels of
# tests/helpers.cmake), and pstlab's tests that need no MPI run (pytest -m "not mpi").
#   scripts/dev/check.sh MPI [AREA]
# AREA narrows to one area: the CTest tests labelled area:AREA (tests/cmake/AREA*.cmake and the
# unit tests named test_AREA*) but not the model matrix, installs, cluster or slow ones, and, when
# AREA is one of pstlab's layers (core io stats benches analysis report run simulate cli), pytest -m AREA.
set -euo pipefail
cd "$(dirname "$0")/../.."
mpi=${1:?usage: scripts/dev/check.sh MPI [AREA]}
area=${2:-}
layers=" core io stats benches analysis report run simulate cli "
scripts/dev/setup.sh "$mpi"
scripts/dev/build.sh "$mpi" Release "$(nproc 2>/dev/null || echo 2)"
if [[ -z $area ]]; then
  ctest_select=(-L '^(unit|tree|smoke)$' -LE '^slow$')
  pytest_select="not mpi"
else
  ctest_select=(-L "^area:$area\$" -LE '^(model-matrix|install|cluster|slow)$')
  pytest_select=
  [[ $layers == *" $area "* ]] && pytest_select="$area and not mpi"
  if [[ -z $pytest_select ]] && ! ctest --test-dir "build/$mpi" -N -L "^area:$area\$" | grep -q "Total Tests: [1-9]"; then
    echo "check: no area '$area': a CTest area (ctest --test-dir build/$mpi --print-labels) or a pstlab layer:$layers" >&2
    exit 2
  fi
fi
echo "== check with $mpi${area:+, area $area} =="
# Both halves run even when the first fails, so one check shows every failure.
rc=0
ctest --test-dir "build/$mpi" --output-on-failure -j 2 --timeout 300 "${ctest_select[@]}" --no-tests=ignore || rc=1
if [[ -n $pytest_select ]]; then
  # On both cores (pytest-xdist, a test file a worker: a file's module fixtures are made once).
  .venv/bin/python -m pytest -q tests/python -m "$pytest_select" -n 2 --dist loadfile || rc=1
fi
exit $rc
