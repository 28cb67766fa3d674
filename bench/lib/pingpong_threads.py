"""bench/pingpong-threads.sh's table: per size each thread mode's time per message (median over the
launches) and the ratios level multiple / single and multiple / funneled with 95 % intervals.

    pingpong_threads.py WORK LAUNCHES THREADS MPI CORES"""

import math
import statistics
import sys

from bench_io import points

from pstlab.stats.stats import paired_ratio

MODES = ("single", "funneled", "multiple", "level")


def ratio(runs: dict, nbytes: int, a: str, b: str, slower: str) -> str:
    pr = paired_ratio([r[nbytes] for r in runs[a]], [r[nbytes] for r in runs[b]], 0.95)
    if not math.isfinite(pr.lo):
        return f"{pr.ratio:.3f} undetermined (too few launches)"
    verdict = "tie" if pr.lo <= 1 <= pr.hi else (slower if pr.lo > 1 else "faster")
    return f"{pr.ratio:.3f} [{pr.lo:.3f}, {pr.hi:.3f}] {verdict}"


def main() -> None:
    work, launches, threads, mpi, cores = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])

    def t_med(mode: str, i: int) -> dict[int, float]:
        return {r["bytes"]: r["t_med"] for r in points(f"{work}/{mode}.{i}.jsonl") if r["bytes"] > 0}

    runs = {m: [t_med(m, i) for i in range(1, launches + 1)] for m in MODES}
    print(f"pingpong --threads {threads}, {mpi}, {launches} launches: time per message (us), median over launches")
    if 2 * threads > cores:
        print(f"(2 ranks x {threads} threads > {cores} cores: the streams take turns on the cores; "
              "multiple/funneled is the scheduler's, not a verdict)")
    print(f"{'bytes':>8} {'single':>10} {'level MT':>10} {'funneled':>10} {'multiple':>10}  "
          "level MT/single [95 %]  multiple/funneled [95 %]")
    for nbytes in sorted(runs["single"][0]):
        med = {m: statistics.median(r[nbytes] for r in runs[m]) * 1e6 for m in runs}
        print(f"{nbytes:>8} {med['single']:>10.3f} {med['level']:>10.3f} {med['funneled']:>10.3f} "
              f"{med['multiple']:>10.3f}  {ratio(runs, nbytes, 'level', 'single', 'MULTIPLE costs')}  "
              f"{ratio(runs, nbytes, 'multiple', 'funneled', 'slower')}")


if __name__ == "__main__":
    main()
