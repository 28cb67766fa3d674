#!/usr/bin/env bash
# pstlab installed the way a site's user installs it, against an installed pstswm: this build
# installed into a scratch prefix P (cmake --install), then as the user of tests/install/as-user.sh
# a wheel built from python/, a fresh venv (python3 -m venv) with the wheel pip-installed (its
# dependencies from the package index; the user's pip cache makes reruns fast), and in an empty
# directory with P/bin and the venv on PATH: `pstlab --version` names P's pstswm, an unknown suite
# is refused in one line naming P's share directory, `pstlab run quick --dry-run` finds P's quick
# suite, and a run of one of its experiments with --pstswm P/bin/pstswm writes results/*/report.md
# and report.html there (the whole suite runs installed in install.easybuild).  Where pipx
# is on PATH, `pipx install` of the wheel too.
#   tests/install/end-to-end.sh BUILD_DIR       install BUILD_DIR into a scratch prefix
#   tests/install/end-to-end.sh --prefix P      an installed prefix instead (P/bin/pstswm, P/bin/pstrun)
# Each phase's time goes to stdout.  Exit: 0 passed; 77 skipped with one line (no package index
# reachable), except under CI=true, where that fails; 1 failed (the scratch directory is kept
# and named); 2 bad usage.
set -euo pipefail

