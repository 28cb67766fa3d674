#!/usr/bin/env bash
# The source tarball a site builds from (EasyBuild, Spack, a plain prefix install):
#   scripts/dev/dist.sh [OUTDIR]   ->  OUTDIR/pstswm-<version>.tar.gz   (default OUTDIR: dist/)
# It holds the files git knows plus the new ones it does not ignore (so a tree with work not yet
# committed can be tried the way a site would), under pstswm-<version>/, and a COMMIT file naming
# the commit (cmake/git-commit.cmake reads it where there is no .git).  Prints the tarball's path.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-dist}
version=$(sed -n 's/^project(pstswm VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[[ -n $version ]] || { echo "dist: no 'project(pstswm VERSION ...)' in CMakeLists.txt" >&2; exit 2; }
command -v git >/dev/null && git rev-parse --git-dir >/dev/null 2>&1 ||
  { echo "dist: $(pwd) is not a git checkout (the tarball lists the files git knows)" >&2; exit 2; }
mkdir -p "$out" 2>/dev/null && [[ -w $out ]] || { echo "dist: cannot write to '$out'" >&2; exit 2; }
commit=$(git rev-parse --short=12 HEAD)
git diff --quiet HEAD -- && [[ -z $(git ls-files -o --exclude-standard) ]] || commit+=-dirty
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
name=pstswm-$version
mkdir "$stage/$name"
# Files deleted in the work tree but still in the index are left out (tar would fail on them).
git ls-files -z -co --exclude-standard | while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done |
  tar -c --null -T - | tar -x -C "$stage/$name"
echo "$commit" >"$stage/$name/COMMIT"
tarball=$(cd "$out" && pwd)/$name.tar.gz
tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$tarball.tmp" "$name"
mv "$tarball.tmp" "$tarball"
echo "$tarball"
