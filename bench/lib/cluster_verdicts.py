"""bench/cluster-verdicts.sh's table: every verdict of the quick suite's kernel and swap experiments
across two emulated nodes and inside one, and how many name a different best.

    cluster_verdicts.py WORK MPI"""

import sys
from pathlib import Path

from bench_io import files, records

KEYS = ("summary", "stage", "algorithm", "family", "cache", "bytes", "nmsg")


def verdicts(path: Path) -> dict[str, str]:
    """(what, where) -> 'best (level)' for every summary that names a best."""
    out = {}
    for r in records(path):
        if r["type"] != "summary" or not r.get("best"):
            continue
        what = r["bench"] + " " + " ".join(f"{k}={r[k]}" for k in KEYS if r.get(k) is not None)
        out[what] = f"{r['best']} ({r.get('level', '?')}{'' if r.get('decided', True) else ', undecided'})"
    return out


def main() -> None:
    work, mpi = Path(sys.argv[1]), sys.argv[2]
    differ = 0
    for name in sorted({f.name.split(".")[0] for f in files(work, "*.jsonl")}):
        across, inside = (verdicts(work / f"{name}.{p}.jsonl") for p in ("across", "inside"))
        print(f"== {mpi} {name}: {len(across)} verdicts across nodes, {len(inside)} inside a node")
        for what in sorted(set(across) | set(inside)):
            a, i = across.get(what, "-"), inside.get(what, "-")
            same = a.split()[0] == i.split()[0]
            differ += not same
            print(f"  {'   ' if same else 'DIF'} {what}: across {a} | inside {i}")
    print(f"{differ} verdicts name a different best across nodes than inside a node")


if __name__ == "__main__":
    main()
