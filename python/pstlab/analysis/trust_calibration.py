"""Calibrate the Trust levels: how often a suite's box verdicts reproduce in a fresh suite, per level.

    python -m pstlab.analysis.trust_calibration [--launches L] [--draws N] CONDITION=DIR[,DIR...] ...

Each DIR is a results directory of one suite run with several launches per experiment (pstlab run
with `launches` in the suite).  Two measurements per condition:

- real pairs: consecutive DIRs of a condition form pairs (1st with 2nd, 3rd with 4th, ...); each
  suite's Trust level (analysis/trust.py) is checked against the share of its kernel and swap
  verdicts whose best set meets the other suite's (the agreement of pstlab repro);
- resampling: the launches of all DIRs of a condition are pooled, and N times two disjoint sets of L
  launches per experiment are drawn as two pseudo-suites, scored the same way.  With --lottery
  CHANCE,GAIN each drawn launch, with probability CHANCE, favours one of its protocols drawn at random
  by GAIN (its rounds that much shorter), as a launch whose placement happens to suit one protocol
  does: launches then disagree, and the levels below high are measured too.

Prints one row per condition and level: suites, verdicts compared, the share reproduced with its
Wilson 95 % interval (verdicts of one suite are not independent: read it as a lower bound on the
width), and the median best-set share of the alternatives.
"""

import argparse
import math
import random
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

from pstlab.analysis import trust
from pstlab.benches import kernel, swap
from pstlab.io.records import RecordSet, load, load_file

BENCHES = (kernel, swap)


@dataclass
class Tally:
    suites: int = 0
    verdicts: int = 0
    reproduced: int = 0
    shares: list[float] = field(default_factory=list)

    def add(self, reproduced: int, verdicts: int, shares: list[float]) -> None:
        self.suites += 1
        self.verdicts += verdicts
        self.reproduced += reproduced
        self.shares += shares


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return math.nan, math.nan
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def verdicts_of(rs: RecordSet) -> tuple[dict, list]:
    """{(bench, key): best set} of the clean verdicts, and the cases (for the Trust level)."""
    out, cases = {}, []
    for bench in BENCHES:
        for c in bench.verdict_cases(rs):
            cases.append(c)
            if "oversubscribed" not in c.caveats:
                out[(bench.BENCH, c.key)] = (frozenset(c.verdict.best_set), len(c.rounds))
    return out, cases


def score(a: tuple[dict, list], b: tuple[dict, list]) -> tuple[str, int, int, list[float]]:
    """a's Trust level, how many of its verdicts b also has, how many of those meet b's, a's set shares
    (a, b: verdicts_of of two suites)."""
    (va, cases), (vb, _) = a, b
    common = [k for k in va if k in vb]
    level = trust.level_of(trust.agreement(cases)) or "unmeasured"
    met = sum(bool(va[k][0] & vb[k][0]) for k in common)
    return level, met, len(common), [len(va[k][0]) / va[k][1] for k in common]


def launch_files(directory: Path) -> dict[str, list[Path]]:
    """{experiment: its launch files} of one results directory."""
    out: dict[str, list[Path]] = {}
    for f in sorted(directory.glob("*-L*.jsonl")):
        out.setdefault(f.name.rsplit("-L", 1)[0], []).append(f)
    return out


@dataclass(frozen=True)
class Lottery:
    """A placement lottery over recorded launches: with probability `chance` a launch favours one of
    its protocols, drawn at random, by `gain` (0.1: its rounds 10 % shorter)."""

    chance: float
    gain: float

    def draw(self, records: list[dict], rng: random.Random) -> list[dict]:
        """One launch's records as this lottery leaves them (new dicts where changed)."""
        timed = sorted({str(r["protocol"]) for r in records if r.get("type") == "point" and "protocol" in r})
        if not timed or rng.random() >= self.chance:
            return records
        lucky = rng.choice(timed)
        return [
            dict(r, round_s=[t * (1 - self.gain) for t in r["round_s"]])
            if r.get("type") == "point" and str(r.get("protocol")) == lucky and isinstance(r.get("round_s"), list)
            else r
            for r in records
        ]

    def __str__(self) -> str:
        return f"lottery {self.chance:.0%} x {self.gain:.0%}"


