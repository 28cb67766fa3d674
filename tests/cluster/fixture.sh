#!/usr/bin/env bash
# CTest fixture of the cluster tests: `fixture.sh up` brings the emulated cluster up (skips where
# it cannot: exit 77), `fixture.sh down` takes it down, also after failed tests.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
case $1 in
  up) need_cluster 2; "$cluster" status ;;
  down)
    "$cluster" down
    rc=$?
    ((rc == 2)) && exit 77
    exit $rc
    ;;
esac
