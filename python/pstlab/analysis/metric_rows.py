"""Every bench metric of two result sets side by side, shared by `pstlab compare` and the report's answers:
per metric and key, each set's per-launch values and B/A over them (pstlab.stats.ratios), with Holm's
step-down over every value compared."""

import math
from dataclasses import dataclass

from pstlab.benches.common import Metric
from pstlab.benches.registry import BENCHES
from pstlab.core.grouping import sort_key
from pstlab.io.records import RecordSet
from pstlab.stats.ratios import CONFIDENCE, LogRatio, holm, holm_levels, log_ratio


@dataclass
class Row:
    metric: Metric
    key: tuple
    a: list[float]  # one value per launch
    b: list[float]
    detail_a: str
    detail_b: str
    test: LogRatio | None
    p_adjusted: float | None = None
    level: float | None = None  # the two-sided level Holm tested this row at

    def interval(self) -> tuple[float, float] | None:
        """B/A's interval at the row's Holm level: it excludes 1 exactly when 'better' names a side."""
        return self.test.interval(self.level) if self.test is not None and self.level is not None else None

    @property
    def significant(self) -> bool:
        return self.p_adjusted is not None and self.p_adjusted < 1 - CONFIDENCE

    def better(self) -> str:
        """'A' or 'B' only when the difference is significant; '≈' when tested and not; 'untested'
        with one launch on a side; '–' when there is no ratio to take."""
        if self.test is None:
            return "–"
        if self.test.p is None:
            return "untested"
        if not self.significant:
            return "≈"
        b_wins = self.test.ratio > 1 if self.metric.higher_is_better else self.test.ratio < 1
        return "B" if b_wins else "A"


def per_launch(metric: Metric, rs: RecordSet) -> dict[tuple, tuple[list[float], str]]:
    """{key: (the value of each launch that has it, the first launch's detail)}."""
    out: dict[tuple, tuple[list[float], str]] = {}
    for launch in rs.launches():
        for key, (value, detail) in metric.extract(launch).items():
            if value is not None and math.isfinite(value):
                out.setdefault(key, ([], detail))[0].append(value)
    return out


def metric_rows(metric: Metric, a: RecordSet, b: RecordSet) -> list[Row]:
    va, vb = per_launch(metric, a), per_launch(metric, b)
    common = sorted(set(va) & set(vb), key=lambda k: [sort_key(x) for x in k])
    return [Row(metric, k, va[k][0], vb[k][0], va[k][1], vb[k][1], log_ratio(va[k][0], vb[k][0])) for k in common]


def all_rows(a: RecordSet, b: RecordSet) -> dict[str, list[Row]]:
    """Every metric of every bench both sides have, with Holm-adjusted p-values over all of them."""
    rows = {
        metric.title: metric_rows(metric, a, b)
        for bench in BENCHES
        if a.has(bench.BENCH) and b.has(bench.BENCH)
        for metric in bench.METRICS
    }
    tested = [r for rs in rows.values() for r in rs if r.test is not None and r.test.p is not None]
    pvalues = [r.test.p for r in tested]
    for r, p, level in zip(tested, holm(pvalues), holm_levels(pvalues), strict=True):
        r.p_adjusted, r.level = p, level
    return {title: rs for title, rs in rows.items() if rs}
