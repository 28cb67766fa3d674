"""bench/pingpong-minimal.sh's table: pstswm's and the minimal ping-pong's best half round trip over
the launches (and their medians), the minimal one at a thread level, and the ratios.

    pingpong_minimal.py WORK LAUNCHES LEVEL"""

import statistics
import sys

from bench_io import files, points


def figures(work: str, pattern: str) -> list[float]:
    """One figure per launch of the minimal ping-pong: the file holds its best half round trip."""
    return [float(f.read_text(encoding="utf-8")) for f in files(work, pattern)]


def main() -> None:
    work, launches, level = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    us = 1e6
    for nbytes in (8, 1048576):
        runs = files(work, f"pstswm.{nbytes}.*.jsonl")
        ours = [min(r["t_min"] for r in points(f) if r["bytes"] == nbytes) for f in runs]
        mini = figures(work, f"minimal.{nbytes}.*")
        lev = figures(work, f"level.{nbytes}.*")
        med = statistics.median
        print(
            f"{nbytes:>8} B  half round trip, best of {launches} launches (median of launches):"
            f"  pstswm {min(ours) * us:.3f} us ({med(ours) * us:.3f})"
            f"  minimal {min(mini) * us:.3f} us ({med(mini) * us:.3f})"
            f"  minimal at {level} {min(lev) * us:.3f} us ({med(lev) * us:.3f})"
        )
        print(
            f"{'':>8}    ratio pstswm / minimal: best {min(ours) / min(mini):.3f}, median {med(ours) / med(mini):.3f};"
            f"  {level} / single: best {min(lev) / min(mini):.3f}, median {med(lev) / med(mini):.3f}"
        )


if __name__ == "__main__":
    main()
