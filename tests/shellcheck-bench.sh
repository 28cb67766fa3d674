#!/usr/bin/env bash
# shellcheck over every shell file of bench/ (the scripts and the sourced bench/lib/*.sh), following
# what they source.  Exit 77 (skipped) when shellcheck is not installed.
#   shellcheck-bench.sh ROOT
set -euo pipefail
command -v shellcheck >/dev/null || { echo "shellcheck not installed (apt-get install shellcheck): skipped"; exit 77; }
cd "$1"
shellcheck -x bench/*.sh bench/lib/*.sh
echo "shellcheck: bench/*.sh bench/lib/*.sh clean"