def pseudo_suites(dirs: list[Path], launches: int, draws: int, rng: random.Random, lottery: Lottery | None = None):
    """draws pairs of record sets, each of `launches` launches per experiment, disjoint within a pair
    (each launch through the lottery, when one is given)."""
    pooled: dict[str, list[Path]] = {}
    for d in dirs:
        for name, files in launch_files(d).items():
            pooled.setdefault(name, []).extend(files)
    usable = {n: fs for n, fs in pooled.items() if len(fs) >= 2 * launches}
    cache: dict[Path, list[dict]] = {}
    for _ in range(draws):
        picks = {n: rng.sample(fs, 2 * launches) for n, fs in usable.items()}
        halves = []
        for side in (slice(0, launches), slice(launches, 2 * launches)):
            runs = [cache.setdefault(f, load_file(f)) for fs in picks.values() for f in fs[side]]
            recs = [r for run in runs for r in (lottery.draw(run, rng) if lottery else run)]
            halves.append(RecordSet(dirs[0], recs))
        yield halves


def calibrate(
    conditions: dict[str, list[Path]], launches: int, draws: int, draw_key: int = 1, lottery: Lottery | None = None
) -> dict:
    """{(condition, method, level): Tally}."""
    rng, table = random.Random(draw_key), {}  # noqa: S311 (reproducible draws, not a secret)
    for cond, dirs in conditions.items():
        sets = [verdicts_of(load(d)) for d in dirs]
        for a, b in zip(sets[0::2], sets[1::2], strict=False):
            for x, y in ((a, b), (b, a)):
                level, met, n, shares = score(x, y)
                table.setdefault((cond, "pairs", level), Tally()).add(met, n, shares)
        method = f"resampled, {lottery}" if lottery else "resampled"
        for a, b in pseudo_suites(dirs, launches, draws, rng, lottery):
            level, met, n, shares = score(verdicts_of(a), verdicts_of(b))
            table.setdefault((cond, method, level), Tally()).add(met, n, shares)
    return table


def render(table: dict) -> str:
    lines = [
        "| condition | method | level | suites | verdicts | reproduced [95 % interval] | median best set |",
        "|---|---|---|---|---|---|---|",
    ]
    for (cond, method, level), t in sorted(table.items()):
        lo, hi = wilson(t.reproduced, t.verdicts)
        share = f"{statistics.median(t.shares):.0%}" if t.shares else "–"
        rate = f"{t.reproduced / t.verdicts:.1%} [{lo:.1%}, {hi:.1%}]" if t.verdicts else "–"
        lines.append(f"| {cond} | {method} | {level} | {t.suites} | {t.verdicts} | {rate} | {share} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m pstlab.analysis.trust_calibration", description=__doc__.split("\n")[0])
    p.add_argument("conditions", nargs="+", metavar="CONDITION=DIR[,DIR...]")
    p.add_argument("--launches", type=int, default=3, help="launches per experiment of a pseudo-suite (default 3)")
    p.add_argument("--draws", type=int, default=20, help="pseudo-suite pairs per condition (default 20)")
    p.add_argument("--lottery", metavar="CHANCE,GAIN", help="a placement lottery over the resampled launches")
    args = p.parse_args(argv)
    lottery = None
    if args.lottery:
        try:
            lottery = Lottery(*(float(x) for x in args.lottery.split(",")))
        except (TypeError, ValueError):
            p.error(f"--lottery: '{args.lottery}' is not CHANCE,GAIN (two numbers)")
        if not (0 < lottery.chance <= 1 and 0 < lottery.gain < 1):
            p.error(f"--lottery: chance in (0, 1] and gain in (0, 1), not '{args.lottery}'")
    conditions = {}
    for spec in args.conditions:
        name, _, dirs = spec.partition("=")
        conditions[name] = [Path(d) for d in dirs.split(",") if d]
    print(render(calibrate(conditions, args.launches, args.draws, lottery=lottery)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
