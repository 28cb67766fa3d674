#!/usr/bin/env bash
# Locality in the records, on 2 x 2 ranks (srun --overcommit: one CPU per node is allocated, so
# this runs beside the time-limit job). Block placement: swap --pairs all (0-2, 1-3) crosses
# nodes, kernel and model rows stay inside a node and their columns cross; cyclic: the pairs stay
# inside; 3 + 1 ranks (arbitrary): intra- and inter-node pairs in one run; packed on one node (also
# overcommitted, to fit beside the job): no
# probe. The probe between nodes must show on the interfaces; with MPICH, UCX left to itself
# takes shared memory between the emulated nodes, which the header must flag.
#   locality.sh MPI PSTSWM DIR
set -uo pipefail
source "$(dirname "$0")/lib.sh"
mpi=$1 pstswm=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
need_cluster 2
plugin=$([[ $mpi == openmpi ]] && echo pmix || echo pmi2)
run() { # run NAME SRUN-OPTIONS... -- PSTSWM-ARGS...
  local name=$1 opts=()
  shift
  while [[ $1 != -- ]]; do opts+=("$1"); shift; done
  shift
  srun --mpi="$plugin" "${opts[@]}" "$pstswm" "$@" --noise-probe 0 --out "$dir/$name.jsonl" >"$dir/$name.out" 2>&1 \
    || { tail -5 "$dir/$name.out"; fail "$name: srun ${opts[*]} pstswm $* exited $?"; }
}
check() { python3 "$root/tests/check-records.py" "$@" || fail "records of $1"; }
swap=(swap --pairs all --protocols 0,0 --sizes 8 --reps 5)
path="header['locality']['path']"
across="$path['seen_on_interfaces'] and not $path['shared_memory'] and $path['probe_bytes'] > 0"

run block -O -N 2 -n 4 -- "${swap[@]}"
check "$dir/block.jsonl" "header['locality']['node_of_rank'] == [0, 0, 1, 1]" "header['locality']['ranks_per_node'] == [2, 2]" \
  "header['locality']['machines'] == 1" "header['oversubscribed']" "$across" \
  "{p['locality'] for p in points} == {'inter-node'}" "{s['locality'] for s in summaries} == {'inter-node'}"

run cyclic -O -N 2 -n 4 -m cyclic -- "${swap[@]}"
check "$dir/cyclic.jsonl" "header['locality']['node_of_rank'] == [0, 1, 0, 1]" "header['locality']['distribution'] == 'cyclic'" \
  "{p['locality'] for p in points} == {'intra-node'}"

printf 'node1\nnode1\nnode1\nnode2\n' >"$dir/hostfile"
SLURM_HOSTFILE=$dir/hostfile run mixed -O -n 4 -m arbitrary -- "${swap[@]}"
check "$dir/mixed.jsonl" "header['locality']['ranks_per_node'] == [3, 1]" "{p['locality'] for p in points} == {'mixed'}"

run kernel -O -N 2 -n 4 -- kernel --grid 2x2 --trunc 10 --levels 1 --reps 3 --algorithms srtrans,halfsum --protocols 0,0
check "$dir/kernel.jsonl" "{(p['stage'], p['locality']) for p in points} == {('fft', 'intra-node'), ('legendre', 'inter-node')}"

run model -O -N 2 -n 4 -- model --grid 2x2 --trunc 10 --levels 1 --steps 2
check "$dir/model.jsonl" "points[0]['fft_locality'] == 'intra-node'" "points[0]['legendre_locality'] == 'inter-node'"

run match -N 2 -n 2 -- match --counts 4 --lengths 16 --reps 3
check "$dir/match.jsonl" "{p['locality'] for p in points} == {'inter-node'}"

run packed -O -N 1 -n 2 -- pingpong --sizes 8 --reps 5
check "$dir/packed.jsonl" "header['locality']['node_of_rank'] == [0, 0]" "$path['probe_bytes'] is None" \
  "{p['locality'] for p in points} == {'intra-node'}"

if [[ $mpi == mpich ]]; then
  (unset UCX_TLS UCX_NET_DEVICES && run shm -N 2 -n 2 -- pingpong --sizes 8 --reps 5) || exit 1
  check "$dir/shm.jsonl" "$path['shared_memory'] and not $path['seen_on_interfaces']"
  grep -q "inter-node pairs went through shared memory" "$dir/shm.out" || fail "no shared-memory warning"
fi
echo "locality recorded for every placement"
