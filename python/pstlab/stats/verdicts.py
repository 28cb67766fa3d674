"""Verdicts recomputed from the rounds in the records, over one launch or several.

pstswm writes each alternative's time in every round (`round_s`) beside its summary.  Within
one launch the alternatives ran in the same rounds, so round r of each pairs with round r of the
others.  One launch gives exactly pstswm's verdict (pstlab.stats.stats.verdict, docs/statistics.md):
its unit is the round.  Rounds of different launches are not independent samples of one thing:
each launch has its own placement and state.  So where the rounds come from several launches the
unit is the launch (pstlab.stats.stats.launch_verdict): each launch gives one paired median log-ratio
per comparison, and the verdict is a t-test over those.  Every launch contributes the same number
of rounds (its first n, n the fewest any launch has), so the launches' medians are alike in weight.

A simulated run (`pstlab predict`, header `simulated: true`) never enters a verdict: its rounds
are deterministic, so an interval over them would claim a precision the platform does not have,
and mixed with measured rounds it would pair a prediction with a measurement.
"""

import math
import statistics
from dataclasses import dataclass, field

from pstlab.core.grouping import group_by, sort_key
from pstlab.io.records import RecordSet, launch_of, number
from pstlab.stats import launch_floor, stats

MIN_ROUNDS = 10  # fewer, and a median's 95 % interval does not exist or is too wide to decide
# pstswm's default --precision (CI half-width as a share of the median): used only for a launch
# whose run header is absent or predates the `precision` field.
DEFAULT_PRECISION = 0.05
# Caveats pstswm attaches to a launch's verdict that stay true of the verdict over launches; the
# others ("fewer than 10 rounds", "precision not reached") are judged again on the rounds used.
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
    launch_verdicts: list[stats.Verdict] = field(default_factory=list)  # each launch's own, all its rounds
    # Launches at which, with the spread observed, every comparison still undecided would be; None
    # when decided, with one launch, or when some member of the best set is within the margin.
    launches_to_decide: int | None = None
    # The kind's pooled launch spread under every comparison's own (launch_floor.apply); None with one launch.
    floor: stats.Floor | None = None

    @property
    def ok(self) -> bool:
        return not self.caveats

    @property
    def unit(self) -> str:
        """What one sample of the verdict is: a round (one launch) or a launch."""
        return "launches" if self.launches > 1 else "rounds"

    def _by_launch(self, samples: list[float]) -> list[list[float]]:
        return [samples[i : i + self.per_launch] for i in range(0, len(samples), self.per_launch)]

    def launch_rounds(self) -> list[dict[str, list[float]]]:
        """{label: that launch's rounds} for each launch, as stats.launch_verdict takes them."""
        per_label = [self._by_launch(samples) for samples in self.rounds.values()]
        return [dict(zip(self.rounds, r, strict=True)) for r in zip(*per_label, strict=True)]

    def _launch_log_ratios(self, label: str) -> list[float] | None:
        samples = self.rounds.get(label, self.comparators.get(label))
        if samples is None or self.verdict is None:
            return None
        return stats.launch_log_ratios(self._by_launch(samples), self._by_launch(self.rounds[self.verdict.best]))

    def ratio(self, label: str) -> stats.PairedRatio | None:
        """label's time over the best's, or None when label was not run.  One launch: paired by
        round at the verdict's confidence (pstswm's ratio).  Several: the t interval over launches
        that decided the best set, so its lower end above 1 + margin is exactly an exclusion."""
        samples = self.rounds.get(label, self.comparators.get(label))
        if samples is None or self.verdict is None:
            return None
        v = self.verdict
        if self.unit == "rounds":
            return stats.paired_ratio(samples, self.rounds[v.best], v.confidence, v.margin)
        tail = stats.launch_tail_alpha(v.confidence, len(self.rounds))
        return stats.t_ratio(self._launch_log_ratios(label), tail, v.margin, self.floor)

    def paired(self, a: list[float], b: list[float]) -> stats.PairedRatio:
        """a/b for any two of this case's sample lists (a candidate, a comparator), as one comparison
        at the verdict's confidence: by round within one launch, by Student's t over the launches'
        median log-ratios with several (rounds of one launch are not independent of each other)."""
        v = self.verdict
        if self.unit == "rounds":
            return stats.paired_ratio(a, b, v.confidence, v.margin)
        d = stats.launch_log_ratios(self._by_launch(a), self._by_launch(b))
        return stats.t_ratio(d, (1 - v.confidence) / 2, v.margin, self.floor)

    def launches_needed(self, label: str) -> int | None:
        """Launches at which label's comparison with the best would be decided (label excluded) if
        the mean and spread over launches seen so far held; None as stats.launches_to_exclude."""
        d = self._launch_log_ratios(label) if self.unit == "launches" else None
        if d is None or label == self.verdict.best:
            return None
        tail = stats.launch_tail_alpha(self.verdict.confidence, len(self.rounds))
        return stats.launches_to_exclude(d, tail, self.verdict.margin, self.floor)


    def launches_to_separate(self, difference: float = 0.05) -> int | None:
        """Launches at which a real `difference` between the best and any other member of its best
        set would be separated, at the median launch-to-launch spread of the set (None: one
        launch, a decided verdict, or beyond stats.MAX_LAUNCHES)."""
        if self.unit == "rounds" or self.verdict.decided:
            return None
        spreads = [statistics.stdev(d) for a in self.verdict.best_set[1:] if len(d := self._launch_log_ratios(a)) > 1]
        if not spreads:
            return None
        tail = stats.launch_tail_alpha(self.verdict.confidence, len(self.rounds))
        return stats.launches_to_separate(statistics.median(spreads), tail, self.verdict.margin, difference, self.floor)


