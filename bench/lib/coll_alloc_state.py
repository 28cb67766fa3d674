"""bench/coll-alloc-state.sh's table: per operation and size each allocator state's median call time
over the launches, its range and its ratio to warm.

    coll_alloc_state.py WORK MPI LAUNCHES"""

import statistics
import sys

from bench_io import files, points

VARIANTS = ("default", "warm", "fresh", "mmap128K")


def main() -> None:
    work, mpi, launches = sys.argv[1], sys.argv[2], int(sys.argv[3])
    times: dict[tuple[str, int, str], list[float]] = {}
    for path in files(work, "*.jsonl"):
        variant = path.name.split(".")[0]
        for rec in points(path):
            times.setdefault((rec["op"], rec["bytes"], variant), []).append(rec["t_med"])
    print(
        f"{mpi}, 2 ranks, {launches} interleaved launches: median over launches of each launch's median "
        "call time [min, max], and its ratio to warm"
    )
    for op, nbytes in sorted({(o, b) for o, b, _ in times}):
        warm = statistics.median(times[(op, nbytes, "warm")])
        cells = []
        for v in VARIANTS:
            t = times[(op, nbytes, v)]
            cells.append(
                f"{v} {statistics.median(t) * 1e6:8.1f} us [{min(t) * 1e6:.0f}, {max(t) * 1e6:.0f}] "
                f"x{statistics.median(t) / warm:.2f}"
            )
        print(f"  {op:<10} {nbytes:>8} B  " + "  ".join(cells))


if __name__ == "__main__":
    main()
