#!/usr/bin/env bash
# The skeleton mode at scale (docs/predict.md, "Skeleton mode"): T85L16 on 1,024 simulated ranks
# (32x32) and T170L16 on 4,096 (64x64) of the simulated Cray T3E-900, each run's simulation wall
# time, CPU time and peak memory on this machine (targets 10 min and 8 GB, 10^9 bytes, each),
# and the predicted time per step; smaller runs of each problem before them make the predicted
# scaling curve (the efficiency column: the problem's first run's rank-seconds per step over this
# run's).  Not a test: the wall time depends on the machine and its load.
# Memory is the simulation's proportional set size (PSS, /proc/PID/smaps_rollup, sampled every 2 s):
# its physical memory.  The resident set size counts a folded buffer (SMPI_SHARED_MALLOC: one
# physical block mapped by every simulated rank) once per rank; it is shown beside.
#   bench/predict-scale.sh [--build DIR] [--steps N] [--runs 'T85L16:16x16 T85L16:32x32 ...']
#                          [--max-pss-gb G] [--max-wall-s S] [--simgrid PREFIX | --simgrid-version V]
#                          [--keep DIR]
# --simgrid runs PREFIX's SimGrid (PREFIX/bin first on PATH) with its own pstswm build,
# build/smpi-<version> (scripts/dev/build.sh smpi builds or updates it first); --simgrid-version
# installs that version first (scripts/install-simgrid.sh, into its default prefix).  The header
# line names the smpirun used; a run whose record reports another SimGrid is marked failed.
# --keep DIR keeps each run's records and log there (PROBLEM-GRID.jsonl, .log), for the full digits.
# platforms/t3e-900.toml holds 512 nodes: each run gets a copy with one node per rank on a 3-D
# torus of that size, and T170L16 the T85L16 rate (Worley 1998 Table 1 has no T170 column); the
# committed file is not changed.  One chunk per level block and one level block, as the Table 5
# cells (bench/predict-t3e.sh): in skeleton mode the fewest messages is the best configuration.
# A run that passes --max-pss-gb (default 8) or --max-wall-s (default 900) is stopped and
# reported as missed: it would not fit the machine's share.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/mpi-env.sh
build= steps=2 runs="T85L16:16x16 T85L16:32x32 T170L16:16x16 T170L16:32x32 T170L16:64x64" max_pss_gb=8 max_wall_s=900 simgrid= simgrid_version= keep=
while (($#)); do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --max-pss-gb) max_pss_gb=$2; shift 2 ;;
    --max-wall-s) max_wall_s=$2; shift 2 ;;
    --simgrid) simgrid=$2; shift 2 ;;
    --simgrid-version) simgrid_version=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench/predict-scale.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ -z $simgrid || -z $simgrid_version ]] || { echo "bench/predict-scale.sh: --simgrid or --simgrid-version, not both" >&2; exit 2; }
[[ -z $simgrid_version ]] || simgrid=$(scripts/install-simgrid.sh "$simgrid_version")
if [[ -n $simgrid ]]; then
  [[ -x $simgrid/bin/smpirun ]] || { echo "bench/predict-scale.sh: --simgrid: no $simgrid/bin/smpirun" >&2; exit 2; }
  PATH=$(cd "$simgrid/bin" && pwd):$PATH
  [[ -n $build ]] || scripts/dev/build.sh smpi Release 2 >&2
