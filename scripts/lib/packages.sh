# shellcheck shell=bash
# Debian packages a script needs, installed when they are missing (sourced; bash).
#   ensure_debian_packages WHO PACKAGE...
# As root with apt: installs the missing ones.  Otherwise says which are missing (prefixed
# "WHO: ") and returns 1, so the caller can go on with what is on PATH or stop.  Without dpkg
# (not Debian) nothing is checked.
ensure_debian_packages() {
  local who=$1 p missing=()
  shift
  command -v dpkg-query >/dev/null || return 0
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    echo "$who: installing ${missing[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "$who: not root or no apt; these Debian packages are missing: ${missing[*]}" >&2
    return 1
  fi
}
