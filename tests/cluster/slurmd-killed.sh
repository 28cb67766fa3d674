#!/usr/bin/env bash
# node2's slurmd killed before a launch: pstlab run marks the experiment failed with Slurm's
# reason (the launch on node2 failed) and goes on: the next two-node one fails too, with Slurm's
# reason (srun --immediate 10: the nodes stay busy until Slurm gives node2 up, after
# SlurmdTimeout), the one-rank one runs on node1 or fails the same way.
# Once the cluster is repaired (scripts/cluster up), --resume finishes the suite. The cluster is
# taken down afterwards.
#   slurmd-killed.sh MPI PSTSWM DIR
set -uo pipefail
source "$(dirname "$0")/lib.sh"
mpi=$1 pstswm=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
need_cluster 2
trap '"$cluster" down' EXIT
kill -KILL "$(cat "${PSTSWM_CLUSTER_DIR:-/run/pstswm-cluster}/slurmd.node2.pid")" || fail "no slurmd of node2 to kill"
suite=("$root/.venv/bin/pstlab" run "$root/tests/cluster/tiny.toml" --mpi "$mpi" --pstswm "$pstswm"
  --launcher 'srun --immediate=10 -N 2 -n {n}' --out "$dir/suite")
"${suite[@]}" >"$dir/stdout" 2>&1
rc=$?
cat "$dir/stdout"
[[ $rc == 3 ]] || fail "pstlab run exited $rc, expected 3 (experiments failed)"
python3 - "$dir/suite/manifest.json" <<'PY' || fail "the manifest"
import json, sys
exps = {e["name"]: e for e in json.load(open(sys.argv[1]))["experiments"]}
assert "failed on node node2" in exps["pingpong"]["reason"], exps["pingpong"]["reason"]
assert exps["swap"]["status"] == "failed", exps["swap"]
for name, e in exps.items():  # the one-rank run fits on node1 once it is free again
    assert e["status"] == "done" or "srun: error:" in e["reason"], f"{name}: not Slurm's reason: {e}"
print("every experiment tried, each failure with Slurm's reason:", {n: e["status"] for n, e in exps.items()})
PY
"$cluster" up || fail "the cluster was not repaired"
"${suite[@]}" --resume >"$dir/resume.out" 2>&1 || { cat "$dir/resume.out"; fail "--resume after the repair exited $?"; }
grep -q "3 done" "$dir/resume.out" || fail "--resume did not finish the suite: $(tail -2 "$dir/resume.out")"
echo "after the repair, --resume finished the suite"
