#!/usr/bin/env bash
# Measure what `pstlab calibrate` needs on this node, then calibrate: one command (docs/predict.md,
# "Calibrate a node of your own").
#   scripts/calibrate-node.sh [--mpi openmpi|mpich] [--problems "85:16 42:16"] [--rounds N] [--steps N]
#                             [--legendre-kernel dgemm|recurrence] [--build DIR] OUT
# Writes into OUT (a new directory):
#   pingpong.jsonl        pstswm pingpong --modes send (2 ranks): the message path of one pair;
#   swap-<k>.jsonl        pstswm swap --protocols 0,6 --pairs all on k = 2, 4, 8, ... ranks and on
#                         every core: every pair exchanging at once, what the node's cores share;
#   kernel.jsonl          pstswm kernel --grid 1d --protocols 0,6 (2 ranks): the held-out stage check;
#   model-serial-T<t>L<l>-<round>-<core>.jsonl
#                         the serial model at each problem's levels, half and a quarter of them
#                         (rates by the share of the problem a rank holds), one run per core at
#                         once (a core's rate with its node full), --rounds rounds, with the
#                         Legendre kernel predictions will run (--legendre-kernel, default dgemm);
#   node.toml             the platform `pstlab calibrate OUT` fits and checks (exit 3 from
#                         calibrate: a target missed; the file still says by how much).
# Run it on an otherwise idle node (inside a job allocation on a cluster); ranks are bound one per
# core by scripts/pstrun.  --build DIR: the pstswm build (default build/<mpi>).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mpi=openmpi problems="85:16" rounds=3 steps=8 kernel=dgemm build="" out=""
while (($#)); do
  case "$1" in
    --mpi) mpi=$2; shift 2 ;;
    --problems) problems=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --legendre-kernel) kernel=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    -h|--help) sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "calibrate-node: unknown option '$1'" >&2; exit 2 ;;
    *) [[ -z $out ]] || { echo "calibrate-node: one OUT directory (got '$out' and '$1')" >&2; exit 2; }; out=$1; shift ;;
  esac
done
[[ -n $out ]] || { echo "calibrate-node: name the OUT directory (scripts/calibrate-node.sh OUT)" >&2; exit 2; }
[[ ! -e $out ]] || { echo "calibrate-node: $out exists: give a new directory" >&2; exit 2; }
[[ $kernel == dgemm || $kernel == recurrence ]] ||
  { echo "calibrate-node: --legendre-kernel dgemm or recurrence (got '$kernel')" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "calibrate-node: --rounds needs a positive count (got '$rounds')" >&2; exit 2; }
[[ $steps =~ ^[1-9][0-9]*$ ]] || { echo "calibrate-node: --steps needs a positive count (got '$steps')" >&2; exit 2; }
for problem in $problems; do
  [[ $problem =~ ^[1-9][0-9]*:[1-9][0-9]*$ ]] ||
    { echo "calibrate-node: --problems takes TRUNC:LEVELS items, e.g. '85:16 42:16' (got '$problem')" >&2; exit 2; }
done
pstswm=${build:-$root/build/$mpi}/pstswm
[[ -x $pstswm ]] || { echo "calibrate-node: $pstswm not built (scripts/dev/build.sh $mpi)" >&2; exit 2; }
python=$root/.venv/bin/python
[[ -x $python ]] || python=python3
cores=$(nproc)
run() { "$root/scripts/pstrun" --mpi "$mpi" "$@" >/dev/null; }
mkdir -p "$out"

echo "calibrate-node: $cores cores, $mpi, into $out"
run -n 2 "$pstswm" pingpong --modes send --reps 20 --out "$out/pingpong.jsonl"
# 2, 4, 8, ... ranks and every core: the shared path shows as the flows grow.
counts=() k=2
while ((k < cores)); do counts+=("$k"); k=$((k * 2)); done
counts+=("$((cores < 2 ? 2 : cores))")
for k in "${counts[@]}"; do
  run -n "$k" "$pstswm" swap --protocols 0,6 --sizes 8,64,512,4K,32K,128K,512K,2M --pairs all --reps 20 \
    --out "$out/swap-$k.jsonl"
done
run -n 2 "$pstswm" kernel --trunc 42 --levels 4 --grid 1d --protocols 0,6 --reps 10 --out "$out/kernel.jsonl"
# Serial runs, one per core at once and unbound so they spread; the problems and their level
# counts interleaved within each round, so a slow spell of the node does not fall on one of them.
for ((round = 0; round < rounds; round++)); do
  for problem in $problems; do
    trunc=${problem%:*} top=${problem#*:}
    for levels in "$top" $((top / 2)) $((top / 4)); do
      ((levels >= 1)) || continue
      pids=()
      for ((core = 0; core < cores; core++)); do
        OMPI_MCA_hwloc_base_binding_policy=none run -n 1 "$pstswm" model --trunc "$trunc" --levels "$levels" \
          --steps "$steps" --legendre-kernel "$kernel" --out "$out/model-serial-T${trunc}L${levels}-$round-$core.jsonl" &
        pids+=($!)
      done
      for pid in "${pids[@]}"; do wait "$pid"; done
    done
  done
done
echo "calibrate-node: measured; calibrating"
PYTHONPATH=$root/python${PYTHONPATH:+:$PYTHONPATH} "$python" -m pstlab calibrate "$out" --out "$out/node.toml"
