# shellcheck shell=bash
# Sourced by bench/lib/harness.sh.  pstswm warns on stderr of every launch whose noise probe saw
# the host stall; on a noisy host that is nearly every launch, so the benches count those warnings
# and print one summary line, passing every other stderr line (and a failing launch's whole
# stderr) on.
#   noise_counted CMD...   run CMD (stdout as it is), count it and whether it warned
#   noise_summary          "# N of M launches warned ..."
noise_launches=0 noise_warned=0
noise_counted() {
  local err rc=0
  err=$(mktemp)
  "$@" 2>"$err" || rc=$?
  if ((rc)); then cat "$err" >&2; rm -f "$err"; return "$rc"; fi
  noise_launches=$((noise_launches + 1))
  if grep -q 'timings are noisy' "$err"; then noise_warned=$((noise_warned + 1)); fi
  grep -v 'timings are noisy' "$err" >&2 || true
  rm -f "$err"
}
noise_summary() {
  echo "# $noise_warned of $noise_launches launches warned that the host lost time in stalls (pstswm's noise probe before and after each run)"
}
