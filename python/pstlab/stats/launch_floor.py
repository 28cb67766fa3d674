"""A floor under the launch-to-launch spread of verdicts over launches (docs/statistics.md, "A floor
under the launch spread").

Launch effects are often a placement lottery: each launch lands on one of a few placements, and
the ratio of two alternatives moves with it.  When every launch of an experiment happens to draw
the same placement, its launches agree, Student's t over them has almost no width, and one of two
equal alternatives is dropped.  The other experiments of the same kind were launched apart and
drew their own placements, so the spread they show is pooled, as the prior variance of Smyth
2004's moderated t is, and a comparison's spread is not trusted below it: its interval is the
wider of its own t interval and the interval the pooled spread gives.  The floor is a floor, not a
shrinkage: a comparison more spread than the pool keeps its own interval, so no interval is
narrower than without it.
"""

import statistics
from collections.abc import Hashable, Sequence

from pstlab.stats import stats
from pstlab.stats.stats import Floor

CAVEAT = "launch spread seen in too few launches"


def experiment_variance(comparisons: Sequence[Sequence[float]]) -> float:
    """The median over one experiment's comparisons of the variance of each one's per-launch
    log-ratios about its own mean: a real difference between alternatives is not spread, and one
    comparison with a wild spread does not set the floor of the others."""
    return statistics.median(statistics.variance(d) for d in comparisons)


def pool(experiments: Sequence[Sequence[Sequence[float]]]) -> Floor | None:
    """The floor from each experiment's comparisons (their per-launch log-ratios, two or more
    launches): the experiments' variances weighted by their launches − 1, None without any.  A mean
    over experiments, not a median: an experiment whose launches drew one placement shows almost no
    spread, and those are the ones that must not pull the floor down."""
    parts = [(len(comparisons[0]) - 1, experiment_variance(comparisons)) for comparisons in experiments if comparisons]
    df = sum(n for n, _ in parts)
    if not df:
        return None
    return Floor(sum(n * v for n, v in parts) / df, df, len(parts))


def apply(cases: list, experiments: Sequence[Hashable], draws: int = 1) -> Floor | None:
    """Decide the verdicts over launches among cases (pstlab.verdicts.Case) again with the floor
    pooled over all of them; experiments[i] names the launches cases[i] used (the cases of one
    experiment share each launch's placement, so they are pooled as one).  Sets each such case's
    floor and verdict, and its caveat when the launches pooled are too few to have seen a lottery
    (draws as in Floor.sees_a_lottery) and the verdict excludes an alternative.  The best does not
    change: it does not depend on the spread."""
    by_experiment: dict[Hashable, list[list[float]]] = {}
    over_launches = [(c, e) for c, e in zip(cases, experiments, strict=True) if c.unit == "launches"]
    for case, experiment in over_launches:
        launches, best = case.launch_rounds(), case.verdict.best
        by_experiment.setdefault(experiment, []).extend(
            stats.launch_log_ratios([r[a] for r in launches], [r[best] for r in launches])
            for a in case.rounds
            if a != best
        )
    floor = pool(list(by_experiment.values()))
    if floor is None:
        return None
    for case, _ in over_launches:
        v = case.verdict
        case.floor = floor
        case.verdict = stats.launch_verdict(case.launch_rounds(), v.confidence, v.margin, floor)
        if not floor.sees_a_lottery(v.confidence, draws) and len(case.verdict.best_set) < len(case.rounds):
            case.caveats = sorted({*case.caveats, CAVEAT})
    return floor
