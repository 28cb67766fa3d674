#!/bin/bash
# cmake/git-commit.cmake in a scratch repository: the commit, "-dirty" for changed tracked files
# (not for a file only touched), a new commit rewrites the header, an unchanged one leaves it
# alone (nothing recompiles), and "unknown" outside git
# unless a source tarball's COMMIT file names it.  Then the built binary: its --version names the commit the sources are
# at now (a binary built after a commit without reconfiguring used to name the configure's).
#   git-commit-test.sh SOURCE_DIR PSTSWM_COMMAND...
set -euo pipefail
src=$(cd "$1" && pwd); shift
script=$src/cmake/git-commit.cmake
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
header() { cmake -DSRC="$tmp/repo" -DOUT="$tmp/h" -P "$script" && cat "$tmp/h"; }
git() { command git -c user.name=t -c user.email=t@t -c init.defaultBranch=main "$@"; }

(
mkdir "$tmp/repo" && cd "$tmp/repo" && git init -q . && echo a > f && git add f && git commit -qm one
c1=$(git rev-parse --short=12 HEAD)
[[ $(header) == "#define PST_GIT_COMMIT \"$c1\"" ]] || fail "clean tree: $(cat "$tmp/h")"
touch -d '2000-01-01' "$tmp/h"
header > /dev/null
[[ $(stat -c %Y "$tmp/h") == $(date -d '2000-01-01' +%s) ]] || fail "unchanged commit rewrote the header"
touch -d '2001-01-01' f
[[ $(header) == "#define PST_GIT_COMMIT \"$c1\"" ]] || fail "a file only touched made the tree dirty: $(cat "$tmp/h")"
echo b > f
[[ $(header) == "#define PST_GIT_COMMIT \"$c1-dirty\"" ]] || fail "changed file: $(cat "$tmp/h")"
git commit -qam two
c2=$(git rev-parse --short=12 HEAD)
[[ $c2 != "$c1" && $(header) == "#define PST_GIT_COMMIT \"$c2\"" ]] || fail "new commit: $(cat "$tmp/h")"
rm -rf .git
[[ $(header) == '#define PST_GIT_COMMIT "unknown"' ]] || fail "outside git: $(cat "$tmp/h")"
echo 0123456789ab-dirty > COMMIT
[[ $(header) == '#define PST_GIT_COMMIT "0123456789ab-dirty"' ]] || fail "source tarball's COMMIT: $(cat "$tmp/h")"
)

if ! now=$(command git -C "$src" rev-parse --short=12 HEAD 2>/dev/null); then
    echo "sources are not a git checkout: binary check skipped"; exit 0
fi
version=$("$@" --version)
[[ $version == *"($now)"* || $version == *"($now-dirty)"* ]] ||
    fail "binary says '$version', sources are at $now (rebuild, or the commit is taken at configure time)"
echo "ok: $version"
