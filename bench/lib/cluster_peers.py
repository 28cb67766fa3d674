"""bench/cluster-peers.sh's table: pstswm's and NetPIPE's half round trip across two emulated nodes
and inside one, the minimum over the launches, and their ratios.

    cluster_peers.py WORK MPI LAUNCHES"""

import sys
from pathlib import Path

from bench_io import files, records

SIZES = (8, 1048576)


def best_times(work: Path) -> dict[tuple[str, str, int], float]:
    """(tool, placement, bytes) -> the minimum half round trip over the launches, s."""
    best: dict[tuple[str, str, int], float] = {}

    def keep(key: tuple[str, str, int], t: float) -> None:
        best[key] = min(t, best.get(key, float("inf")))

    for f in files(work, "pingpong.*.jsonl"):
        placement = f.name.split(".")[-3]
        recs = records(f)
        if recs[0]["locality"]["path"]["shared_memory"] not in (False, None):
            raise SystemExit(f"bench/cluster-peers: error: {f}: shared memory between nodes")
        for r in recs:
            if r["type"] == "point" and r["bytes"] > 0:
                keep(("pstswm", placement, r["bytes"]), r["t_min"])
    for f in files(work, "np.*.out"):
        placement = f.name.split(".")[-3]
        for line in f.read_text(encoding="utf-8").splitlines():
            nbytes, mbps, _ = line.split()
            if int(nbytes) in SIZES:  # the rate column is finer than the time column
                keep(("NetPIPE", placement, int(nbytes)), int(nbytes) * 8 / (float(mbps) * 1e6))
    return best


def main() -> None:
    work, mpi, launches = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    best = best_times(work)
    print(f"{mpi}, 2 ranks, half round trip (min over {launches} launches), emulated nodes on one machine")
    print(f"{'':10} {'':8} {'8 B us':>9} {'1 MiB us':>10} {'1 MiB MB/s':>11}")
    for tool in ("pstswm", "NetPIPE"):
        for placement in ("across", "inside"):
            t8, t1m = best[tool, placement, 8], best[tool, placement, 1048576]
            print(f"{tool:10} {placement:8} {t8 * 1e6:9.2f} {t1m * 1e6:10.1f} {1048576 / t1m / 1e6:11.0f}")
    for placement in ("across", "inside"):
        r8 = best["pstswm", placement, 8] / best["NetPIPE", placement, 8]
        r1 = best["pstswm", placement, 1048576] / best["NetPIPE", placement, 1048576]
        print(f"pstswm / NetPIPE {placement}: {r8:.2f} at 8 B, {r1:.2f} at 1 MiB")
    for tool in ("pstswm", "NetPIPE"):
        r8 = best[tool, "across", 8] / best[tool, "inside", 8]
        r1 = best[tool, "across", 1048576] / best[tool, "inside", 1048576]
        print(f"{tool} across / inside a node: {r8:.2f} at 8 B, {r1:.2f} at 1 MiB")


if __name__ == "__main__":
    main()
