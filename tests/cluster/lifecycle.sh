#!/usr/bin/env bash
# scripts/cluster at NODES nodes: `up` waits until every node is idle and srun reaches each node
# by its name; a second `up` changes nothing; `down` leaves nothing behind (namespaces, links,
# daemons, files), and neither does an `up` that fails half-way (a slurmctld that cannot start).
#   lifecycle.sh NODES
set -uo pipefail
source "$(dirname "$0")/lib.sh"
nodes=$1
dir=${PSTSWM_CLUSTER_DIR:-/run/pstswm-cluster}

nothing_left() {
  local what=$1
  ip netns list | grep -q '^pstswm-node' && fail "$what: network namespaces left: $(ip netns list | tr '\n' ' ')"
  ip -br link | grep -q '^pst' && fail "$what: links left: $(ip -br link | grep '^pst' | tr '\n' ' ')"
  [[ -e $dir ]] && fail "$what: $dir left"
  ps -eo pid=,args= | grep -v grep | grep -F -e "$dir" -e pstswm-node && fail "$what: processes left"
  echo "$what: nothing left"
}

need_cluster "$nodes"
idle=$(sinfo -h -N -o '%N %T' | sort -u)
[[ $(grep -c ' idle$' <<<"$idle") == "$nodes" ]] || fail "sinfo after up: $idle"
expected=$(for ((k = 1; k <= nodes; k++)); do echo "node$k"; done)
reached=$(srun -N "$nodes" -n "$nodes" hostname | sort)
[[ $reached == "$expected" ]] || fail "srun -N $nodes hostname printed '$reached'"
echo "srun reached: $(tr '\n' ' ' <<<"$reached")"

ctld=$(cat "$dir/slurmctld.pid")
"$cluster" up --nodes "$nodes" || fail "a second up failed"
[[ $(cat "$dir/slurmctld.pid") == "$ctld" ]] && kill -0 "$ctld" || fail "a second up restarted slurmctld"

"$cluster" down || fail "down exited $?"
nothing_left "after down"

fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
printf '#!/bin/sh\necho "slurmctld: refusing to start (test)" >&2\nexit 1\n' >"$fake/slurmctld"
chmod +x "$fake/slurmctld"
out=$(PATH=$fake:$PATH "$cluster" up --nodes "$nodes" 2>&1)
rc=$?
((rc != 0)) || fail "up with a slurmctld that cannot start exited 0"
grep -q "cluster: up failed" <<<"$out" || fail "no 'up failed' line: $out"
nothing_left "after a failed up"
