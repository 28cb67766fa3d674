#!/usr/bin/env bash
# shellcheck over every shell file of scripts/ (what users run, scripts/dev/, the sourced
# scripts/lib/), following what they source; scripts/.shellcheckrc says what is allowed and why.
# Exit 77 (skipped) where shellcheck (Debian package shellcheck) is not installed.
#   shellcheck.sh ROOT
set -euo pipefail
cd "$1"
command -v shellcheck >/dev/null || { echo "shellcheck not installed (apt-get install shellcheck): skipped"; exit 77; }
mapfile -t files < <(git ls-files scripts 2>/dev/null | while read -r f; do
  [[ $f == *.sh || $(head -c 64 "$f") == '#!'*sh* ]] && echo "$f"; done)
((${#files[@]})) || mapfile -t files < <(find scripts -type f \( -name '*.sh' -o -name pstrun -o -name cluster -o -name '*.sbatch' \))
shellcheck -x "${files[@]}"
echo "shellcheck: ${#files[@]} files of scripts/ clean"
