#!/usr/bin/env bash
# Install a configured and built pstswm into a prefix: `cmake --install BUILD --prefix PREFIX`
# (cmake/install.cmake gives the layout), with its failures as the rest of pstswm's bad input:
# a prefix that cannot be written exits 2 with one line, and nothing is installed (the check
# runs before any file is copied).
#   scripts/install.sh BUILD_DIR PREFIX        (make install PREFIX=P [MPI=...] calls it)
set -euo pipefail
(($# == 2)) || { echo "install: usage: scripts/install.sh BUILD_DIR PREFIX" >&2; exit 2; }
build=$1 prefix=$2
[[ -f $build/cmake_install.cmake ]] ||
  { echo "install: '$build' is not a configured pstswm build (build it first: scripts/dev/build.sh MPI)" >&2; exit 2; }
[[ -n $prefix ]] || { echo "install: the prefix is empty" >&2; exit 2; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
rc=0
cmake --install "$build" --prefix "$prefix" >"$log" 2>&1 || rc=$?
line=$(grep -m1 '^pstswm: install prefix ' "$log") || true
if [[ -n $line ]]; then
  echo "install: ${line#pstswm: }" >&2
  exit 2
fi
cat "$log"
exit "$rc"
