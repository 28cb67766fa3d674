"""bench/model-alloc-state.sh's table: the model's step and each kernel collective under three
MALLOC_MMAP_THRESHOLD_ settings, median over the launches with its range and ratio to the default.

    model_alloc_state.py WORK MPI LAUNCHES"""

import statistics
import sys

from bench_io import files, points

VARIANTS = ("default", "131072", "33554432")


def cells_of(work: str) -> dict[tuple[str, str], list[float]]:
    """(what, variant) -> the launches' times, s."""
    cells: dict[tuple[str, str], list[float]] = {}
    for path in files(work, "*.jsonl"):
        kind, variant = path.name.split(".")[:2]
        for rec in points(path):
            if kind == "model" and "step_s" in rec:
                cells.setdefault(("model coll preset T85L8 1x2 step", variant), []).append(rec["step_s"])
            elif kind == "kernel":
                what = f"kernel {rec['algorithm']} ({rec['stage']}, {rec['grid']})"
                cells.setdefault((what, variant), []).append(rec["t_med"])
    return cells


def main() -> None:
    work, mpi, launches = sys.argv[1], sys.argv[2], int(sys.argv[3])
    cells = cells_of(work)
    print(
        f"{mpi}, 2 ranks, {launches} interleaved launches: median over launches [min, max] in ms; "
        "MALLOC_MMAP_THRESHOLD_ default / 131072 (fresh-like) / 33554432 (warm-like)"
    )
    for what in sorted({w for w, _ in cells}):
        row = []
        base = statistics.median(cells[(what, "default")])
        for v in VARIANTS:
            t = cells[(what, v)]
            row.append(
                f"{v:>8} {statistics.median(t) * 1e3:8.3f} [{min(t) * 1e3:.3f}, {max(t) * 1e3:.3f}] "
                f"x{statistics.median(t) / base:.2f}"
            )
        print(f"  {what:<40} " + "  ".join(row))


if __name__ == "__main__":
    main()
