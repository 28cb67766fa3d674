#!/usr/bin/env bash
# The quick suite's kernel and swap verdicts across two emulated nodes (srun -N 2) and inside
# one (srun -N 1), interleaved, on the emulated cluster (scripts/cluster up): prints every
# verdict (the best protocol or algorithm and how sure) per placement, and where they differ.
# The experiments' arguments are the quick suite's (suites/quick.toml), --reps overridable.
#   bench/cluster-verdicts.sh openmpi|mpich [REPS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mpi=${1:?usage: bench/cluster-verdicts.sh openmpi|mpich [REPS]} reps=${2:-}
pstswm=$root/build/$mpi/pstswm
[[ -x $pstswm ]] || { echo "cluster-verdicts: $pstswm missing; build it with scripts/dev/build.sh $mpi" >&2; exit 2; }
"$root/scripts/cluster" up >/dev/null
eval "$("$root/scripts/cluster" env)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The arguments of the quick suite's 2-rank kernel and swap-protocols experiments.
mapfile -t experiments < <(python3 - "$root/suites/quick.toml" "$reps" <<'PY'
import sys, tomllib
suite, reps = tomllib.load(open(sys.argv[1], "rb")), sys.argv[2]
for e in suite["experiment"]:
    if e["name"] in ("kernel", "swap-protocols"):
        args = list(e["args"])
        if reps and "--reps" in args:
            args[args.index("--reps") + 1] = reps
        print(" ".join([e["name"], e["subcommand"], *args]))
PY
)
for line in "${experiments[@]}"; do
  read -ra words <<<"$line"
  for placement in across:2 inside:1; do
    name=${placement%:*} nodes=${placement#*:}
    "$root/scripts/pstrun" --mpi "$mpi" --launcher "srun -N $nodes -n {n}" -n 2 "$pstswm" "${words[@]:1}" --noise-probe 0 \
      --out "$work/${words[0]}.$name.jsonl" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
  done
done

python3 - "$work" "$mpi" <<'PY'
import glob, json, os, sys

work, mpi = sys.argv[1], sys.argv[2]

def verdicts(path):
    """(what, where) -> 'best (level)' for every summary that names a best."""
    out = {}
    for r in map(json.loads, open(path)):
        if r["type"] != "summary" or not r.get("best"):
            continue
        what = r["bench"] + " " + " ".join(
            f"{k}={r[k]}" for k in ("summary", "stage", "algorithm", "family", "cache", "bytes", "nmsg") if r.get(k) is not None)
        out[what] = f"{r['best']} ({r.get('level', '?')}{'' if r.get('decided', True) else ', undecided'})"
    return out

differ = 0
for name in sorted({os.path.basename(f).split(".")[0] for f in glob.glob(os.path.join(work, "*.jsonl"))}):
    across, inside = (verdicts(os.path.join(work, f"{name}.{p}.jsonl")) for p in ("across", "inside"))
    print(f"== {mpi} {name}: {len(across)} verdicts across nodes, {len(inside)} inside a node")
    for what in sorted(set(across) | set(inside)):
        a, i = across.get(what, "-"), inside.get(what, "-")
        same = a.split()[0] == i.split()[0]
        differ += not same
        print(f"  {'   ' if same else 'DIF'} {what}: across {a} | inside {i}")
print(f"{differ} verdicts name a different best across nodes than inside a node")
PY
