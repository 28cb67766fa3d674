"""What it would take to narrow a wide tie: the launches (and minutes) that would separate a 5 %
difference at the spread the suite saw, per verdict and per experiment.

A best set that holds more than WIDE_SHARE of its alternatives says little.  Either the
alternatives are equal within the margin (no run narrows that), or the launches so far are too
few for their spread: stats.launches_to_separate says how many would separate a real DIFFERENCE,
and the suite's own launch times say what they cost.  `pstlab run --until` spends a budget on the
experiments whose ties are widest and can still be narrowed.
"""

import statistics
from dataclasses import dataclass

from pstlab.io.records import RecordSet
from pstlab.stats import verdicts

WIDE_SHARE = 0.25  # a best set above this share of the alternatives is a wide tie
DIFFERENCE = 0.05  # the real difference a longer run should be able to separate


@dataclass(frozen=True)
class Tie:
    key: tuple
    share: float  # best set / alternatives
    launches: int  # launches so far
    needed: int | None  # launches that would separate DIFFERENCE (None: not within stats.MAX_LAUNCHES)

    @property
    def more(self) -> int | None:
        """Further launches to reach `needed` (0: reached, the members are equal within the margin)."""
        return None if self.needed is None else max(self.needed - self.launches, 0)


def share(case: verdicts.Case) -> float:
    return len(case.verdict.best_set) / len(case.rounds)


def wide_ties(cases: list[verdicts.Case]) -> list[Tie]:
    """The wide ties of clean (not oversubscribed) verdicts from two or more launches, widest first."""
    ties = [
        Tie(c.key, share(c), c.launches, c.launches_to_separate(DIFFERENCE))
        for c in cases
        if c.launches > 1 and "oversubscribed" not in c.caveats and share(c) > WIDE_SHARE
    ]
    return sorted(ties, key=lambda t: -t.share)


def launch_seconds(rs: RecordSet, subcommand: str) -> float | None:
    """One more launch of each of the suite's repeated `subcommand` experiments: the median of their
    finished launches' elapsed seconds, summed (None without a manifest saying so)."""
    per_name: dict[str, list[float]] = {}
    for e in (rs.manifest or {}).get("experiments", []):
        if e.get("subcommand") == subcommand and e.get("status") == "done" and e.get("elapsed_s"):
            per_name.setdefault(e["name"], []).append(float(e["elapsed_s"]))
    repeated = [statistics.median(times) for times in per_name.values() if len(times) > 1]
    return sum(repeated) if repeated else None


def line(bench: str, cases: list[verdicts.Case], seconds_per_launch: float | None) -> str | None:
    """'Wide ties, kernel: 9 of 11 over 25% (median 60%); 5% separates at ~12 launches (median tie; 7 more, ~2 min)'."""
    ties = wide_ties(cases)
    if not ties:
        return None
    counted = [c for c in cases if c.launches > 1 and "oversubscribed" not in c.caveats]
    head = (
        f"Wide ties, {bench}: {len(ties)} of {len(counted)} over {WIDE_SHARE:.0%} "
        f"(median {statistics.median(t.share for t in ties):.0%})"
    )
    reachable = [t for t in ties if t.more]
    if not reachable:
        equal = sum(t.more == 0 for t in ties)
        return f"{head}; {equal} equal within the margin at the precision reached, the rest beyond any run"
    needed = round(statistics.median(t.needed for t in reachable))
    more = max(needed - reachable[0].launches, 0)
    cost = f", ~{more * seconds_per_launch / 60:.0f} min" if seconds_per_launch else ""
    return f"{head}; {DIFFERENCE:.0%} separates at ~{needed} launches (median; {more} more{cost})"
