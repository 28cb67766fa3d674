"""bench/model-reproducible.sh's table: per variant the step, its ratio to the default's and the
set-up's, medians over the rounds with their ranges, and the libraries it ran.

    model_reproducible.py OUT ROUNDS VARIANT..."""

import statistics
import sys
from pathlib import Path

from bench_io import points


def main() -> None:
    out, rounds, variants = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]

    def point(v: str, r: int) -> dict:
        return points(out / f"{v}-{r}.jsonl")[0]

    for v in variants:
        p = [point(v, r) for r in range(rounds)]
        step = [x["step_s"] / point(variants[0], r)["step_s"] for r, x in enumerate(p)]
        setup = [x["setup_s"] / point(variants[0], r)["setup_s"] for r, x in enumerate(p)]
        libs = sorted({f"{x['blas']}/{x['legendre_kernel']}" for x in p})
        print(
            f"{v:>24}: step {statistics.median(x['step_s'] for x in p) * 1e3:6.2f} ms, step ratio to default median "
            f"{statistics.median(step):.3f} (range {min(step):.3f}-{max(step):.3f}), set-up ratio "
            f"{statistics.median(setup):.2f} ({min(setup):.2f}-{max(setup):.2f}); ran {', '.join(libs)}"
        )


if __name__ == "__main__":
    main()
