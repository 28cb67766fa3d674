#!/usr/bin/env bash
# An install into a prefix that cannot be written, as an ordinary user (tests/install/as-user.sh):
# scripts/install.sh exits 2 with one line naming the prefix, also when only a directory inside
# it is read-only, and nothing is written; `cmake --install` itself fails with that line too.
# As root, first: a prefix under /proc (which root may "write" by its permission bits) likewise.
#   tests/install/bad-prefix.sh BUILD_DIR       (a configured and built pstswm build)
set -euo pipefail
fail() { echo "bad-prefix test: FAIL: $*" >&2; exit 1; }

if [[ ${1:-} == --as-user ]]; then
  build=$2 work=$3 src=$4
  mkdir "$work/ro" "$work/partial" "$work/partial/share"
  chmod a-w "$work/ro" "$work/partial/share"
  rc=0
  out=$("$src/scripts/install.sh" "$build" "$work/ro/p" 2>&1) || rc=$?
  [[ $rc == 2 && $out == "install: install prefix '$work/ro/p' is not writable ('$work/ro' cannot be written)" ]] ||
    fail "scripts/install.sh into an unwritable prefix: exit $rc, said: $out"
  rc=0
  out=$("$src/scripts/install.sh" "$build" "$work/partial" 2>&1) || rc=$?
  [[ $rc == 2 && $(wc -l <<<"$out") == 1 && $out == *"('$work/partial/share' cannot be written)" ]] ||
    fail "scripts/install.sh into a prefix whose share/ is read-only: exit $rc, said: $out"
  rc=0
  out=$(cmake --install "$build" --prefix "$work/ro/q" 2>&1) || rc=$?
  [[ $rc != 0 && $out == *"pstswm: install prefix '$work/ro/q' is not writable"* ]] ||
    fail "cmake --install into an unwritable prefix: exit $rc, said: $out"
  [[ -z $(ls -A "$work/ro") && $(ls -A "$work/partial") == share && -z $(ls -A "$work/partial/share") ]] ||
    fail "a refused install wrote: $(find "$work/ro" "$work/partial" -mindepth 1 | head -3)"
  chmod u+w "$work/ro" "$work/partial/share"
  echo "ok: unwritable prefixes refused with exit 2 and one line, nothing written"
  exit
fi

build=$(cd "${1:?usage: tests/install/bad-prefix.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
[[ -f $build/cmake_install.cmake ]] || fail "$build is not a configured build"
work=$(mktemp -d /tmp/pstswm-bad-prefix.XXXXXX)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
if [[ $(id -u) == 0 ]]; then
  # Root passes every permission check: a prefix on a file system that takes no files (/proc)
  # must be refused all the same, before anything is tried.
  rc=0
  out=$("$here/../../scripts/install.sh" "$build" /proc/pstswm-prefix 2>&1) || rc=$?
  [[ $rc == 2 && $out == "install: install prefix '/proc/pstswm-prefix' is not writable ('/proc' cannot be written)" ]] ||
    fail "as root, scripts/install.sh into /proc/pstswm-prefix: exit $rc, said: $out"
  chown "$("$here/as-user.sh" id -un):" "$work"
fi
"$here/as-user.sh" bash "$0" --as-user "$build" "$work" "$(cd "$here/../.." && pwd)"