test_name="pstlab end-to-end"
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The part run as the ordinary user: WORK holds python/ (as src/) and a copy of this script.
as_user() {
  local work=$1 prefix=$2
  local venv=$work/venv empty=$work/empty out rc
  phase_start "venv"
  python3 -m venv "$venv" || fail "python3 -m venv $venv (Debian: apt-get install python3-venv)"
  "$venv/bin/pip" --timeout 10 --retries 1 index versions setuptools >/dev/null 2>&1 ||
    skip "no package index reachable (pip index versions setuptools failed)"
  phase_end

  phase_start "wheel (pip wheel --no-deps python/)"
  "$venv/bin/pip" wheel -q --no-deps "$work/src" -w "$work/wheels" >"$work/wheel.log" 2>&1 ||
    fail "pip wheel python/: $(tail -n 1 "$work/wheel.log")"
  local wheel
  wheel=$(echo "$work"/wheels/pstlab-*-py3-none-any.whl)
  [[ -f $wheel ]] || fail "pip wheel wrote no pstlab wheel into $work/wheels"
  # The listing is read whole: `unzip | grep -q` under pipefail fails when grep exits first.
  local listing
  listing=$(unzip -Z1 "$wheel") || fail "unzip -Z1 $wheel: exit $?"
  grep -qx "pstlab/io/schema.json" <<<"$listing" || fail "the wheel lacks pstlab/io/schema.json"
  phase_end

  phase_start "pip install the wheel"
  "$venv/bin/pip" install -q "$wheel" >"$work/pip.log" 2>&1 || fail "pip install $wheel: $(tail -n 1 "$work/pip.log")"
  phase_end

  mkdir "$empty"
  cd "$empty"
  export PATH=$venv/bin:$prefix/bin:$PATH
  [[ $(command -v pstlab) == "$venv/bin/pstlab" ]] || fail "pstlab on PATH is $(command -v pstlab), not the venv's"
  out=$(pstlab --version 2>&1) || fail "pstlab --version: exit $?: $out"
  [[ $(sed -n 1p <<<"$out") == "pstlab "* ]] || fail "pstlab --version, first line: $out"
  [[ $(sed -n 2p <<<"$out") == "pstswm: $prefix/bin/pstswm (from PATH): pstswm "* ]] ||
    fail "pstlab --version does not name $prefix/bin/pstswm: $out"

  rc=0
  out=$(pstlab run nosuch 2>&1) || rc=$?
  [[ $rc == 2 && $(wc -l <<<"$out") == 1 && $out == *"unknown suite 'nosuch' (available: "*quick*"; looked in $prefix/share/pstswm/suites"* ]] ||
    fail "pstlab run nosuch: exit $rc, said: $out"

  # The whole quick suite runs installed in install.easybuild (the module's pstlab, the same
  # quick.toml): here P's quick suite by name as a dry run, and one of its experiments for real.
  out=$(pstlab run quick --dry-run --max-ranks 2 --pstswm "$prefix/bin/pstswm" 2>&1) || fail "pstlab run quick --dry-run: exit $?: $out"
  [[ $out == *"suite quick: "*"$prefix/bin/pstswm"* ]] || fail "pstlab run quick --dry-run does not run $prefix/bin/pstswm: $out"
  awk -v name=coll-alloc-warm 'BEGIN { RS = "\n\\[\\[experiment\\]\\]\n" }
    index($0, "name = \"" name "\"") == 1 { print "[[experiment]]"; print }' \
    "$prefix/share/pstswm/suites/quick.toml" >"$work/quick-one.toml"
  grep -q '^subcommand = "coll"$' "$work/quick-one.toml" || fail "no experiment coll-alloc-warm in $prefix/share/pstswm/suites/quick.toml"
  phase_start "pstlab run quick-one.toml"
  rc=0
  pstlab run "$work/quick-one.toml" --pstswm "$prefix/bin/pstswm" >"$work/quick.log" 2>&1 || rc=$?
  phase_end
  ((rc == 0)) || fail "pstlab run quick-one.toml: exit $rc ($work/quick.log: $(tail -n 1 "$work/quick.log"))"
  local results
  results=$(echo "$empty"/results/*-quick-one-*)
  [[ -f $results/report.md && -f $results/report.html ]] || fail "no results/*-quick-one-*/report.md and report.html in $empty"
  grep -q "\"pstswm\": \"$(readlink -f "$prefix/bin/pstswm")\"" "$results/manifest.json" ||
    fail "$results/manifest.json does not name $prefix/bin/pstswm"
  # Where the quick suite's time goes, slowest first.
  "$venv/bin/python" - "$results/manifest.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["experiments"]
for e in sorted(runs, key=lambda e: -e.get("elapsed_s", 0)):
    print(f"  {e['name']:<24} {e['status']:<8} {e.get('elapsed_s', 0):6.1f} s")
PY

  if command -v pipx >/dev/null; then
    phase_start "pipx install the wheel"
    PIPX_HOME=$work/pipx PIPX_BIN_DIR=$work/pipx-bin pipx install "$wheel" >"$work/pipx.log" 2>&1 ||
      fail "pipx install $wheel: $(tail -n 1 "$work/pipx.log")"
    out=$("$work/pipx-bin/pstlab" --version 2>&1) || fail "pipx's pstlab --version: $out"
    [[ $out == *"pstswm: $prefix/bin/pstswm (from PATH)"* ]] || fail "pipx's pstlab --version: $out"
    phase_end
  fi
}

if [[ ${1:-} == --as-user ]]; then
  as_user "$2" "$3"
  exit
fi

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
case ${1:-} in
  --prefix) (($# == 2)) && [[ -x $2/bin/pstswm ]] || { echo "end-to-end: --prefix needs an installed prefix (P/bin/pstswm)" >&2; exit 2; } ;;
  '') echo "end-to-end: usage: tests/install/end-to-end.sh BUILD_DIR | --prefix P" >&2; exit 2 ;;
  *) [[ -f $1/cmake_install.cmake ]] || { echo "end-to-end: '$1' is not a configured pstswm build" >&2; exit 2; } ;;
esac
work=$(mktemp -d /tmp/pstswm-pstlab-e2e.XXXXXX)
chmod 755 "$work"
if [[ $1 == --prefix ]]; then
  prefix=$(cd "$2" && pwd)
else
  prefix=$work/prefix
  phase_start "cmake --install"
  cmake --install "$1" --prefix "$prefix" >"$work/install.log" 2>&1 || fail "cmake --install $1: $(tail -n 1 "$work/install.log")"
  [[ -x $prefix/bin/pstswm && -x $prefix/bin/pstrun && -f $prefix/share/pstswm/suites/quick.toml ]] ||
    fail "cmake --install $1 --prefix $prefix: no bin/pstswm, bin/pstrun and share/pstswm/suites/quick.toml"
  phase_end
fi
# python/ without what a build or an editable install left in it.
mkdir "$work/src"
tar -C "$root/python" --exclude='*.egg-info' --exclude=__pycache__ --exclude=build -cf - . | tar -C "$work/src" -xf -
rc=0
hand_over "$work" "$0" "$prefix" || rc=$?
exit "$rc"
