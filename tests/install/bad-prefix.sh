#!/usr/bin/env bash
# An install into a prefix that cannot be written, as an ordinary user (tests/install/as-user.sh):
# scripts/install.sh exits 2 with one line naming the prefix, also when only a directory inside
# it is read-only, and nothing is written; `cmake --install` itself fails with that line too.
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
[[ $(id -u) == 0 ]] && chown "$("$here/as-user.sh" id -un):" "$work"
"$here/as-user.sh" bash "$0" --as-user "$build" "$work" "$(cd "$here/../.." && pwd)"
