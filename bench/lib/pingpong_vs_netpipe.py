"""bench/pingpong-vs-netpipe.sh's table: the half round trip of pstswm's swap and pingpong and of
NetPIPE at 8 B and 1 MiB, the minimum over the launches, and the ratios ours / NetPIPE.

    pingpong_vs_netpipe.py WORK MPI LAUNCHES"""

import sys

from bench_io import files, points

METHODS = ["swap 1,0 cache 1", "swap 1,0 cache 10", "pingpong send", "NetPIPE"]
SHORT = ["swap c1", "swap c10", "pingpong"]


def best_times(work: str) -> dict[tuple[str, int], float]:
    """(method, bytes) -> min half round trip over launches, seconds."""
    best: dict[tuple[str, int], float] = {}

    def keep(method: str, nbytes: int, t: float) -> None:
        best[method, nbytes] = min(t, best.get((method, nbytes), float("inf")))

    for f in files(work, "swap.*.jsonl"):
        for r in points(f):
            keep(f"swap 1,0 cache {r['cache']}", r["bytes"], r["t_min"] / 2)
    for f in files(work, "pingpong.*.jsonl"):
        for r in points(f):
            if r["bytes"] > 0:
                keep("pingpong send", r["bytes"], r["t_min"])
    for f in files(work, "np.*.out"):
        for line in f.read_text(encoding="utf-8").splitlines():
            nbytes, mbps, _half_rtt = line.split()
            if int(nbytes) in (8, 1048576):
                # The rate column has 6 decimals where the time column has 10 ns steps: derive t from it.
                keep("NetPIPE", int(nbytes), int(nbytes) * 8 / (float(mbps) * 1e6))
    return best


def main() -> None:
    work, mpi, launches = sys.argv[1], sys.argv[2], int(sys.argv[3])
    best = best_times(work)
    print(f"half round trip, 2 ranks, {mpi}, min over {launches} launches (us); ratio = ours / NetPIPE")
    print(f"  {'':8}" + "".join(f"{m:>19}" for m in METHODS) + "".join(f"{'ratio ' + s:>16}" for s in SHORT))
    for nbytes, label in [(8, "8 B"), (1048576, "1 MiB")]:
        ref = best.get(("NetPIPE", nbytes))
        cells = "".join(f"{best.get((m, nbytes), float('nan')) * 1e6:19.3f}" for m in METHODS)
        ratios = "".join(f"{best.get((m, nbytes), float('nan')) / ref:16.2f}" for m in METHODS[:3])
        print(f"  {label:8}{cells}{ratios}")


if __name__ == "__main__":
    main()
