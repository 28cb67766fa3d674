"""bench/model-hybrid.sh's table: per split of the cores into ranks x threads and problem the step,
each stage, the efficiency against 1x1 (and with the split's communication taken off), the node's
ceiling and the time over the problem's fastest.

    model_hybrid.py OUT CORES"""

import math
import re
import statistics
import sys
from pathlib import Path

from bench_io import files, records

from pstlab.benches import ceiling
from pstlab.benches.hybrid import LOCAL_STAGES, rank_imbalance, sync_wait_s
from pstlab.stats.stats import median_ci, paired_ratio

# stage: (field, its communication and --sync-wait's wait to take off); comm: fft_comm_s +
# legendre_comm_s (comm_s); wait: fft_wait_s + legendre_wait_s (null without --sync-wait)
STAGES = (
    ("fft", "fft_s", ("fft_comm_s", "fft_wait_s")),
    ("legendre", "legendre_s", ("legendre_comm_s", "legendre_wait_s")),
    ("fourier", "fourier_s", ()),
    ("grid", "grid_s", ()),
    ("spectral", "spectral_s", ()),
)
COLUMNS = ["split", "problem", "step ms", "low-high", *(s for s, _, _ in STAGES), "comm", "wait", "imbalance",
           "efficiency", "w/o comm", "ceiling", "eff/ceil [95 %]", "vs best [95 %]", ""]


def ms(x: float) -> str:
    return f"{x * 1e3:.3g}"


def load_runs(out: Path) -> dict[tuple[str, str], list[tuple[dict, bool, int]]]:
    """(problem, split) -> each launch's model point, whether it ran oversubscribed, and the launch."""
    runs: dict[tuple[str, str], list[tuple[dict, bool, int]]] = {}
    for f in files(out, "*.jsonl"):
        problem, split, k = re.match(r"(T\d+L\d+)-(\d+x\d+(?:@\d+x\d+)?)-L(\d+)\.jsonl", f.name).groups()
        recs = records(f)
        point = next(r for r in recs if r.get("type") == "point" and "step_s" in r)
        runs.setdefault((problem, split), []).append((point, recs[0].get("oversubscribed"), int(k)))
    return {key: sorted(launches, key=lambda r: r[2]) for key, launches in runs.items()}


