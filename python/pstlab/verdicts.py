"""Verdicts recomputed from the rounds in the records, merged over launches.

pstswm writes each alternative's time in every round (`round_s`) beside its summary.  Within
one launch the alternatives ran in the same rounds, so round r of each pairs with round r of the
others; launches are concatenated (each pairs within itself), which is how `pstlab run
--launches N` lets the variation between launches into a verdict.  Every launch contributes the
same number of rounds (its first n, n the fewest any launch has), so that a launch whose adaptive
rounds ran long does not outvote the others.  The method is pstswm's own
(pstlab.stats.verdict, docs/statistics.md): one launch gives exactly pstswm's verdict.
"""

import math
from dataclasses import dataclass, field

from pstlab import stats
from pstlab.grouping import group_by, sort_key
from pstlab.records import launch_of, number

MIN_ROUNDS = 10  # fewer, and a median's 95 % interval does not exist or is too wide to decide
PRECISION = 0.05  # pstswm's default --precision: CI half-width as a share of the median
# Caveats pstswm attaches to a launch's verdict that stay true of the merged one; the others
# ("fewer than 10 rounds", "precision not reached") are judged again on the merged rounds.
KEPT_CAVEATS = ("oversubscribed", "noisy", "below 20x timer resolution")


@dataclass
class Case:
    """One verdict: the alternatives of one measured configuration."""

    key: tuple
    rounds: dict[str, list[float]]  # label -> per-round seconds, launches concatenated
    launches: int
    caveats: list[str]
    per_launch: int = 0  # rounds taken from each launch
    comparators: dict[str, list[float]] = field(default_factory=dict)  # paired, not candidates
    verdict: stats.Verdict | None = None

    @property
    def ok(self) -> bool:
        return not self.caveats

    def ratio(self, label: str) -> stats.PairedRatio | None:
        """label's time over the best's, paired by round, or None when label was not run."""
        samples = self.rounds.get(label, self.comparators.get(label))
        if samples is None or self.verdict is None:
            return None
        return stats.paired_ratio(samples, self.rounds[self.verdict.best], self.verdict.confidence, self.verdict.margin)


def round_times(rec: dict) -> list[float] | None:
    values = rec.get("round_s")
    if not isinstance(values, list) or not values:
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and v > 0 for v in values):
        return None
    return [float(v) for v in values]


def has_rounds(points: list[dict]) -> bool:
    return any(round_times(p) for p in points)


def _precise(rounds: dict[str, list[float]], conf: float) -> bool:
    for samples in rounds.values():
        med, lo, hi = stats.median_ci(samples, conf)
        if not (math.isfinite(lo) and (hi - lo) / 2 <= PRECISION * med):
            return False
    return True


def build(points: list[dict], summaries: list[dict], key_fields: tuple[str, ...], label) -> list[Case]:
    """Cases from points carrying round_s: grouped by key_fields, alternatives named by label(point).

    summaries: pstswm's verdict summaries of the same key (their margin, confidence, caveats).
    """
    out = []
    by_key = group_by([p for p in points if round_times(p)], *key_fields)
    sums = group_by(summaries, "run_id")
    for key, pts in sorted(by_key.items(), key=lambda kv: [sort_key(k) for k in kv[0]]):
        runs = sorted(group_by(pts, "run_id").items(), key=lambda kv: launch_of(kv[1][0]))
        per_run = [{label(p): round_times(p) for p in rp} for _, rp in runs]
        common = [a for a in per_run[0] if all(a in r for r in per_run)]
        # A launch whose alternatives do not share their rounds (an old or foreign file) is left out.
        usable = [(rid, r) for (rid, _), r in zip(runs, per_run, strict=True) if len({len(r[a]) for a in common}) == 1]
        if not common or not usable:
            continue
        per_launch = min(len(r[common[0]]) for _, r in usable)
        rounds = {a: [t for _, r in usable for t in r[a][:per_launch]] for a in common}
        caveats, margin, conf = set(), 0.02, 0.95
        for rid, _ in usable:
            # a summary may omit fields its points carry (kernel's 'result'): match on those it has
            for s in sums.get(rid, []):
                if any(s.get(f) is not None and s.get(f) != v for f, v in zip(key_fields, key, strict=True)):
                    continue
                caveats |= {c for c in s.get("verdict_caveats") or [] if c in KEPT_CAVEATS}
                margin = number(s, "margin") or margin
                conf = number(s, "confidence") or conf
        n = len(rounds[common[0]])
        if n < MIN_ROUNDS:
            caveats.add(f"fewer than {MIN_ROUNDS} rounds")
        if not _precise(rounds, conf):
            caveats.add("precision not reached")
        case = Case(key, rounds, len(usable), sorted(caveats), per_launch)
        case.verdict = stats.verdict(rounds, conf, margin)
        out.append(case)
    return out
