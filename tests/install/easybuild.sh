#!/usr/bin/env bash
# The EasyBuild path of docs/install.md, the way a site's user takes it, in a scratch prefix:
# EasyBuild 5 from PyPI into a venv of the user's, Lmod from Debian, the source tarball
# (scripts/dev/dist.sh), packaging/easybuild/install.sh with the system's MPI, FFTW, BLAS and NetCDF
# (--system-deps: EasyBuild's --try-toolchain=SYSTEM and --filter-deps), then in a new shell
# `module load pstswm` and, from an empty directory, `pstswm --version` and
# `pstlab run quick --max-ranks 2`.  Also: the easyconfig's dependencies resolve against EasyBuild's
# own easyconfigs (eb --dry-run --robot), and install.sh's one-line refusals (no EasyBuild, a wrong
# Lmod, an unwritable prefix).
#   tests/install/easybuild.sh
# As root: installs lmod (apt), makes the tarball, runs the rest as the user of tests/install/as-user.sh.
# Reused across runs in that user's ~/.cache/pstswm-test: the EasyBuild venv and the venv that
# stands in for the site's Python, SciPy-bundle, matplotlib and Python-bundle-PyPI modules (numpy,
# scipy, matplotlib, markdown-it-py at python/requirements.txt's pins, from PyPI).  Each phase's time goes to stdout.
# Exit: 0 passed; 77 skipped with one line (lmod missing and not root, or no package index), except
# under CI=true, where those fail; 1 failed (the scratch directory is kept and named).
set -euo pipefail
eb_version=5.4.1

