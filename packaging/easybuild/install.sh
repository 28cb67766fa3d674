#!/usr/bin/env bash
# Install pstswm with EasyBuild 5 and Lmod, as a site's user would (docs/install.md, "With EasyBuild").
#   packaging/easybuild/install.sh [--prefix DIR] [--tarball FILE] [--system-deps] [-- EB_OPTION...]
# --prefix DIR     EasyBuild's prefix: software/, modules/all/, sources/ (default $EASYBUILD_PREFIX,
#                  else EasyBuild's own default ~/.local/easybuild)
# --tarball FILE   the source tarball pstswm-<version>.tar.gz; default: scripts/dev/dist.sh makes it from
#                  this checkout.  It is copied to DIR/sources/p/pstswm/, where eb looks for it.
# --system-deps    the MPI, FFTW, BLAS, NetCDF, CMake and Python stack on PATH (the operating system's)
#                  instead of modules: eb --try-toolchain=SYSTEM with every dependency filtered out.
# Then `module use DIR/modules/all; module load pstswm`.  eb is found on PATH or as $EB; Lmod through
# $LMOD_CMD, `lmod` on PATH or Debian's /usr/share/lmod.  A failed install leaves no software
# directory without a module behind.  Exit: eb's; 2 with one line when something it needs is missing.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
easyconfig=$(ls "$here"/pstswm-*.eb 2>/dev/null | head -n 1)
[[ -n $easyconfig ]] || { echo "install.sh: no pstswm-*.eb beside $0" >&2; exit 2; }
version=$(sed -n "s/^version = '\(.*\)'$/\1/p" "$easyconfig")

prefix=${EASYBUILD_PREFIX:-$HOME/.local/easybuild} tarball= system_deps=0
while (($#)); do
  case $1 in
    --prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
    --tarball) tarball=${2:?--tarball needs a file}; shift 2 ;;
    --system-deps) system_deps=1; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option '$1' (eb's own options go after --)" >&2; exit 2 ;;
  esac
done

# EasyBuild: eb from a venv runs with that venv's Python, whatever python3 is first on PATH.
eb=${EB:-$(command -v eb || true)}
[[ -n $eb && -x $eb ]] ||
  { echo "install.sh: EasyBuild not found (no eb on PATH; install it with: pip install 'easybuild>=5,<6')" >&2; exit 2; }
[[ -x $(dirname "$eb")/python ]] && export EB_PYTHON=${EB_PYTHON:-$(dirname "$eb")/python}
eb_version=$("$eb" --version 2>/dev/null | sed -n 's/^This is EasyBuild \([0-9][0-9.]*\).*/\1/p')
[[ $eb_version == 5.* ]] ||
  { echo "install.sh: $eb is not EasyBuild 5 (it says '${eb_version:-nothing}'; pip install 'easybuild>=5,<6')" >&2; exit 2; }

# Lmod: eb drives it through $LMOD_CMD or `lmod` on PATH.
if [[ -z ${EASYBUILD_MODULES_TOOL:-} || ${EASYBUILD_MODULES_TOOL:-} == Lmod ]]; then
  [[ -z ${LMOD_CMD:-} || -x ${LMOD_CMD:-} ]] ||
    { echo "install.sh: Lmod not found (\$LMOD_CMD is '$LMOD_CMD', not an executable)" >&2; exit 2; }
  if [[ -z ${LMOD_CMD:-} ]] && ! command -v lmod >/dev/null; then
    [[ -x /usr/share/lmod/lmod/libexec/lmod ]] ||
      { echo "install.sh: Lmod not found (no \$LMOD_CMD, no lmod on PATH; Debian: apt-get install lmod)" >&2; exit 2; }
    export LMOD_CMD=/usr/share/lmod/lmod/libexec/lmod
  fi
  export EASYBUILD_MODULES_TOOL=Lmod
fi

if [[ -n $tarball ]]; then
  [[ -f $tarball && -r $tarball ]] || { echo "install.sh: no readable tarball '$tarball'" >&2; exit 2; }
  [[ $(basename "$tarball") == "pstswm-$version.tar.gz" ]] ||
    { echo "install.sh: the tarball must be pstswm-$version.tar.gz for $(basename "$easyconfig") (got $(basename "$tarball"))" >&2; exit 2; }
fi
mkdir -p "$prefix" 2>/dev/null && [[ -w $prefix ]] || { echo "install.sh: cannot write to the prefix '$prefix'" >&2; exit 2; }
prefix=$(cd "$prefix" && pwd)
sources=$prefix/sources/p/pstswm
mkdir -p "$sources"
if [[ -z $tarball ]]; then
  tarball=$("$here/../../scripts/dev/dist.sh" "$sources") || exit 2
elif ! [[ $tarball -ef $sources/pstswm-$version.tar.gz ]]; then
  cp "$tarball" "$sources/"
fi

opts=(--prefix="$prefix" --sourcepath="$prefix/sources")
if ((system_deps)); then
  # Every (build) dependency, as the easyconfig lists them: the first quoted name of each tuple.
  deps=$(awk '/^(build)?dependencies = \[/ {in_list = 1; next} in_list && /^\]/ {in_list = 0}
              in_list && match($0, /\(\x27[^\x27]+\x27/) {print substr($0, RSTART + 2, RLENGTH - 3)}' "$easyconfig" | paste -sd,)
  opts+=(--try-toolchain=SYSTEM --disable-map-toolchains --filter-deps="$deps")
fi

rc=0
"$eb" "$easyconfig" "${opts[@]}" "$@" || rc=$?
if ((rc)); then
  # eb writes the module last: a software directory without one is half-installed.
  for dir in "$prefix/software/pstswm/$version"*; do
    module=$prefix/modules/all/pstswm/$(basename "$dir")
    [[ -d $dir && ! -e $module.lua && ! -e $module ]] || continue
    rm -rf "$dir" && echo "install.sh: eb failed (exit $rc); removed the half-installed $dir" >&2
  done
fi
exit "$rc"
