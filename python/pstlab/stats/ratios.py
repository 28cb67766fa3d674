"""B/A over launches, shared by `pstlab compare` and the report's answers: the ratio of the geometric
means of two result sets' per-launch values, its interval from Welch's t on the logarithms (the launch
is the unit of replication), and Holm's step-down over every value compared, so a report of hundreds
of values does not call some of them different by chance (pstlab.analysis.metric_rows applies them
to every bench metric).
"""

import math
from dataclasses import dataclass

from pstlab.stats.stats import t_quantile, t_tail

CONFIDENCE = 0.95


@dataclass(frozen=True)
class LogRatio:
    """B/A from per-launch values: the ratio of geometric means, its interval and raw p-value, and
    the standard error and degrees of freedom of the log-ratio (None without two launches a side)."""

    ratio: float
    lo: float | None = None
    hi: float | None = None
    p: float | None = None
    se: float | None = None
    df: float | None = None

    def interval(self, two_sided_alpha: float) -> tuple[float, float] | None:
        """The ratio's interval at level 1 - two_sided_alpha, or None without one."""
        if self.se is None:
            return None
        half = t_quantile(two_sided_alpha / 2, self.df) * self.se if self.se else 0.0
        return self.ratio * math.exp(-half), self.ratio * math.exp(half)


def log_ratio(a: list[float], b: list[float], conf: float = CONFIDENCE) -> LogRatio | None:
    """Welch's t on log values; None when a side has no positive value (no ratio to take)."""
    la = [math.log(x) for x in a if x > 0]
    lb = [math.log(x) for x in b if x > 0]
    if not la or not lb or len(la) < len(a) or len(lb) < len(b):
        return None
    ma, mb = sum(la) / len(la), sum(lb) / len(lb)
    diff = mb - ma
    if len(la) < 2 or len(lb) < 2:
        return LogRatio(math.exp(diff))
    va = sum((x - ma) ** 2 for x in la) / (len(la) - 1) / len(la)
    vb = sum((x - mb) ** 2 for x in lb) / (len(lb) - 1) / len(lb)
    se = math.sqrt(va + vb)
    if se == 0:  # identical launches on both sides: the difference is exact
        return LogRatio(math.exp(diff), math.exp(diff), math.exp(diff), 1.0 if diff == 0 else 0.0, 0.0, math.inf)
    df = (va + vb) ** 2 / ((va**2 / (len(la) - 1) if va else 0) + (vb**2 / (len(lb) - 1) if vb else 0))
    half = t_quantile((1 - conf) / 2, df) * se
    p = 2 * t_tail(abs(diff) / se, df)
    return LogRatio(math.exp(diff), math.exp(diff - half), math.exp(diff + half), p, se, df)


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjustment: controls the family-wise error rate over all the p-values."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def holm_levels(pvalues: list[float], alpha: float = 1 - CONFIDENCE) -> list[float]:
    """The level Holm's step-down tests each p-value at: alpha/(m - rank) up to the first that is
    not below it, that one's level for the rest.  A p-value is rejected exactly when it is below its
    level, and an interval at that level excludes the null exactly then (holm() gives the same
    decisions as adjusted p-values)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    levels, stopped = [0.0] * m, None
    for rank, i in enumerate(order):
        if stopped is None and not pvalues[i] < alpha / (m - rank):
            stopped = alpha / (m - rank)
        levels[i] = stopped if stopped is not None else alpha / (m - rank)
    return levels
