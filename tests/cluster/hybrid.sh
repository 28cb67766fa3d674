#!/usr/bin/env bash
# Ranks per node x threads across the emulated nodes: pstlab's splits of a node's cores run
# through srun on two nodes (R ranks per node with -c T), and the report's verdict covers them.
#   hybrid.sh MPI PSTSWM DIR
set -uo pipefail
source "$(dirname "$0")/lib.sh"
mpi=$1 pstswm=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
need_cluster 2

PSTLAB_CORES_PER_NODE=2 "$root/.venv/bin/pstlab" run "$root/tests/cluster/hybrid.toml" --mpi "$mpi" --pstswm "$pstswm" \
  --launcher 'srun -N 2 -n {n}' --out "$dir/suite" >"$dir/suite.out" 2>&1 || { cat "$dir/suite.out"; fail "pstlab run exited $?"; }
python3 - "$dir/suite" <<'PY' || fail "the splits' records or the verdict"
import json, pathlib, sys
d = pathlib.Path(sys.argv[1])
m = json.loads((d / "manifest.json").read_text())
assert sorted({e["name"] for e in m["experiments"]}) == ["hybrid-1x2", "hybrid-2x1"], m["experiments"]
assert all(e["status"] == "done" for e in m["experiments"]), m["experiments"]
for split, ranks, threads in (("2x1", 4, 1), ("1x2", 2, 2)):
    for f in sorted(d.glob(f"hybrid-{split}*.jsonl")):
        header = json.loads(f.read_text().splitlines()[0])
        assert header["hosts"] == ["node1", "node2"] and header["nodes"] == 2, (f.name, header["hosts"])
        assert len(header["binding"]) == ranks and all(b["threads"] == threads for b in header["binding"]), (f.name, header["binding"])
report = (d / "report.md").read_text()
assert "Ranks x threads" in report and "2 nodes x 2 cores" in report, "no ranks x threads verdict for 2 nodes in the report"
print("ranks per node x threads on 2 nodes: both splits ran, the report gives the verdict")
PY
