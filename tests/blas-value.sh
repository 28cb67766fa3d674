#!/usr/bin/env bash
# A command run with --blas VALUE, on any CPU: either it runs and verifies, or it refuses by name
# (exit 2, a line "--blas VALUE: <why>", no record file).  Anything else fails: a crash, another
# exit code, a wrong answer, a refusal that does not say which value and why.
#   blas-value.sh VALUE [OPTION]... -- COMMAND... [-- CHECK...]
# COMMAND gets --blas VALUE appended (and --out FILE with --out).  Options:
#   --out FILE          when it ran, every CHECK must hold over FILE's records (check-records.py)
#   --stdout REGEX      when it ran, a line of its output must match REGEX (ERE)
#   --must-run          a refusal fails (a library every host has, or a fallback)
#   --must-refuse REGEX it must refuse, with a line matching REGEX
#   --blis-arch NAME    run BLIS's configuration NAME (e.g. generic, which has no small-matrix
#                       kernels) whatever the CPU.  BLIS 0.9 reads BLIS_ARCH_TYPE as a number that
#                       changes between versions, so the number is the loaded library's own
#                       (bli_arch_string); without a BLIS that loads, the test is skipped (exit 77).
set -uo pipefail
value=$1
shift
out= stdout_regex= must=either refuse_regex= arch=
while (($#)) && [[ $1 != -- ]]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --stdout) stdout_regex=$2; shift 2 ;;
    --must-run) must=run; shift ;;
    --must-refuse) must=refuse refuse_regex=$2; shift 2 ;;
    --blis-arch) arch=$2; shift 2 ;;
    *) echo "blas-value.sh: unknown option '$1'"; exit 1 ;;
  esac
done
shift
cmd=()
while (($#)) && [[ $1 != -- ]]; do cmd+=("$1"); shift; done
(($#)) && shift # the CHECKs follow

if [[ -n $arch ]]; then
  id=$(python3 - "$arch" "${PST_BLIS_LIBRARY:-libblis.so.4}" <<'EOF'
import ctypes, sys
try:
    name = ctypes.CDLL(sys.argv[2]).bli_arch_string
except OSError as exc:
    print(f"SKIP: BLIS does not load: {exc}")
    sys.exit(77)
name.restype, name.argtypes = ctypes.c_char_p, [ctypes.c_int]
for i in range(64):  # generic comes last in BLIS's table
    if name(i).decode() == sys.argv[1]:
        print(i)
        break
    if name(i) == b"generic":
        sys.exit(f"BLIS has no configuration named {sys.argv[1]}")
EOF
  )
  rc=$?
  ((rc == 77)) && { echo "$id"; exit 77; } # the SKIP line
  [[ $rc == 0 && $id =~ ^[0-9]+$ ]] || { echo "FAIL: --blis-arch $arch"; exit 1; }
  export BLIS_ARCH_TYPE=$id
  echo "BLIS_ARCH_TYPE=$id ($arch)"
fi

[[ -n $out ]] && rm -f "$out" "$out.partial" && cmd+=(--out "$out")
log=$(mktemp) err=$(mktemp)
trap 'rm -f "$log" "$err"' EXIT
"${cmd[@]}" --blas "$value" >"$log" 2>"$err"
rc=$?
fail() { echo "FAIL: --blas $value: $*"; echo "--- stderr ---"; cat "$err"; exit 1; }
case $rc in
  0)
    [[ $must == refuse ]] && fail "ran; expected a refusal matching /$refuse_regex/"
    [[ -z $stdout_regex ]] || grep -Eq -- "$stdout_regex" "$log" || fail "ran, but no output line matches /$stdout_regex/"
    if [[ -n $out ]]; then
      python3 "$(dirname "$0")/check-records.py" "$out" "$@" || fail "ran, but its records fail the checks above"
    fi
    echo "--blas $value ran and verified"
    ;;
  2)
    [[ $must == run ]] && fail "refused; it must run on every host"
    grep -Eq -- "--blas $value: .{10,}" "$err" || fail "exit 2 without a line naming --blas $value and why"
    [[ -z $refuse_regex ]] || grep -Eq -- "$refuse_regex" "$err" || fail "refused, but not with /$refuse_regex/"
    [[ -n $out && ( -e $out || -e $out.partial ) ]] && fail "refused, but left a record file"
    echo "--blas $value refused by name: $(grep -m1 -E -- "--blas $value: " "$err")"
    ;;
  *) fail "exit $rc (0: ran, 2: refused by name)" ;;
esac
