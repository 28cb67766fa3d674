#!/usr/bin/env bash
# What MPI_THREAD_MULTIPLE costs per message: pstswm pingpong --threads T (T streams between two
# ranks, stream s on tag s, as OSU's multithreaded latency test) in mode multiple (every thread
# calls MPI) against mode funneled (--thread-level funneled: the master drives all T streams), and
# the one-thread baseline at --thread-level single, and one thread at --thread-level multiple (the
# level's own cost: the library's locking on every call, with no second thread to compete), in
# interleaved launches (the order rotates).  Per size: each mode's time per message (the streams'
# wall time / T; a single thread's half round trip), median over launches; the ratios multiple /
# funneled and level multiple / single, medians over launches with their 95 % intervals (paired by
# launch, pstlab.stats.paired_ratio); "tie" when the interval holds 1.  With fewer than 2 T cores
# the streams' threads take turns on them, and the first ratio is the scheduler's, not the
# library's: the script says so; the second needs only 2 cores.
#   bench/pingpong-threads.sh [--mpi openmpi|mpich] [--threads T] [--launches N]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
usage="usage: bench/pingpong-threads.sh [--mpi openmpi|mpich] [--threads T] [--launches N]"
mpi=openmpi threads=2 launches=10
while (($#)); do
  case $1 in
    --mpi) mpi=${2:?$usage}; shift 2 ;;
    --threads) threads=${2:?$usage}; shift 2 ;;
    --launches) launches=${2:?$usage}; shift 2 ;;
    *) echo "pingpong-threads: unknown argument '$1' ($usage)" >&2; exit 2 ;;
  esac
done
[[ $mpi == openmpi || $mpi == mpich ]] || { echo "pingpong-threads: --mpi '$mpi' is not openmpi or mpich" >&2; exit 2; }
[[ $threads =~ ^[0-9]+$ && $threads -ge 2 && $threads -le 1024 ]] || { echo "pingpong-threads: --threads '$threads' is not a count from 2 to 1024" >&2; exit 2; }
[[ $launches =~ ^[0-9]+$ && $launches -ge 6 ]] || { echo "pingpong-threads: --launches '$launches' is not a count of 6 or more (a 95 % interval needs 6)" >&2; exit 2; }
pstswm=$root/build/$mpi/pstswm
[[ -x $pstswm ]] || { echo "pingpong-threads: $pstswm missing; build it with scripts/dev/build.sh $mpi" >&2; exit 2; }
[[ -x $root/.venv/bin/python || $(python3 -c 'import numpy' 2>&1) == "" ]] || { echo "pingpong-threads: needs numpy (pstlab): make the .venv (docs/pstlab.md)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sizes=8,1K,8K,64K
run() { # name, pstswm options
  local name=$1; shift
  "$root/scripts/pstrun" --mpi "$mpi" -n 2 "$pstswm" pingpong --modes send --sizes $sizes --reps 10 "$@" \
    --out "$work/$name.$i.jsonl" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
}
for ((i = 1; i <= launches; i++)); do
  order=(single funneled multiple level)
  for ((k = 0; k < 4; k++)); do
    case ${order[(i + k) % 4]} in
      single) run single --threads 1 --thread-level single ;;
      funneled) run funneled --threads "$threads" --thread-level funneled ;;
      multiple) run multiple --threads "$threads" --thread-level multiple ;;
      level) run level --threads 1 --thread-level multiple ;;
    esac
  done
done

python=$root/.venv/bin/python
[[ -x $python ]] || python=python3
PYTHONPATH=$root/python "$python" - "$work" "$launches" "$threads" "$mpi" "$(nproc)" <<'PY'
import json, math, statistics, sys
from pstlab.stats.stats import paired_ratio
work, launches, threads, mpi, cores = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
def t_med(mode, i):
    recs = [json.loads(l) for l in open(f"{work}/{mode}.{i}.jsonl")]
    return {r["bytes"]: r["t_med"] for r in recs if r.get("type") == "point" and r["bytes"] > 0}
runs = {m: [t_med(m, i) for i in range(1, launches + 1)] for m in ("single", "funneled", "multiple", "level")}
def ratio(nbytes, a, b, slower):
    pr = paired_ratio([r[nbytes] for r in runs[a]], [r[nbytes] for r in runs[b]], 0.95)
    if not math.isfinite(pr.lo):
        return f"{pr.ratio:.3f} undetermined (too few launches)"
    verdict = "tie" if pr.lo <= 1 <= pr.hi else (slower if pr.lo > 1 else "faster")
    return f"{pr.ratio:.3f} [{pr.lo:.3f}, {pr.hi:.3f}] {verdict}"
print(f"pingpong --threads {threads}, {mpi}, {launches} launches: time per message (us), median over launches")
if 2 * threads > cores:
    print(f"(2 ranks x {threads} threads > {cores} cores: the streams take turns on the cores; multiple/funneled is the scheduler's, not a verdict)")
print(f"{'bytes':>8} {'single':>10} {'level MT':>10} {'funneled':>10} {'multiple':>10}  level MT/single [95 %]  multiple/funneled [95 %]")
for nbytes in sorted(runs["single"][0]):
    med = {m: statistics.median(r[nbytes] for r in runs[m]) for m in runs}
    print(f"{nbytes:>8} {med['single']*1e6:>10.3f} {med['level']*1e6:>10.3f} {med['funneled']*1e6:>10.3f} {med['multiple']*1e6:>10.3f}"
          f"  {ratio(nbytes, 'level', 'single', 'MULTIPLE costs')}  {ratio(nbytes, 'multiple', 'funneled', 'slower')}")
PY