def round_times(rec: dict) -> list[float] | None:
    values = rec.get("round_s")
    if not isinstance(values, list) or not values:
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and v > 0 for v in values):
        return None
    return [float(v) for v in values]


def simulated_runs(headers: list[dict]) -> set[str]:
    """run_ids of the simulated runs among these headers (their records are predictions)."""
    return {h.get("run_id") for h in headers if h.get("simulated")}


def measured(rs: RecordSet) -> RecordSet:
    """rs without the records of simulated runs: what a verdict may rest on."""
    predicted = simulated_runs(rs.headers())
    return RecordSet(rs.path, [r for r in rs.records if r.get("run_id") not in predicted], rs.manifest)


def has_rounds(points: list[dict]) -> bool:
    return any(round_times(p) for p in points)


def _precise(rounds: dict[str, list[float]], conf: float, precision: float) -> bool:
    for samples in rounds.values():
        med, lo, hi = stats.median_ci(samples, conf)
        if not (math.isfinite(lo) and (hi - lo) / 2 <= precision * med):
            return False
    return True


def _precisions(headers: list[dict]) -> dict[tuple, float]:
    """{(run_id,): the run's --precision} from the run headers that carry it (keyed as group_by keys)."""
    return {(h.get("run_id"),): p for h in headers if (p := number(h, "precision")) is not None and p > 0}


def _to_decide(case: Case) -> int | None:
    if case.unit == "rounds" or case.verdict.decided:
        return None
    needed = [case.launches_needed(a) for a in case.verdict.best_set if a != case.verdict.best]
    return None if None in needed else max(needed)


def build(
    points: list[dict], summaries: list[dict], key_fields: tuple[str, ...], label, headers: list[dict] = ()
) -> list[Case]:
    """Cases from points carrying round_s: grouped by key_fields, alternatives named by label(point).

    summaries: pstswm's verdict summaries of the same key (their margin, confidence, caveats).
    headers: the run headers, for each launch's --precision (DEFAULT_PRECISION where absent).
    """
    out, experiments = [], []  # experiments[i]: the launches out[i] used
    predicted = simulated_runs(list(headers))
    by_key = group_by([p for p in points if round_times(p) and p.get("run_id") not in predicted], *key_fields)
    sums = group_by(summaries, "run_id")
    precisions = _precisions(list(headers))
    for key, pts in sorted(by_key.items(), key=lambda kv: [sort_key(k) for k in kv[0]]):
        runs = sorted(group_by(pts, "run_id").items(), key=lambda kv: launch_of(kv[1][0]))
        per_run = [{label(p): round_times(p) for p in rp} for _, rp in runs]
        common = [a for a in per_run[0] if all(a in r for r in per_run)]
        # A launch whose alternatives do not share their rounds (an old or foreign file) is left out.
        usable = [
            (rid, {a: r[a] for a in common})
            for (rid, _), r in zip(runs, per_run, strict=True)
            if len({len(r[a]) for a in common}) == 1
        ]
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
        if per_launch < MIN_ROUNDS:  # each launch's median needs them, whatever the unit
            caveats.add(f"fewer than {MIN_ROUNDS} rounds")
        # Each launch's medians against that run's own --precision, on the rounds its verdict used.
        if not all(_precise(r, conf, precisions.get(rid, DEFAULT_PRECISION)) for rid, r in usable):
            caveats.add("precision not reached")
        case = Case(key, rounds, len(usable), sorted(caveats), per_launch)
        case.launch_verdicts = [stats.verdict(r, conf, margin) for _, r in usable]
        if case.unit == "rounds":
            case.verdict = case.launch_verdicts[0]
        else:
            same_rounds = [{a: r[a][:per_launch] for a in common} for _, r in usable]
            case.verdict = stats.launch_verdict(same_rounds, conf, margin)
        out.append(case)
        experiments.append(tuple(rid for rid, _ in usable))
    launch_floor.apply(out, experiments)  # the spread of every experiment of this kind, under each
    for case in out:
        case.launches_to_decide = _to_decide(case)
    return out
