"""bench/ab-binaries.sh's table: per workload the after/before ratio of the launches' medians with a
95 % bootstrap interval over the launch pairs.

    ab_binaries.py WORK MPI LAUNCHES"""

import random
import statistics
import sys
from pathlib import Path

from bench_io import files, points


def launch_time(path: Path) -> float:
    """The launch's own median: the model's step, the 8-byte pingpong's or the swap's time."""
    for rec in points(path):
        if rec.get("bench") == "model":
            return rec["step_s"]
        if rec.get("bench") == "pingpong" and rec["bytes"] == 8:
            return rec["t_med"]
        if rec.get("bench") == "swap":
            return rec["t_med"]
    raise SystemExit(f"bench/ab-binaries: error: no timed point in {path}")


def bootstrap(after: list[float], before: list[float], rng: random.Random) -> tuple[float, float]:
    """The 95 % interval of the ratio of medians, resampling launch pairs."""
    n = len(after)
    boot = []
    for _ in range(2000):
        idx = [rng.randrange(n) for _ in range(n)]
        boot.append(statistics.median(after[i] for i in idx) / statistics.median(before[i] for i in idx))
    boot.sort()
    return boot[int(0.025 * len(boot))], boot[int(0.975 * len(boot)) - 1]


def main() -> None:
    work, mpi, launches = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    names = sorted({p.name.split(".")[0] for p in files(work, "*.jsonl")})
    rng = random.Random(1)  # noqa: S311 - a bootstrap, not a secret: the same seed gives the same table
    print(f"{mpi}, {launches} interleaved launch pairs; per launch its own median; ratio = after/before")
    print(f"{'workload':18} {'before':>11} {'after':>11} {'ratio':>7} {'95% interval':>17} "
          f"{'pair ratios':>15}  verdict")
    for name in names:
        b = [launch_time(work / f"{name}.before.{i}.jsonl") for i in range(1, launches + 1)]
        a = [launch_time(work / f"{name}.after.{i}.jsonl") for i in range(1, launches + 1)]
        ratio = statistics.median(a) / statistics.median(b)
        lo, hi = bootstrap(a, b, rng)
        pairs = [x / y for x, y in zip(a, b, strict=True)]
        verdict = "no measurable change" if lo <= 1 <= hi else ("faster" if hi < 1 else "slower")
        print(
            f"{name:18} {statistics.median(b) * 1e6:9.2f}us {statistics.median(a) * 1e6:9.2f}us {ratio:7.3f} "
            f"[{lo:6.3f}, {hi:6.3f}] {min(pairs):6.2f}-{max(pairs):<6.2f}  {verdict}"
        )


if __name__ == "__main__":
    main()
