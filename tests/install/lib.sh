# What the install tests share (sourced; bash): one-line failures and skips, phase timings, and
# the hand-over of the rest of a test to the ordinary user of as-user.sh.  Set test_name first.
#   fail MESSAGE        exit 1 with "test_name: FAIL: MESSAGE"
#   skip MESSAGE        exit 77 with one line; under CI=true a skip is a failure
#   phase_start NAME / phase_end      print how long the phase took
#   hand_over WORK SCRIPT ARGS...     run `SCRIPT --as-user WORK ARGS...` as the ordinary user,
#       from copies of SCRIPT and of this file in WORK (given to the user), with the package
#       index and proxy variables passed through; WORK is removed after a pass or a skip and
#       kept (and named) after a failure.  Returns the script's exit code.
fail() { echo "$test_name: FAIL: $*" >&2; exit 1; }
skip() {
  [[ ${CI:-} == true ]] && fail "$* (CI=true: not skipping)"
  echo "$test_name: skipped: $*"
  exit 77
}
phase_start() { phase=$1 t0=$SECONDS; }
phase_end() { echo "$test_name: $phase: $((SECONDS - t0)) s"; }

hand_over() {
  local work=$1 script=$2 here rc=0
  shift 2
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  cp "$script" "$work/$(basename "$script")"
  cp "$here/lib.sh" "$work/lib.sh"
  [[ $(id -u) != 0 ]] || chown -R "$("$here/as-user.sh" id -un):" "$work"
  local pass=(CI PIP_INDEX_URL PIP_EXTRA_INDEX_URL PIP_CERT https_proxy HTTPS_PROXY no_proxy NO_PROXY) keep=() v
  for v in "${pass[@]}"; do keep+=(--keep-env "$v"); done
  "$here/as-user.sh" "${keep[@]}" bash "$work/$(basename "$script")" --as-user "$work" "$@" || rc=$?
  if ((rc == 0 || rc == 77)); then
    rm -rf "$work"
  else
    echo "$test_name: kept $work for a look" >&2
  fi
  return "$rc"
}
