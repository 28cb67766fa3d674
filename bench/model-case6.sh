#!/usr/bin/env bash
# Case 6 (Rossby-Haurwitz wave) convergence study: a T213 reference run over 5 days, then T42
# runs with falling time steps measured against it (Williamson's normalised errors of the
# height and wind, reference spectrally truncated to T42).  Takes a few minutes on one core.
#   bench/model-case6.sh [--mpi openmpi|mpich] [--build DIR] [--days D]
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${PSTRUN_MPI:-openmpi} build= days=5
while (($#)); do
  case "$1" in
    --mpi) mpi=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --days) days=$2; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/model-case6.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
build=${build:-build/$mpi}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() { scripts/pstrun --mpi "$mpi" -n 1 "$build/pstswm" model --case 6 --days "$days" --fftw-plan estimate --timeout 0 "$@"; }
echo "# case 6, reference: T213, dt 120 s, $days days"
run --trunc 213 --dt 120 --write-fields "$dir/ref.nc" | grep -E "time per step|conservation"
printf "%-6s %8s %11s %11s %11s %11s\n" trunc "dt s" h_l1 h_l2 h_linf v_l2
for dt in 1800 900 450 225 150; do
  run --trunc 42 --dt "$dt" --reference "$dir/ref.nc" --out "$dir/r.jsonl" >/dev/null 2>&1
  python3 - "$dir/r.jsonl" "$dt" <<'PY'
import json, sys
r = next(json.loads(l) for l in open(sys.argv[1]) if '"type":"point"' in l)
print(f"T42    {sys.argv[2]:>8} {r['h_l1']:11.3e} {r['h_l2']:11.3e} {r['h_linf']:11.3e} {r['v_l2']:11.3e}")
PY
done
