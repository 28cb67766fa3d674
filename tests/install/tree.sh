#!/usr/bin/env bash
# This build installed into a scratch prefix (scripts/install.sh, as the caller): the installed
# pstrun, without --mpi, launches with this build's MPI (a 2-rank swap from an empty directory),
# the installed pstswm --version names that MPI, ldd resolves every library with no
# LD_LIBRARY_PATH, and the binary's RUNPATH names neither the build tree nor the sources (so it
# keeps working when they are gone; tests/install/prefix.sh deletes them).
#   tests/install/tree.sh BUILD_DIR MPI
set -euo pipefail
fail() { echo "tree install test: FAIL: $*" >&2; exit 1; }
build=$(cd "${1:?usage: tests/install/tree.sh BUILD_DIR MPI}" && pwd) mpi=${2:?usage: tests/install/tree.sh BUILD_DIR MPI}
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/pstswm-tree-install.XXXXXX)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

"$src/scripts/install.sh" "$build" "$prefix" >"$work/install.log" || fail "install: $(tail -n 3 "$work/install.log")"
grep -qx "default_mpi=$mpi" "$prefix/bin/pstrun" || fail "the installed pstrun's default MPI is not $mpi"
runpath=$(readelf -d "$prefix/bin/pstswm" | grep -E 'R(UN)?PATH' || true)
[[ $runpath != *"$build"* && $runpath != *"$src"* ]] || fail "the installed pstswm's RUNPATH names the build or sources: $runpath"
out=$(env -u LD_LIBRARY_PATH ldd "$prefix/bin/pstswm")
grep -q "not found" <<<"$out" && fail "ldd: $(grep 'not found' <<<"$out")"

out=$("$prefix/bin/pstswm" --version) || fail "pstswm --version: $out"
declare -A library=([openmpi]="Open MPI" [mpich]="MPICH" [system]="")
grep -qx "MPI flavour: $mpi" <<<"$out" && grep -q "^MPI library: ${library[$mpi]:-}" <<<"$out" ||
  fail "pstswm --version does not name the $mpi build and its library: $out"

mkdir "$work/empty"
(cd "$work/empty" && env -u PSTRUN_MPI "$prefix/bin/pstrun" -n 2 "$prefix/bin/pstswm" swap --protocols 0,6 --sizes 8 \
  --reps 2 --warmup 1 --timeout 60 --out swap.jsonl) >"$work/swap.log" 2>&1 || fail "pstrun swap: $(tail -n 3 "$work/swap.log")"
grep -q '"verified": *true' "$work/empty/swap.jsonl" || fail "the swap wrote no verified point"
echo "ok: the installed pstrun launched the $mpi build; $(head -1 <<<"$out")"
