#!/usr/bin/env bash
# Rewrap the C lines longer than 120 characters (the rule of CONTRIBUTING.md, checked by
# tests/check-line-length.py) with clang-format and the project's .clang-format, touching only
# the statements those lines are part of (clang-format lays out whole statements): the rest of
# each file keeps its layout.  Without FILE, every C file the rule covers.
# Usage: scripts/dev/rewrap.sh [FILE...]
# Exits 1 when a line is still too long afterwards (listed: rewrap it by hand), 2 without clang-format.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
check=$root/tests/check-line-length.py
command -v clang-format >/dev/null || { echo "rewrap: clang-format is not on PATH (Debian: clang-format)" >&2; exit 2; }
# The check lists the offenders relative to the root when it is given no files.
(($#)) || cd "$root"

declare -A ranges=()
while IFS=: read -r file line _; do
  ranges[$file]+=" --lines=$line:$line"
done < <("$check" "$root" "$@" | grep -E '^[^ ]+:[0-9]+: ' || true)

for file in "${!ranges[@]}"; do
  read -ra lines <<<"${ranges[$file]}"
  clang-format -i --style=file "${lines[@]}" "$file"
done
echo "rewrap: ${#ranges[@]} file(s) rewrapped"
"$check" "$root" "$@"
