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
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
cd "$bench_root"
# shellcheck source=scripts/lib/mpi-env.sh
source scripts/lib/mpi-env.sh
build='' steps=2 runs="T85L16:16x16 T85L16:32x32 T170L16:16x16 T170L16:32x32 T170L16:64x64" max_pss_gb=8 max_wall_s=900 simgrid='' simgrid_version='' keep=''
bench_parse "build steps runs max-pss-gb max-wall-s simgrid simgrid-version keep" "$@"
[[ -z $simgrid || -z $simgrid_version ]] || bench_die "--simgrid or --simgrid-version, not both"
[[ -z $simgrid_version ]] || simgrid=$(scripts/install-simgrid.sh "$simgrid_version")
if [[ -n $simgrid ]]; then
  [[ -x $simgrid/bin/smpirun ]] || bench_die "--simgrid: no $simgrid/bin/smpirun"
  PATH=$(cd "$simgrid/bin" && pwd):$PATH
  [[ -n $build ]] || scripts/dev/build.sh smpi Release 2 >&2
fi
build=${build:-$(build_dir smpi)}
bench_need_build "$build" pstswm
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
bench_context
echo "# skeleton mode at scale: $platform (sha256 $(sha256sum "$platform" | cut -c1-12)), $steps steps (the last timed)," \
     "$(smpirun -version 2>/dev/null | head -1) ($(command -v smpirun))," \
     "$build/pstswm"
# The SimGrid smpirun reports, which every run's record must name (its library is the one loaded).
simgrid_used=$(smpirun -version 2>/dev/null | head -1 | sed 's/^SimGrid version //')
[[ -z $keep ]] || mkdir -p "$keep"
printf '| problem | grid | ranks | wall s | cpu s | peak PSS GB | max RSS GB | predicted step ms | of it communication ms | efficiency | targets |\n'
printf '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n'
for run in $runs; do
  problem=${run%%:*} grid=${run#*:}
  ranks=$(( ${grid%x*} * ${grid#*x} ))
  [[ $problem =~ ^T([0-9]+)L([0-9]+)$ ]] || bench_die "--runs: '$problem' is not TmLk"
  trunc=${BASH_REMATCH[1]} levels=${BASH_REMATCH[2]}
  copy=$work/t3e-900-$ranks.toml
  bench_py predict_scale platform "$platform" "$copy" "$ranks" "$problem"
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
  bench_py predict_scale row "$work/time" "$out" "$problem" "$grid" "$ranks" "$status" "$peak_pss_kb" "$simgrid_used" "$work/first-$problem"
done