test_name="easybuild test"
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The part run as the ordinary user: WORK holds the tarball and a copy of this script.
as_user() {
  local work=$1 cache=$HOME/.cache/pstswm-test
  local tarball src=$work/src prefix=$work/eb
  tarball=$(echo "$work"/pstswm-*.tar.gz)
  mkdir -p "$cache" "$src"
  tar -C "$src" --strip-components=1 -xzf "$tarball"
  local install=$src/packaging/easybuild/install.sh

  # Without EasyBuild: one line, exit 2, before anything is written.
  local out rc=0
  out=$(PATH=/usr/bin:/bin "$install" --prefix "$work/none" --tarball "$tarball" 2>&1) || rc=$?
  [[ $rc == 2 && $out == "install.sh: EasyBuild not found ("*")" && $(wc -l <<<"$out") == 1 && ! -e $work/none ]] ||
    fail "install.sh without eb: exit $rc, said: $out"

  phase_start "EasyBuild $eb_version venv"
  local ebvenv=$cache/easybuild-$eb_version
  if ! EB_PYTHON=$ebvenv/bin/python "$ebvenv/bin/eb" --version 2>/dev/null | grep -q "^This is EasyBuild $eb_version "; then
    rm -rf "$cache"/easybuild-*
    python3 -m venv "$ebvenv"
    "$ebvenv/bin/pip" index versions easybuild >/dev/null 2>&1 || skip "no package index reachable (pip index versions easybuild failed)"
    "$ebvenv/bin/pip" install -q "easybuild==$eb_version" >"$work/pip-easybuild.log" 2>&1 ||
      fail "pip install easybuild==$eb_version: $(tail -n 1 "$work/pip-easybuild.log")"
  fi
  phase_end

  # The site's Python stack: at a site the Python, SciPy-bundle, matplotlib and Python-bundle-PyPI
  # modules; here a venv from PyPI at the project's pins, first on PATH for eb and for the module's
  # users alike.
  phase_start "Python stack venv"
  local pins stack
  # setuptools: the build backend pstlab's pyproject.toml names, new enough to build wheels alone.
  pins="$(grep -E '^(numpy|scipy|matplotlib|markdown-it-py|mdurl)==' "$src/python/requirements.txt" | sort |
    paste -sd' ') setuptools>=70.1"
  stack=$cache/python-stack-$(sha256sum <<<"$pins" | cut -c1-12)
  if ! [[ -f $stack/.complete ]]; then
    rm -rf "$cache"/python-stack-*
    python3 -m venv "$stack"
    # shellcheck disable=SC2086 # pins: one word per package
    "$stack/bin/pip" install -q $pins >"$work/pip-stack.log" 2>&1 ||
      fail "pip install $pins: $(tail -n 1 "$work/pip-stack.log")"
    touch "$stack/.complete"
  fi
  phase_end
  export PATH=$stack/bin:$ebvenv/bin:$PATH

  # A wrong Lmod, an unwritable prefix: one line, exit 2.
  rc=0
  out=$(LMOD_CMD=/nonexistent/lmod "$install" --prefix "$work/none" --tarball "$tarball" 2>&1) || rc=$?
  [[ $rc == 2 && $out == "install.sh: Lmod not found (\$LMOD_CMD is '/nonexistent/lmod', not an executable)" && ! -e $work/none ]] ||
    fail "install.sh with a wrong LMOD_CMD: exit $rc, said: $out"
  rc=0
  out=$("$install" --prefix /proc/pstswm --tarball "$tarball" 2>&1) || rc=$?
  [[ $rc == 2 && $out == "install.sh: cannot write to the prefix '/proc/pstswm'" ]] ||
    fail "install.sh with an unwritable prefix: exit $rc, said: $out"

  # At a site with EasyBuild's own stack every dependency resolves to one of its easyconfigs.
  phase_start "eb --dry-run --robot (foss/2025a)"
  out=$("$install" --prefix "$work/dry" --tarball "$tarball" -- --tmpdir="$work/tmp" --dry-run --robot 2>&1) ||
    fail "eb --dry-run --robot: $(tail -n 3 <<<"$out")"
  local m
  for m in foss/2025a OpenMPI/5.0.7-GCC-14.2.0 FFTW/3.3.10-GCC-14.2.0 OpenBLAS/0.3.29-GCC-14.2.0 BLIS/1.1-GCC-14.2.0 \
           netCDF/4.9.3-gompi-2025a Python/3.13.1-GCCcore-14.2.0 SciPy-bundle/2025.06-gfbf-2025a \
           matplotlib/3.10.3-gfbf-2025a Python-bundle-PyPI/2025.04-GCCcore-14.2.0 CMake/3.31.3-GCCcore-14.2.0 \
           pstswm/0.1.0-foss-2025a; do
    grep -qF "(module: $m)" <<<"$out" || fail "eb --dry-run --robot does not resolve $m"
  done
  phase_end

  phase_start "eb install (--system-deps)"
  "$install" --prefix "$prefix" --tarball "$tarball" --system-deps -- --tmpdir="$work/tmp" >"$work/eb.log" 2>&1 ||
    fail "install.sh --system-deps failed; its output: $work/eb.log (last line: $(tail -n 1 "$work/eb.log"))"
  phase_end
  grep -q "^== COMPLETED: Installation ended successfully" "$work/eb.log" || fail "eb did not say it completed ($work/eb.log)"
  local check
  for check in "pstswm --version" "pstrun -n 2 pstswm swap"; do
    grep -q "result for command '$check.*': OK" "$work/eb.log" || fail "eb's sanity check did not pass '$check' ($work/eb.log)"
  done
  local modfile=$prefix/modules/all/pstswm/0.1.0.lua
  [[ -f $modfile ]] || fail "no module file $modfile"

  # A new login-free shell, the way a user starts: Lmod's init, module use, module load.
  phase_start "module load + pstswm --version + pstlab --version"
  local empty=$work/empty
  mkdir "$empty"
  out=$(cd "$empty" && bash -c "source /usr/share/lmod/lmod/init/bash && module use '$prefix/modules/all' &&
    module load pstswm && command -v pstswm pstrun pstlab && pstswm --version && pstlab --version" 2>&1) ||
    fail "module load pstswm; pstswm --version; pstlab --version: $out"
  phase_end
  grep -qx "$prefix/software/pstswm/0.1.0/bin/pstswm" <<<"$out" || fail "pstswm on PATH is not the module's: $out"
  grep -qx "$prefix/software/pstswm/0.1.0/bin/pstlab" <<<"$out" || fail "pstlab on PATH is not the module's: $out"
  grep -qF "pstswm: $prefix/software/pstswm/0.1.0/bin/pstswm (from PATH)" <<<"$out" || fail "pstlab does not find the module's pstswm: $out"
  local line
  for line in "pstswm 0.1.0 " "MPI flavour: system" "MPI library: " "FFTW: " "OpenBLAS: " "NetCDF: "; do
    grep -q "^$line" <<<"$out" || fail "pstswm --version has no line '$line...': $out"
  done

  phase_start "pstlab run quick --max-ranks 2"
  rc=0
  (cd "$empty" && bash -c "source /usr/share/lmod/lmod/init/bash && module use '$prefix/modules/all' && module load pstswm &&
    pstlab run quick --max-ranks 2") >"$work/quick.log" 2>&1 || rc=$?
  phase_end
  ((rc == 0)) || fail "pstlab run quick --max-ranks 2: exit $rc ($work/quick.log: $(tail -n 1 "$work/quick.log"))"
  compgen -G "$empty/results/*-quick-system/report.md" >/dev/null || fail "no results/*-quick-system/report.md in $empty ($work/quick.log)"
}

if [[ ${1:-} == --as-user ]]; then
  as_user "$2"
  exit
fi

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [[ $(id -u) == 0 ]]; then
  source "$root/scripts/lib/packages.sh"
  ensure_debian_packages easybuild-test lmod python3-venv || fail "cannot install lmod and python3-venv"
elif ! [[ -f /usr/share/lmod/lmod/init/bash ]]; then
  skip "Lmod is not installed (/usr/share/lmod/lmod/init/bash) and only root may apt-get install lmod"
fi
phase_start "source tarball"
work=$(mktemp -d /tmp/pstswm-easybuild.XXXXXX)
"$root/scripts/dev/dist.sh" "$work" >/dev/null || fail "scripts/dev/dist.sh $work"
phase_end
rc=0
hand_over "$work" "$0" || rc=$?
exit "$rc"
