#!/usr/bin/env bash
# Without root, scripts/cluster says so in one line and exits 2; the cluster tests then skip
# (exit 77) with that line, except under CI=true where the skip is a failure (exit 1).
set -uo pipefail
source "$(dirname "$0")/lib.sh"
# As root: as nobody; an ordinary user runs it as itself (it cannot switch users, and is not root).
as_nobody() {
  if [[ $(id -u) == 0 ]]; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi
}

out=$(as_nobody "$cluster" up 2>&1)
rc=$?
[[ $rc == 2 ]] || fail "scripts/cluster up without root exited $rc, expected 2: $out"
[[ $(wc -l <<<"$out") == 1 && $out == "cluster: not available here: needs root"* ]] || fail "not the one line: $out"
echo "without root: exit 2, $out"

out=$(CI= as_nobody "$root/tests/cluster/fixture.sh" up 2>&1)
rc=$?
[[ $rc == 77 && $out == *"not available here"* ]] || fail "a cluster test without root: exit $rc (expected 77, a skip): $out"
out=$(CI=true as_nobody "$root/tests/cluster/fixture.sh" up 2>&1)
rc=$?
[[ $rc == 1 && $out == *"CI=true"* ]] || fail "the same under CI=true: exit $rc (expected 1, a failure): $out"
echo "a cluster test without root skips (77), and fails under CI=true"