fi
build=${build:-$(build_dir smpi)}
[[ -x $build/pstswm ]] || { echo "bench/predict-scale.sh: $build/pstswm not built (scripts/dev/build.sh smpi)" >&2; exit 2; }
platform=platforms/t3e-900.toml
# The largest process below pid (by resident set) and its proportional set size in KB.
descendant_pss() {
  local who
  who=$(ps -e -o pid=,ppid=,rss= | awk -v root="$1" '
    { parent[$1] = $2; rss[$1] = $3 }
    END { for (p in parent) { q = p; while (q in parent && q != root) q = parent[q]; if (q == root && rss[p] > best) { best = rss[p]; who = p } }
          print who + 0 }')
  echo "$who $(awk '/^Pss:/ { print $2 }' "/proc/$who/smaps_rollup" 2>/dev/null || echo 0)"
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "# skeleton mode at scale: $platform (sha256 $(sha256sum "$platform" | cut -c1-12)), $steps steps (the last timed)," \
     "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(smpirun -version 2>/dev/null | head -1) ($(command -v smpirun))," \
     "$build/pstswm"
# The SimGrid smpirun reports, which every run's record must name (its library is the one loaded).
simgrid_used=$(smpirun -version 2>/dev/null | head -1 | sed 's/^SimGrid version //')
[[ -z $keep ]] || mkdir -p "$keep"
printf '| problem | grid | ranks | wall s | cpu s | peak PSS GB | max RSS GB | predicted step ms | of it communication ms | efficiency | targets |\n'
printf '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n'
for run in $runs; do
  problem=${run%%:*} grid=${run#*:}
  ranks=$(( ${grid%x*} * ${grid#*x} ))
  [[ $problem =~ ^T([0-9]+)L([0-9]+)$ ]] || { echo "bench/predict-scale.sh: --runs: '$problem' is not TmLk" >&2; exit 2; }
  trunc=${BASH_REMATCH[1]} levels=${BASH_REMATCH[2]}
  copy=$work/t3e-900-$ranks.toml
  python3 - "$platform" "$copy" "$ranks" "$problem" <<'PY'
import math, re, sys, tomllib
src, dst, ranks, problem = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
text = open(src).read()
# The torus closest to a cube that holds exactly one node per rank.
divisors = [d for d in range(1, ranks + 1) if ranks % d == 0]
dims = min(([a, b, ranks // (a * b)] for a in divisors for b in divisors if ranks % (a * b) == 0), key=lambda t: (max(t), -min(t)))
dims = sorted(dims, reverse=True)
text = re.sub(r"(?m)^count = \d+.*$", f"count = {ranks}  # bench/predict-scale.sh: one node per simulated rank", text)
text = re.sub(r"(?m)^torus_dims = .*$", f"torus_dims = {dims}", text)
if problem not in tomllib.loads(text)["compute"]:
    rate = tomllib.loads(text)["compute"]["T85L16"]["mflops"]
    text += f"\n[compute.{problem}]\nmflops = {rate}  # bench/predict-scale.sh: the T85L16 rate, no published figure\n"
open(dst, "w").write(text)
PY
  out=$work/$problem-$grid.jsonl log=$work/$problem-$grid.log
  # SMPI's mpich selection runs SMP-aware bcast, reduce and allreduce, which build their node and
  # leader communicators with two ring allgathers over all ranks, P^2 messages to simulate (a
  # 8-byte MPI_Bcast on 512 ranks: 14 s): pinned to the algorithms those run between nodes at
  # one rank per node.  The timed steps (srtrans, halfsum) use no collective.
  /usr/bin/time -v -o "$work/time" scripts/pstrun --mpi smpi --platform "$copy" --problem "$problem" --host-mflops 1000 -n "$ranks" \
    --cfg smpi/bcast:binomial_tree --cfg smpi/allreduce:mvapich2_rs --cfg smpi/reduce:binomial \
    "$build/pstswm" model --trunc "$trunc" --levels "$levels" --grid "$grid" --steps "$steps" --warmup $((steps - 1)) \
    --compute skeleton --chunks whole --level-block "$levels" --fftw-plan estimate --blas openblas --noise-probe 0 --timeout 0 \
    --out "$out" >"$log" 2>&1 &
  pid=$! status=ok start=$(date +%s) peak_pss_kb=0
  # Stop a run past its limits: smpimain, under time, pstrun and smpirun, runs every simulated rank.
  while kill -0 "$pid" 2>/dev/null; do
    sleep 2
    read -r sim pss_kb < <(descendant_pss "$pid")
    ((sim > 1)) || continue # between its processes (kill 0 would end this script)
    ((pss_kb > peak_pss_kb)) && peak_pss_kb=$pss_kb
    if ((pss_kb * 1024 > max_pss_gb * 1000000000)); then status="missed: stopped above $max_pss_gb GB"; fi
    if (($(date +%s) - start > max_wall_s)); then status="missed: stopped after $max_wall_s s"; fi
    if [[ $status != ok ]]; then kill "$sim" 2>/dev/null || true; break; fi
  done
  wait "$pid" || [[ $status != ok ]] || status="failed: $(tail -1 "$log")"
  [[ -z $keep ]] || cp "$out" "$log" "$keep/" 2>/dev/null || true
  python3 - "$work/time" "$out" "$problem" "$grid" "$ranks" "$status" "$peak_pss_kb" "$simgrid_used" "$work/first-$problem" <<'PY'
import json, re, sys
tv = open(sys.argv[1]).read()
def field(name):
    return re.search(rf"{re.escape(name)}: (.*)", tv).group(1).strip()
parts = [float(x) for x in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")]
wall = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
rss_gb = int(field("Maximum resident set size (kbytes)")) * 1024 / 1e9
pss_gb = int(sys.argv[7]) * 1024 / 1e9
status = sys.argv[6]
step = comm = efficiency = "-"
try:
    records = [json.loads(line) for line in open(sys.argv[2])]
    point = next(r for r in records if r.get("type") == "point")
    step, comm = f"{point['step_s'] * 1e3:.2f}", f"{point['comm_s'] * 1e3:.2f}"
    # Parallel efficiency against the problem's first run: its rank-seconds over this one's.
    try:
        first_ranks, first_step_s = map(float, open(sys.argv[9]).read().split())
    except OSError:
        first_ranks, first_step_s = int(sys.argv[5]), point["step_s"]
        open(sys.argv[9], "w").write(f"{first_ranks} {first_step_s!r}\n")
    efficiency = f"{first_ranks * first_step_s / (int(sys.argv[5]) * point['step_s']):.2f}"
    engine = next(r for r in records if r.get("type") == "header")["simulation"]["engine"]
    if not engine.startswith((f"SimGrid {sys.argv[8]}.", f"SimGrid {sys.argv[8]} ")):
        status = f"failed: ran {engine}, not smpirun's SimGrid {sys.argv[8]}"
except (OSError, StopIteration):
    pass
if status == "ok":
    missed = [t for t, bad in (("10 min", wall > 600), ("8 GB", pss_gb > 8)) if bad]
    status = "met" if not missed else "missed " + ", ".join(missed)
print(f"| {sys.argv[3]} | {sys.argv[4]} | {sys.argv[5]} | {wall:.0f} | {cpu:.0f} | {pss_gb:.2f} | {rss_gb:.2f} | {step} | {comm} | {efficiency} | {status} |")
PY
done
