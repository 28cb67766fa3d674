#!/usr/bin/env bash
# pstswm pingpong against NetPIPE (Debian's netpipe-openmpi / netpipe-mpich2) on the emulated
# cluster (scripts/cluster up): across the two nodes (srun -N 2) and inside one (srun -N 1),
# interleaved launch by launch. Prints the half round trip at 8 B and 1 MiB, the minimum over
# LAUNCHES launches, the bandwidth at 1 MiB, and the ratios pstswm / NetPIPE and across / inside.
# The emulated network is the kernel's TCP over veth on one machine: the figures test the path,
# not a network (docs/cluster.md).
#   bench/cluster-peers.sh [--mpi openmpi|mpich] [--launches N]
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
root=$bench_root mpi=openmpi launches=3
bench_parse "mpi launches" "$@"
bench_positive launches
np=NPopenmpi
[[ $mpi == openmpi ]] || np=NPmpich2
bench_need_command "$np" "scripts/dev/setup.sh $mpi"
bench_pstswm "$mpi"
"$root/scripts/cluster" up >/dev/null
eval "$("$root/scripts/cluster" env)"

bench_scratch
work=$bench_work
run() { # run PLACEMENT NODES PROGRAM ARGS...: in the scratch folder, where NetPIPE writes its table
  local nodes=$2
  shift 2
  (cd "$work" && bench_quiet "$root/scripts/pstrun" --mpi "$mpi" --launcher "srun -N $nodes -n {n}" -n 2 "$@")
}
for ((i = 1; i <= launches; i++)); do
  for placement in across:2 inside:1; do
    name=${placement%:*} nodes=${placement#*:}
    run "$name" "$nodes" "$pstswm" pingpong --modes send --sizes 8,1M --reps 20 --out "$work/pingpong.$name.$i.jsonl"
    run "$name" "$nodes" "$np" -l 8 -u 1048576 -o "np.$name.$i.out"
  done
done

bench_py cluster_peers "$work" "$mpi" "$launches"
