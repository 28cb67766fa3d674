"""The Trust line: how likely the box's verdicts are to reproduce in a fresh suite on this host.

A suite's launches are replications of each other, so the suite itself shows how well its verdicts
reproduce: leave one launch out, decide each verdict from the others (stats.launch_verdict, the
launch the unit) and ask whether the left-out launch, alone, agrees (its own best set, by round,
meets the others').  The share of (verdict, launch) pairs that agree is the held-out agreement; the
level is read from it with thresholds calibrated against real pairs of suites on a 2-core host
under three conditions (quiet, a busy process pinned to a core, periodic stalls) and by resampling
recorded launches (docs/statistics.md, "Trust").  The noise probe, oversubscription and imprecision
stay as the reasons shown beside the level, not as triggers of their own.
"""

import itertools
from dataclasses import dataclass

from pstlab.stats import stats, verdicts

# Held-out agreement at or above which a level is given.  What each level measured in fresh
# suites (the share of its box verdicts that reproduced) is in docs/statistics.md.
HIGH_AGREEMENT = 0.90
MEDIUM_AGREEMENT = 0.75
MIN_LAUNCHES = 3  # leaving one out must leave two: a verdict over launches needs two


@dataclass(frozen=True)
class Agreement:
    agreed: int  # (verdict, left-out launch) pairs whose best sets meet
    pairs: int
    verdicts: int  # verdicts with MIN_LAUNCHES or more launches

    @property
    def share(self) -> float:
        return self.agreed / self.pairs if self.pairs else float("nan")


def held_out(case: verdicts.Case) -> list[bool]:
    """For each launch of case: does that launch alone meet the verdict of the other launches?"""
    if case.launches < MIN_LAUNCHES or case.verdict is None:
        return []
    per_launch = case.launch_rounds()
    v = case.verdict
    out = []
    for i, alone in enumerate(case.launch_verdicts):
        others = per_launch[:i] + per_launch[i + 1 :]
        rest = stats.launch_verdict(others, v.confidence, v.margin, case.floor)
        out.append(bool(set(rest.best_set) & set(alone.best_set)))
    return out


def agreement(cases: list[verdicts.Case]) -> Agreement:
    """Held-out agreement over the cases that a clean run (not oversubscribed) decided from launches."""
    outcomes = [held_out(c) for c in cases if "oversubscribed" not in c.caveats]
    flat = list(itertools.chain.from_iterable(outcomes))
    return Agreement(sum(flat), len(flat), sum(1 for o in outcomes if o))


def level_of(a: Agreement) -> str | None:
    """high / medium / low from the held-out agreement; None when no verdict had launches to leave out."""
    if not a.pairs:
        return None
    return "high" if a.share >= HIGH_AGREEMENT else "medium" if a.share >= MEDIUM_AGREEMENT else "low"


def statement(a: Agreement) -> str:
    """'held-out launches agree on 94 % of 230' (the measured basis of the level)."""
    if not a.pairs:
        return f"reproduction not measured (no verdict from {MIN_LAUNCHES}+ launches)"
    return f"held-out launches agree in {a.share:.0%} of {a.pairs}"
