#!/usr/bin/env bash
# Build and install a SimGrid release other than Debian's (libsimgrid-dev 3.32), for SMPI only:
# SimGrid 4.1 keeps its detached communications in a set (3.32 searches a list, a quarter of the
# simulation's time at 2,048 ranks), which bench/predict-scale.sh measures.
#   scripts/install-simgrid.sh [--prefix DIR] [--jobs N] VERSION
# VERSION is one whose sdist SHA-256 this script knows (4.1).  The sdist comes from PyPI through
# pip; the install goes to DIR (default ${XDG_CACHE_HOME:-$HOME/.cache}/pstswm/simgrid-VERSION),
# the build log beside it (DIR.build.log).  A DIR whose bin/smpirun is already that version is
# reused as it is.  Prints DIR on standard output (everything else goes to standard error), so
#   PATH=$(scripts/install-simgrid.sh 4.1)/bin:$PATH scripts/dev/build.sh smpi Release 2
# builds pstswm against it (in build/smpi-4.1).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/packages.sh

# The sdists' SHA-256 as PyPI lists them: a download that differs is refused.
declare -A sdist_sha256=(
  [4.1]=23ac24cb5b2467f1f051c992ec921b4a9f8f5ac2df16c489bd01bf1c44e6e817
)
usage() { sed -n '5,11p' "$0" | sed 's/^# \{0,1\}//'; }
die_usage() { echo "install-simgrid: $1" >&2; usage >&2; exit 2; }

prefix="" jobs=$(nproc) version=""
while (($#)); do
  case "$1" in
    --prefix) (($# >= 2)) || die_usage "--prefix needs a directory"; prefix=$2; shift 2 ;;
    --jobs) (($# >= 2)) && [[ $2 =~ ^[1-9][0-9]*$ ]] || die_usage "--jobs needs a positive count"; jobs=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) die_usage "unknown option '$1'" ;;
    *) [[ -z $version ]] || die_usage "one VERSION only (got '$version' and '$1')"; version=$1; shift ;;
  esac
done
[[ -n $version ]] || die_usage "no VERSION given"
[[ -v sdist_sha256[$version] ]] ||
  die_usage "no known SHA-256 for SimGrid '$version' (known: ${!sdist_sha256[*]})"
prefix=${prefix:-${XDG_CACHE_HOME:-$HOME/.cache}/pstswm/simgrid-$version}
[[ $prefix == /* ]] || prefix=$PWD/$prefix

if [[ -x $prefix/bin/smpirun && $("$prefix/bin/smpirun" -version 2>/dev/null) == "SimGrid version $version" ]]; then
  echo "install-simgrid: SimGrid $version already in $prefix" >&2
  echo "$prefix"
  exit 0
fi
[[ ! -e $prefix ]] || { echo "install-simgrid: $prefix exists but holds no SimGrid $version; remove it first" >&2; exit 2; }

# Build dependencies (Debian names): Boost's headers are required since SimGrid 4.0.
ensure_debian_packages install-simgrid cmake ninja-build g++ libboost-dev || true  # the build says what it lacks

# The project's venv when scripts/dev/setup.sh has made it, else the interpreter's own pip.
if [[ -x .venv/bin/pip ]]; then pip=(.venv/bin/pip); else pip=(python3 -m pip); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=$prefix.build.log
mkdir -p "$(dirname "$prefix")"
: >"$log"
fail() {
  echo "install-simgrid: $1 failed; the last lines of $log:" >&2
  tail -n 30 "$log" >&2
  exit 1
}

echo "install-simgrid: downloading the SimGrid $version sdist" >&2
"${pip[@]}" download -q --no-deps --no-binary :all: --dest "$work" "simgrid==$version" >>"$log" 2>&1 || fail "pip download"
sdist=$work/simgrid-$version.tar.gz
[[ -f $sdist ]] || fail "pip download (no $(basename "$sdist"))"
read -r sha256 _ < <(sha256sum "$sdist")
if [[ $sha256 != "${sdist_sha256[$version]}" ]]; then
  echo "install-simgrid: $(basename "$sdist") has SHA-256 $sha256, expected ${sdist_sha256[$version]}" >&2
  exit 1
fi
tar -xzf "$sdist" -C "$work"
src=$work/simgrid-$version

# SMPI only: model checking, sthread, Fortran, Java, Python, the documentation, ns-3 and LTO
# (slow to link, for no measured gain here) are left out; its tests are not in the default target.
# The install's RPATH lets smpimain find this libsimgrid rather than the system's.  Configured
# from inside the build directory: a configure check copies its test program to the working one.
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
echo "install-simgrid: building SimGrid $version with $jobs jobs (log: $log)" >&2
start_s=$(date +%s)
mkdir "$work/build"
(cd "$work/build" && cmake -S "$src" -B . "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_INSTALL_RPATH="$prefix/lib" \
  -Denable_smpi=ON -Denable_model-checking=OFF -Denable_sthread=OFF -Denable_fortran=OFF \
  -Denable_java=OFF -Denable_python=OFF -Denable_documentation=OFF -Denable_ns3=OFF -Denable_lto=OFF \
  >>"$log" 2>&1) || fail "cmake configure"
cmake --build "$work/build" -j "$jobs" >>"$log" 2>&1 || fail "the build"
# Staged, then moved into place: a half-finished install never looks like a finished one.
DESTDIR=$work/stage cmake --install "$work/build" >>"$log" 2>&1 || fail "the install"
mv "$work/stage$prefix" "$prefix"
echo "install-simgrid: SimGrid $version built in $(($(date +%s) - start_s)) s, installed in $prefix" >&2
echo "$prefix"
