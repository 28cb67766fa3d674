#!/usr/bin/env bash
# Run a command as an ordinary user, the way a site's user installs pstswm: no root, a home of
# its own, a plain PATH (no root's pyenv, no /usr/local/sbin).  As root: as the user
# pstswm-tester (created on first use; UID/GID from useradd), in a login-free clean environment.
# Not root: as the caller, with the same clean environment.
#   as-user.sh [--keep-env VAR]... [--] COMMAND [ARGS...]
# Extra variables to pass through: --keep-env NAME (repeatable; e.g. CI, PIP_INDEX_URL).
# Exit code: the command's; 2 when the user cannot be made.
set -euo pipefail
user=pstswm-tester
keep=()
while (($#)); do
  case $1 in
    --keep-env) keep+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) break ;;
  esac
done
(($#)) || { echo "as-user: no command given" >&2; exit 2; }
if [[ $(id -u) == 0 ]]; then
  if ! id "$user" >/dev/null 2>&1; then
    useradd --create-home --shell /bin/bash --user-group "$user" 2>/dev/null || id "$user" >/dev/null 2>&1 ||
      { echo "as-user: cannot create the user $user (useradd failed)" >&2; exit 2; }
  fi
  home=$(getent passwd "$user" | cut -d: -f6)
  run=(setpriv --reuid="$user" --regid="$user" --init-groups --reset-env)
else
  user=$(id -un) home=$HOME
  run=()
fi
env=(HOME="$home" USER="$user" LOGNAME="$user" SHELL=/bin/bash LANG=C.UTF-8
     PATH=/usr/local/bin:/usr/bin:/bin TMPDIR=/tmp)
for v in "${keep[@]}"; do [[ -v $v ]] && env+=("$v=${!v}"); done
exec "${run[@]}" env -i "${env[@]}" "$@"
