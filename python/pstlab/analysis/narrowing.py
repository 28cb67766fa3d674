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
LINE_WIDTH = 120  # the box's


@dataclass(frozen=True)
class Tie:
    key: tuple
    name: str  # what the verdict compares, as a reader names it ("swtrans fft T42L4 2x1", "512 B")
    share: float  # best set / alternatives
    launches: int  # launches so far
    needed: int | None  # launches that would separate DIFFERENCE (None: not within stats.MAX_LAUNCHES)

    @property
    def more(self) -> int | None:
        """Further launches to reach `needed` (0: reached, the members are equal within the margin)."""
        return None if self.needed is None else max(self.needed - self.launches, 0)

    def status(self, seconds_per_launch: float | None) -> str:
        """'equal within margin', '~19 launches (7 more, ~2 min)' or 'beyond reach' (stats.MAX_LAUNCHES)."""
        if self.more is None:
            return "beyond reach"
        if self.more == 0:
            return "equal within margin"
        cost = f", ~{duration(self.more * seconds_per_launch)}" if seconds_per_launch else ""
        return f"~{self.needed} launches ({self.more} more{cost})"


def share(case: verdicts.Case) -> float:
    return len(case.verdict.best_set) / len(case.rounds)


def wide_ties(cases: list[verdicts.Case], name=lambda key: " ".join(map(str, key))) -> list[Tie]:
    """The wide ties of clean (not oversubscribed) verdicts from two or more launches, widest first
    (a lone best is no tie, whatever share of few alternatives it is); name(key) says what each compares."""
    ties = [
        Tie(c.key, name(c.key), share(c), c.launches, c.launches_to_separate(DIFFERENCE))
        for c in cases
        if c.launches > 1
        and "oversubscribed" not in c.caveats
        and len(c.verdict.best_set) > 1
        and share(c) > WIDE_SHARE
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


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.0f} h"


def line(bench: str, ties: list[Tie], counted: int, seconds_per_launch: float | None) -> str | None:
    """Each wide tie by what would narrow it, in one line of the box: 'Wide ties, kernel: 5 of 11 over
    25% (median 32%): 2 equal within margin; 3 separate 5% in 3–14 more launches (~40 s–3 min)'; the
    median, then the ranges' low ends, then the cost give way where the line would outgrow LINE_WIDTH.
    counted: the verdicts the ties are of (clean, from two or more launches)."""
    if not ties:
        return None
    head = f"Wide ties, {bench}: {len(ties)} of {counted} over {WIDE_SHARE:.0%}"
    median = f" (median {statistics.median(t.share for t in ties):.0%})"
    reachable = sorted(t.more for t in ties if t.more)
    equal, beyond = sum(t.more == 0 for t in ties), sum(t.more is None for t in ties)

    def text(ranged: bool, costed: bool = True) -> str:
        parts = [f"{equal} equal within margin"] if equal else []
        if reachable:
            few, many = reachable[0], reachable[-1]
            cost = ""
            if seconds_per_launch and costed:
                low, high = duration(few * seconds_per_launch), duration(many * seconds_per_launch)
                cost = f" (~{high})" if low == high else f" (~{low}–{high})" if ranged else f" (≤{high})"
            more = f"{few}–{many}" if ranged and few != many else f"≤{many}" if few != many else f"{many}"
            parts.append(f"{len(reachable)} separate {DIFFERENCE:.0%} in {more} more launches{cost}")
        if beyond:
            parts.append(f"{beyond} beyond reach")
        return ": " + "; ".join(parts)

    candidates = [head + median + text(True), head + text(True), head + text(False), head + text(False, False)]
    return next((c for c in candidates if len(c) <= LINE_WIDTH), candidates[-1])


def counted(cases: list[verdicts.Case]) -> int:
    """The verdicts a wide tie can be of: clean, from two or more launches."""
    return sum(1 for c in cases if c.launches > 1 and "oversubscribed" not in c.caveats)