class Table:
    """The rows of one run: its launches, the fastest row of each problem and the node's ceiling."""

    def __init__(self, runs: dict, cores: int, node: dict):
        self.runs, self.cores, self.node = runs, cores, node
        problems = {pr for pr, _ in runs}
        self.best = {pr: min((k for k in runs if k[0] == pr), key=lambda k: statistics.median(self.steps(k)))
                     for pr in problems}

    def steps(self, key: tuple[str, str]) -> list[float]:
        return [p["step_s"] for p, _, _ in self.runs[key]]

    def vs_best(self, key: tuple[str, str]) -> str:
        """The row's step over the fastest row's of its problem, paired by launch."""
        if key == self.best[key[0]]:
            return "best"
        a, b = self.steps(key), self.steps(self.best[key[0]])
        n = min(len(a), len(b))
        pr = paired_ratio(a[:n], b[:n], 0.95)
        if not math.isfinite(pr.lo):
            return f"{pr.ratio:.2f} (few launches)"
        return f"{pr.ratio:.2f} [{pr.lo:.2f}, {pr.hi:.2f}]{' tie' if pr.lo <= 1 <= pr.hi else ''}"

    def over_ceiling(self, problem: str, split: str, ceil: ceiling.Ceiling | None) -> str:
        """The efficiency over the ceiling launch by launch — each launch's 1x1 and split runs against
        that launch's ceiling round, so a core slow for a launch weighs on both — as the median with
        its 95 % interval; the medians' ratio when the rounds do not pair with the launches."""
        runs, base = self.runs[(problem, split)], {k: p["step_s"] for p, _, k in self.runs.get((problem, "1x1"), [])}
        if not ceil or not ceil.ratios or not base or split == "1x1":
            return "–"
        if len(ceil.ratios) != len(base) or any(k not in base or k > len(ceil.ratios) for _, _, k in runs):
            eff = statistics.median(base.values()) / (self.cores * statistics.median(self.steps((problem, split))))
            return f"{eff / ceil.ratio:.2f} (unpaired)"
        med, lo, hi = median_ci([base[k] / (self.cores * p["step_s"]) / ceil.ratios[k - 1] for p, _, k in runs])
        return f"{med:.2f} [{lo:.2f}, {hi:.2f}]" if math.isfinite(lo) else f"{med:.2f} (few launches)"

    def row(self, problem: str, split: str) -> list[str]:
        pts = [p for p, _, _ in self.runs[(problem, split)]]

        def med(field: str, minus: tuple[str, ...] = ()) -> float:
            return statistics.median((p.get(field) or 0) - sum(p.get(m) or 0 for m in minus) for p in pts)

        step = med("step_s")
        base = statistics.median(self.steps((problem, "1x1"))) if (problem, "1x1") in self.runs else None
        eff = base / (self.cores * step) if base and split != "1x1" else None
        ranks, threads = (int(x) for x in split.split("@")[0].split("x"))
        ceil = ceiling.for_split(self.node, ranks, threads)
        over = "oversubscribed" if any(o for _, o, _ in self.runs[(problem, split)]) else ""
        low_high = f"{ms(min(p['step_s'] for p in pts))}-{ms(max(p['step_s'] for p in pts))}"
        # The stages' means hold the communication (comm_s) and any wait before it: their share of
        # them, taken off the median step.
        stages = sum(med(f) for _, f, _ in STAGES)
        waits = [sync_wait_s(p) for p in pts]
        synced = any(w is not None for w in waits)
        wait = statistics.median(w or 0 for w in waits)
        comm_share = (med("comm_s") + wait) / stages if stages else 0.0
        no_comm = f"{eff / (1 - comm_share):.2f}" if eff and comm_share < 1 else "–"
        imbals = [i for p in pts if (i := rank_imbalance(p)) is not None] if ranks > 1 else []
        return [split, problem, ms(step), low_high, *(ms(med(f, m)) for _, f, m in STAGES), ms(med("comm_s")),
                ms(wait) if synced else "–", f"{statistics.median(imbals):.2f}" if imbals else "–",
                f"{eff:.2f}" if eff else "–", no_comm, ceiling.fmt_ratio(ceil),
                self.over_ceiling(problem, split, ceil),
                self.vs_best((problem, split)), over]


def by_rank(key: tuple[str, str]) -> tuple:
    return key[0], -int(key[1].split("x")[0]) if key[1] != "1x1" else -(10**9), key[1]


def main() -> None:
    out, cores = Path(sys.argv[1]), int(sys.argv[2])
    node = ceiling.ceilings(ceiling.load(out))
    table = Table(load_runs(out), cores, node)
    print("  ".join(f"{c:>10}" for c in COLUMNS))
    for problem, split in sorted(table.runs, key=by_rank):
        print("  ".join(f"{c:>10}" for c in table.row(problem, split)))
    print(
        f"# step: median over launches of each run's median step; stages: compute less communication; "
        f"wait (--sync-wait 1): the barriers before each communication, the wait for the slowest rank; "
        f"imbalance: the slowest rank's time in the {', '.join(LOCAL_STAGES)} stages over the fastest's (the same "
        f"work on every rank: a core the host runs slower shows here, and the others wait for it); "
        f"efficiency: T(1x1) / ({cores} x T(split)); w/o comm: the efficiency if the split's communication and "
        f"wait (their share of the stages' time) took none, so the rest of the loss is the split's computation; "
        f"ceiling: the node's concurrent-DGEMM per-core rate over "
        f"one core's in the same launches, median [lowest, highest] (threads for 1xT, processes otherwise); "
        f"eff/ceil: each launch's efficiency over the same launch's ceiling, median [95 % interval]; "
        f"records in {out}"
    )
    if node:
        print("# the node's ceiling (bench/node-ceiling.sh, one round per launch):")
        for line in ceiling.lines(node):
            print("#", line)


if __name__ == "__main__":
    main()
