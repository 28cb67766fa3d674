#!/usr/bin/env bash
# Launches on the emulated cluster: srun across two nodes with the MPI's PMI, scripts/pstrun
# --launcher srun (plain, on one rank, and spread with a template), and pstlab run of a suite.
#   launch.sh MPI PSTSWM DIR
set -uo pipefail
source "$(dirname "$0")/lib.sh"
mpi=$1 pstswm=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
need_cluster 2
check() { python3 "$root/tests/check-records.py" "$@" || fail "records of $1"; }
plugin=$([[ $mpi == openmpi ]] && echo pmix || echo pmi2)

srun --mpi="$plugin" -N 2 -n 2 "$pstswm" pingpong --sizes 8,64K --reps 5 --noise-probe 0 --out "$dir/srun.jsonl" \
  >"$dir/srun.out" || fail "srun --mpi=$plugin -N 2 -n 2 pstswm pingpong exited $?"
check "$dir/srun.jsonl" "header['hosts'] == ['node1', 'node2']" "header['nodes'] == 2"

# Plain srun, on one rank: it fits beside the time-limit job, wherever Slurm puts it.
"$root/scripts/pstrun" --mpi "$mpi" --launcher srun -n 1 "$pstswm" model --trunc 10 --levels 1 --steps 2 --noise-probe 0 \
  --out "$dir/srun-plain.jsonl" >"$dir/srun-plain.out" || fail "pstrun --launcher srun exited $?"
check "$dir/srun-plain.jsonl" "header['hosts'][0] in ('node1', 'node2')" "header['env']['SLURM_STEP_NUM_NODES'] == '1'"

"$root/scripts/pstrun" --mpi "$mpi" --launcher 'srun -N 2 -n {n}' -n 2 "$pstswm" swap --protocols 0,0,1,3 --sizes 8 \
  --reps 5 --noise-probe 0 --out "$dir/spread.jsonl" >"$dir/spread.out" || fail "pstrun --launcher 'srun -N 2 -n {n}' exited $?"
check "$dir/spread.jsonl" "header['hosts'] == ['node1', 'node2']"

"$root/.venv/bin/pstlab" run "$root/tests/cluster/tiny.toml" --mpi "$mpi" --pstswm "$pstswm" \
  --launcher 'srun -N 2 -n {n}' --out "$dir/suite" || fail "pstlab run --launcher srun exited $?"
python3 - "$dir/suite" <<'PY' || fail "the suite's manifest or records"
import json, pathlib, sys
d = pathlib.Path(sys.argv[1])
m = json.loads((d / "manifest.json").read_text())
assert [e["status"] for e in m["experiments"]] == ["done"] * 3, m["experiments"]
for name, nodes in (("pingpong", 2), ("swap", 2), ("model-serial", 1)):
    header = json.loads((d / f"{name}.jsonl").read_text().splitlines()[0])
    assert len(header["hosts"]) == nodes and set(header["hosts"]) <= {"node1", "node2"}, (name, header["hosts"])
print("pstlab run --launcher srun: 3 done, on the nodes asked for")
PY
