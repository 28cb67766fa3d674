# shellcheck shell=bash
# The harness every bench script sources first (bench/NAME.sh: source "$(dirname "$0")/lib/harness.sh").
# It gives each script the same command line, usage, errors and context line, so a script holds
# only what it measures:
#   bench_parse "OPTS" "$@"   parse --opt VALUE (and --opt=VALUE) for each name of OPTS into the
#                             variable of that name with - as _ (set its default before); a name
#                             ending in + appends to an array; @ in OPTS admits operands, which land
#                             in bench_args; -h/--help prints the script's header comment, exit 0
#   bench_die MSG             "bench/NAME: error: MSG" on stderr, exit 2 (bad input, missing build)
#   bench_fail MSG            the same, exit 1 (a run failed)
#   bench_positive VAR...     each variable a positive count, else bench_die naming its option
#   bench_choice VAR WORD...  the variable one of the words, else bench_die
#   bench_need_build DIR PROGRAM...   DIR/PROGRAM built, else bench_die with the build command
#   bench_need_command CMD HINT       CMD on PATH, else bench_die with HINT
#   bench_pstswm MPI          MPI openmpi or mpich and build/MPI/pstswm built, else bench_die; sets
#                             pstswm to it and prints the context line
#   bench_scratch             a scratch folder in bench_work, removed when the script exits
#   bench_quiet CMD...        run CMD (after bench_scratch), its output dropped and its stderr
#                             held: on failure the stderr is shown and the script exits 1
#   bench_py MODULE ARGS...   run bench/lib/MODULE.py with the project's venv (pstlab importable)
#   bench_pstlab ARGS...      run pstlab (python -m pstlab) with the same interpreter
#   bench_context [PSTSWM] [FILE]     print "# bench/NAME.sh on HOST; CPU ...; libraries ...; load ..."
#                             and, with FILE, write it there as JSON beside the records
# and bench/lib/noise.sh (noise_counted, noise_summary).  bench_root is the checkout; the harness
# does not change directory, so operands and options name paths as the caller sees them.
bench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bench_script=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)/$(basename "${BASH_SOURCE[1]}")
bench_name=$(basename "$bench_script" .sh)
bench_python=$bench_root/.venv/bin/python
bench_args=()
# shellcheck source=bench/lib/noise.sh
source "$bench_root/bench/lib/noise.sh"

bench_die() {
  echo "bench/$bench_name: error: $*" >&2
  exit 2
}

bench_fail() {
  echo "bench/$bench_name: error: $*" >&2
  exit 1
}

# The header comment: the lines after the shebang up to the first line that is not a comment.
bench_usage() {
  awk 'NR == 1 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$bench_script"
}

bench_parse() {
  local spec=" $1 " opt var
  shift
  while (($#)); do
    case $1 in
      -h | --help) bench_usage; exit 0 ;;
      --) shift; bench_operands "$spec" "$@"; return ;;
      --*=*) set -- "${1%%=*}" "${1#*=}" "${@:2}"; continue ;;
      --?*)
        opt=${1#--} var=${1#--}
        var=${var//-/_}
        [[ $spec == *" $opt "* || $spec == *" $opt+ "* ]] || bench_die "unknown option '$1' (bench/$bench_name.sh --help lists them)"
        (($# >= 2)) || bench_die "$1 needs a value"
        if [[ $spec == *" $opt+ "* ]]; then
          eval "$var+=(\"\$2\")"
        else
          printf -v "$var" '%s' "$2"
        fi
        shift 2 ;;
      -?*) bench_die "unknown option '$1' (bench/$bench_name.sh --help lists them)" ;;
      *) bench_operands "$spec" "$1"; shift ;;
    esac
  done
}

bench_operands() {
  local spec=$1
  shift
  (($# == 0)) || [[ $spec == *" @ "* ]] || bench_die "unexpected argument '$1' (bench/$bench_name.sh --help)"
  bench_args+=("$@")
}

bench_positive() {
  local var
  for var in "$@"; do
    [[ ${!var} =~ ^[1-9][0-9]*$ ]] || bench_die "--${var//_/-} needs a positive count (got '${!var}')"
  done
}

bench_choice() {
  local var=$1 word
  shift
  for word in "$@"; do [[ ${!var} == "$word" ]] && return 0; done
  local words
  words=$(printf '%s, ' "$@")
  bench_die "--${var//_/-} takes one of ${words%, } (got '${!var}')"
}

bench_need_build() {
  local dir=$1 program
  shift
  for program in "$@"; do
    [[ -x $dir/$program ]] || bench_die "$dir/$program not built (scripts/dev/build.sh $(basename "$dir"))"
  done
}

bench_need_command() {
  command -v "$1" >/dev/null || bench_die "$1 not found ($2)"
}

bench_pstswm() {
  case $1 in
    openmpi | mpich) ;;
    *) bench_die "--mpi takes openmpi or mpich (got '$1')" ;;
  esac
  bench_need_build "$bench_root/build/$1" pstswm
  pstswm=$bench_root/build/$1/pstswm
  bench_context "$pstswm"
}

bench_scratch() {
  bench_work=$(mktemp -d)
  trap 'rm -rf "$bench_work"' EXIT
}

bench_quiet() {
  "$@" >/dev/null 2>"$bench_work/stderr" || { cat "$bench_work/stderr" >&2; exit 1; }
}

bench_py() {
  [[ -x $bench_python ]] || bench_die "$bench_python missing: create the venv with scripts/dev/setup.sh"
  local module=$1
  shift
  PYTHONPATH=$bench_root/python${PYTHONPATH:+:$PYTHONPATH} "$bench_python" "$bench_root/bench/lib/$module.py" "$@"
}

bench_pstlab() {
  [[ -x $bench_python ]] || bench_die "$bench_python missing: create the venv with scripts/dev/setup.sh"
  PYTHONPATH=$bench_root/python${PYTHONPATH:+:$PYTHONPATH} "$bench_python" -m pstlab "$@"
}

# What a result needs beside it to be read later: which host, CPU, libraries and load.
bench_context() {
  local pstswm=${1:-} file=${2:-} cpu libs="" load
  cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
  # The versions are a courtesy: a binary that cannot say them (an SMPI build run outside smpirun) gives none.
  if [[ -n $pstswm && -x $pstswm ]]; then
    libs=$(timeout 20 "$pstswm" --version 2>/dev/null | sed -n -e 's/^MPI library: \([^,]*\).*/\1/p' -e 's/^FFTW: //p' \
      -e 's/^OpenBLAS: \(OpenBLAS [^ ]*\).*/\1/p' -e 's/^BLIS: \([^ ]*\).*/BLIS \1/p' | paste -sd, | sed 's/,/, /g') || libs=""
  fi
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "# bench/$bench_name.sh on $(hostname); CPU $cpu ($(nproc) cores);${libs:+ $libs;} load $load"
  if [[ -n $file ]]; then
    printf '{"bench":"%s","host":"%s","cpu":"%s","cores":%d,"libraries":"%s","load":"%s","date":"%s"}\n' \
      "$bench_name" "$(hostname)" "${cpu//\"/}" "$(nproc)" "${libs//\"/}" "$load" "$(date -u +%FT%TZ)" >"$file"
  fi
}
