"""The statistics pstlab derives from records: spreads over protocols, fits, ratios.

pstswm already reports per-point statistics over repetitions (t_min, t_med, ...); these are the
second-level figures the papers tabulate across protocols, sizes and configurations.
"""

import functools
import math
import statistics
import sys
from dataclasses import dataclass

import numpy as np

# Worley 1999: protocol sensitivity is low / moderate / high when (median-min)/min is
# <= 5 %, between 5 % and 15 %, or >= 15 %.
LOW_REL, HIGH_REL = 0.05, 0.15


@dataclass(frozen=True)
class Spread:
    """How much a set of times (one per protocol) varies around its minimum."""

    n: int
    min: float
    mean_rel: float
    median_rel: float
    max_rel: float

    @property
    def sensitivity(self) -> str:
        return classify(self.median_rel)


def spread(times: list[float]) -> Spread:
    if not times:
        raise ValueError("spread of no times")
    lo = min(times)
    rel = [(t - lo) / lo for t in times] if lo > 0 else [0.0 for _ in times]
    return Spread(len(times), lo, statistics.fmean(rel), statistics.median(rel), max(rel))


def classify(median_rel: float) -> str:
    """Worley 1999's classification of protocol sensitivity."""
    if median_rel <= LOW_REL:
        return "low"
    return "high" if median_rel >= HIGH_REL else "moderate"


def rel_excess(t: float, best: float) -> float:
    """(t - best)/best: the performance lost by using t instead of best (Worley 1998 Tables 4, 5)."""
    return (t - best) / best


@dataclass(frozen=True)
class LineFit:
    """y = intercept + slope·x by least squares, with the largest relative residual."""

    intercept: float
    slope: float
    n: int
    max_rel_residual: float


def line_fit(x: list[float], y: list[float], weights: list[float] | None = None) -> LineFit | None:
    """Least-squares line through (x, y), optionally weighted; None with fewer than two distinct x."""
    if len(set(x)) < 2:
        return None
    xa, ya = np.asarray(x, float), np.asarray(y, float)
    w = np.sqrt(np.asarray(weights, float)) if weights is not None else np.ones_like(xa)
    design = np.column_stack([np.ones_like(xa), xa])
    coef, *_ = np.linalg.lstsq(design * w[:, None], ya * w, rcond=None)
    model = design @ coef
    nonzero = ya != 0
    max_rel = float(np.max(np.abs(model[nonzero] - ya[nonzero]) / np.abs(ya[nonzero]))) if nonzero.any() else 0.0
    return LineFit(float(coef[0]), float(coef[1]), len(x), max_rel)


def latency_bandwidth(bytes_: list[float], times_s: list[float]) -> LineFit | None:
    """T(N) = t_l + N·t_s (Frese & Knipp 1998 §5.1), with relative weights so small sizes count too."""
    return line_fit(bytes_, times_s, [1.0 / (t * t) for t in times_s])


# A fitted model whose largest relative error exceeds this is not shown as if it were valid
# (pstswm's fit_ok uses the same bound).
FIT_MAX_REL_ERR = 0.15


def fit_problem(max_rel_err: float | None, latency_s: float | None, bandwidth: float | None) -> str | None:
    """Why a latency/bandwidth fit is not ok ('20 % error', 'negative latency'), or None when it is."""
    if max_rel_err is not None and max_rel_err > FIT_MAX_REL_ERR:
        return f"{max_rel_err:.0%} error"
    if latency_s is not None and latency_s < 0:
        return "negative latency"
    if bandwidth is not None and bandwidth <= 0:
        return "negative bandwidth"
    return None


def per_match_s(diff_s: float, n: int) -> float | None:
    """Song 2013's per-n matching time: Diff / (n(n-1)/2) failed matches; None for n < 2."""
    if n < 2:
        return None
    return diff_s / (n * (n - 1) / 2)


def ratio(a: float | None, b: float | None) -> float | None:
    """b/a, or None when either is missing or a is zero."""
    if a is None or b is None or a == 0 or not math.isfinite(a) or not math.isfinite(b):
        return None
    return b / a


def nearest_in_log(values: list[float], target: float, max_factor: float = 2.0) -> float | None:
    """The value closest to target on a log scale, if within max_factor of it."""
    candidates = [v for v in values if v > 0]
    if not candidates or target <= 0:
        return None
    best = min(candidates, key=lambda v: abs(math.log(v / target)))
    return best if abs(math.log(best / target)) <= math.log(max_factor) + 1e-12 else None


# --- Verdicts with confidence: the same method as pstswm's stats/verdict.c (docs/statistics.md) ---
# Distribution-free throughout: a median's interval from binomial order statistics, alternatives
# compared paired by round through log-ratios against the empirically fastest, the best set by a
# Bonferroni-adjusted sign test against an equivalence margin.


def _binom_half_cdf(n: int, m: int) -> float:
    """P(Binomial(n, 1/2) <= m), in log space so n in the thousands stays accurate."""
    ln_half_n, lg_n1 = -n * math.log(2.0), math.lgamma(n + 1)
    return sum(math.exp(lg_n1 - math.lgamma(i + 1) - math.lgamma(n - i + 1) + ln_half_n) for i in range(min(m, n) + 1))


@functools.lru_cache(maxsize=4096)  # every verdict asks for the same few (n, alpha)
def sign_rank(n: int, alpha: float) -> int:
    """The largest j with P(Binomial(n, 1/2) <= j-1) <= alpha: the j-th order statistic from each end
    bounds the median with coverage >= 1 - 2·alpha; 0 when n is too small for any interval."""
    j = 0
    while j + 1 <= n and _binom_half_cdf(n, j) <= alpha:
        j += 1
    return j


def quantile_sorted(s: list[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default, pstswm's pst_quantile_sorted)."""
    if not s:
        return math.nan
    h = q * (len(s) - 1)
    lo = math.floor(h)
    if lo + 1 >= len(s):
        return s[-1]
    return s[lo] + (h - lo) * (s[lo + 1] - s[lo])


def median_ci(x: list[float], conf: float = 0.95) -> tuple[float, float, float]:
    """(median, lo, hi): the interval from order statistics, NaN ends when x is too short for conf."""
    s = sorted(x)
    j = sign_rank(len(s), (1 - conf) / 2)
    med = quantile_sorted(s, 0.5)
    return (med, s[j - 1], s[len(s) - j]) if j else (med, math.nan, math.nan)


@dataclass(frozen=True)
class PairedRatio:
    """a/b from paired samples: exp of the median per-pair log-ratio, its interval, and whether the
    interval lies wholly outside the equivalence band [1/(1+margin), 1+margin]."""

    ratio: float
    lo: float
    hi: float
    n: int
    significant: bool


def paired_ratio(a: list[float], b: list[float], conf: float = 0.95, margin: float = 0.02) -> PairedRatio:
    if len(a) != len(b):
        raise ValueError(f"paired samples of different lengths ({len(a)} and {len(b)})")
    d = [math.log(x) - math.log(y) for x, y in zip(a, b, strict=True)]
    med, lo, hi = median_ci(d, conf)
    band = math.log1p(margin)
    significant = math.isfinite(lo) and (lo > band or hi < -band)
    return PairedRatio(math.exp(med), math.exp(lo), math.exp(hi), len(d), significant)


@dataclass(frozen=True)
class Verdict:
    """Which alternatives may be the fastest: pstswm's summary fields, recomputed from rounds."""

    best: str
    best_set: list[str]  # best first, the rest in the order given
    medians: dict[str, float]
    median_rel: float
    median_rel_ci: tuple[float, float]
    level: str
    level_ci: tuple[str, str]
    rounds: int
    margin: float
    confidence: float

    @property
    def decided(self) -> bool:
        return len(self.best_set) == 1

    def tie_set(self) -> str:
        """'2,3 ≈ 3,1 ≈ 0,6': the best set in order of the medians."""
        return " ≈ ".join(sorted(self.best_set, key=lambda a: (a != self.best, self.medians[a])))


def _median(values: list[float]) -> float:
    return math.nan if any(not math.isfinite(v) for v in values) else quantile_sorted(sorted(values), 0.5)


def sensitivity_class(rel: float) -> str:
    return classify(rel) if math.isfinite(rel) else "n/a"


def verdict(rounds: dict[str, list[float]], conf: float = 0.95, margin: float = 0.02) -> Verdict:
    """The verdict over alternatives {label: per-round times}, every list paired by round."""
    labels = list(rounds)
    lengths = {len(v) for v in rounds.values()}
    if not labels or len(lengths) != 1 or 0 in lengths:
        raise ValueError("a verdict needs alternatives with the same nonzero number of rounds")
    n, k = lengths.pop(), len(labels)
    medians = {a: median_ci(rounds[a], conf)[0] for a in labels}
    best = min(labels, key=lambda a: medians[a])  # first of equal medians, as pstswm
    j = sign_rank(n, (1 - conf) / (k - 1)) if k > 1 else 0
    band = math.log1p(margin)
    in_set = {}
    for a in labels:
        if a == best or not j:
            in_set[a] = True
            continue
        d = sorted(math.log(x) - math.log(y) for x, y in zip(rounds[a], rounds[best], strict=True))
        in_set[a] = d[j - 1] <= band
    ratios = {a: paired_ratio(rounds[a], rounds[best], conf, margin) for a in labels}
    best_set = [best, *(a for a in labels if in_set[a] and a != best)]
    return Verdict(best, best_set, medians, *_spread(labels, best, ratios), n, margin, conf)


def _spread(labels: list[str], best: str, ratios: dict[str, PairedRatio]) -> tuple:
    """(median_rel, median_rel_ci, level, level_ci) from each alternative's ratio to the best."""
    rel = [ratios[a].ratio - 1 for a in labels]
    rel_lo = [0.0 if a == best else ratios[a].lo - 1 for a in labels]
    rel_hi = [0.0 if a == best else ratios[a].hi - 1 for a in labels]
    # No alternative beats the best by definition, so 0 bounds the spread below (also when the
    # rounds are too few for an interval: C's fmax, which pstswm uses, does the same).
    lo_med = _median(rel_lo)
    lo, hi = max(0.0, lo_med) if math.isfinite(lo_med) else 0.0, _median(rel_hi)
    level_ci = (sensitivity_class(lo), sensitivity_class(hi))
    level = level_ci[0] if level_ci[0] == level_ci[1] and level_ci[0] != "n/a" else "undetermined"
    return _median(rel), (lo, hi), level, level_ci


# --- Verdicts over several launches: the launch is the unit (docs/statistics.md, "Across runs") ---
# Rounds of one launch share its placement and state, so they are not independent samples of what
# another launch would measure.  Each launch contributes one number per comparison, the median of
# its per-round log-ratios (paired by round, as above); the comparison is Student's t over those
# numbers (the per-execution unit of Georges, Buytaert & Eeckhout 2007 and Kalibera & Jones 2013).

MAX_LAUNCHES = 1000  # launches_to_exclude looks no further: beyond this, "not with launches"


def launch_log_ratios(a: list[list[float]], b: list[list[float]]) -> list[float]:
    """One value per launch: the median per-round log-ratio of a against b within that launch."""
    out = []
    for rounds_a, rounds_b in zip(a, b, strict=True):
        d = sorted(math.log(x) - math.log(y) for x, y in zip(rounds_a, rounds_b, strict=True))
        out.append(quantile_sorted(d, 0.5))
    return out


def launch_tail_alpha(conf: float, k: int) -> float:
    """Each tail of each of the k - 1 comparisons with the best gets (1 - conf) / (2(k - 1)): the
    best is chosen from the data, so either of two equal alternatives may be the one tested, and
    both tails together keep the chance of dropping either within 1 - conf (Bonferroni)."""
    return (1 - conf) / (2 * max(k - 1, 1))


@functools.lru_cache(maxsize=4096)  # the same few (alpha, launches) recur in every verdict
def t_quantile(tail_alpha: float, df: float) -> float:
    """Student's t quantile leaving tail_alpha above it (df may be Welch's fraction): pstlab's only one."""
    from scipy import stats as sps

    return float(sps.t.ppf(1 - tail_alpha, df))


def t_tail(x: float, df: float) -> float:
    """The chance that Student's t with df degrees of freedom exceeds x (a one-sided p-value)."""
    from scipy import stats as sps

    return float(sps.t.sf(x, df))


@dataclass(frozen=True)
class Floor:
    """The pooled launch-to-launch variance of one launch's median log-ratio about its
    comparison's mean, over the experiments of one kind (pstlab.stats.launch_floor pools it)."""

    variance: float
    df: int  # Σ (launches − 1) over the experiments pooled
    experiments: int

    def sees_a_lottery(self, conf: float, draws: int = 1) -> bool:
        """Whether the launches pooled would, but for a chance within 1 - conf, have drawn both
        placements of a fair two-placement lottery in some experiment.  draws: the launches behind one
        per-launch log-ratio (1 where the alternatives share a launch, 2 where each ran its own).  An
        experiment of L launches then shows no spread with chance 2^(draws (1 - L)), all of them with
        2^(-draws df)."""
        return 2.0 ** (-draws * self.df) <= 1 - conf


def _floor_width(tail_alpha: float, floor: Floor | None) -> float:
    """t quantile x sd of the pooled launch spread under a comparison's own (launch_floor); 0 without."""
    return t_quantile(tail_alpha, floor.df) * math.sqrt(floor.variance) if floor is not None else 0.0


def _t_half_width(d: list[float], tail_alpha: float, floor: Floor | None = None) -> float:
    own = t_quantile(tail_alpha, len(d) - 1) * statistics.stdev(d)
    return max(own, _floor_width(tail_alpha, floor)) / math.sqrt(len(d))


def t_ratio(d: list[float], tail_alpha: float, margin: float, floor: Floor | None = None) -> PairedRatio:
    """exp(mean of the per-launch log-ratios d) with Student's t interval, tail_alpha in each tail,
    never narrower than the launch floor's; NaN ends with fewer than two launches.  Significant: the
    interval lies wholly outside the band."""
    mean = statistics.fmean(d)
    if len(d) < 2:
        return PairedRatio(math.exp(mean), math.nan, math.nan, len(d), False)
    half = _t_half_width(d, tail_alpha, floor)
    band = math.log1p(margin)
    significant = mean - half > band or mean + half < -band
    # two launches and many alternatives give t quantiles in the thousands: an unbounded end, not an overflow
    hi = math.exp(mean + half) if mean + half < math.log(sys.float_info.max) else math.inf
    return PairedRatio(math.exp(mean), math.exp(mean - half), hi, len(d), significant)


def launches_to_exclude(d: list[float], tail_alpha: float, margin: float, floor: Floor | None = None) -> int | None:
    """The fewest launches at which the lower end would clear the margin if d's mean and spread (and
    the launch floor) held; None when the mean is within the margin (a tie that no number of
    launches separates) or more than MAX_LAUNCHES would be needed."""
    mean, band = statistics.fmean(d), math.log1p(margin)
    if mean <= band or len(d) < 2:
        return None
    sd, floor_width = statistics.stdev(d), _floor_width(tail_alpha, floor)

    def clears(n: int) -> bool:
        return mean - max(t_quantile(tail_alpha, n - 1) * sd, floor_width) / math.sqrt(n) > band

    if not clears(MAX_LAUNCHES):
        return None
    lo, hi = 2, MAX_LAUNCHES  # clears(n) only grows with n: t's quantile and sd/sqrt(n) both fall
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if clears(mid) else (mid + 1, hi)
    return lo


def launches_to_separate(
    sd: float, tail_alpha: float, margin: float, difference: float = 0.05, floor: Floor | None = None
) -> int | None:
    """The fewest launches at which a real `difference` (0.05: one alternative 5 % slower) would
    have its interval's lower end clear the margin, at a launch-to-launch spread sd of the log-ratio
    (and under the launch floor); None when no number up to MAX_LAUNCHES would, or the difference
    is within the margin.  The floor's degrees of freedom grow with the launches as its experiments
    add theirs, as they would in a longer run."""
    gap = math.log1p(difference) - math.log1p(margin)
    if gap <= 0 or not math.isfinite(sd):
        return None

    def clears(n: int) -> bool:
        at_n = None if floor is None else Floor(floor.variance, floor.experiments * (n - 1), floor.experiments)
        return max(t_quantile(tail_alpha, n - 1) * sd, _floor_width(tail_alpha, at_n)) / math.sqrt(n) < gap

    if not clears(MAX_LAUNCHES):
        return None
    lo, hi = 2, MAX_LAUNCHES
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if clears(mid) else (mid + 1, hi)
    return lo


def launch_verdict(
    launches: list[dict[str, list[float]]], conf: float = 0.95, margin: float = 0.02, floor: Floor | None = None
) -> Verdict:
    """The verdict over alternatives measured in several launches ({label: per-round times} per
    launch, paired by round within each): the best is the smallest geometric mean of the launches'
    medians; an alternative leaves the best set when its t lower bound over launches clears the
    margin at launch_tail_alpha.  The spread's interval is per comparison, as in verdict().  floor: the
    kind's pooled launch spread (pstlab.launch_floor), under every comparison's own."""
    labels = list(launches[0])
    if len(launches) < 2 or any(list(r) != labels for r in launches):
        raise ValueError("a launch verdict needs two or more launches of the same alternatives")
    for r in launches:
        if len({len(v) for v in r.values()}) != 1 or 0 in {len(v) for v in r.values()}:
            raise ValueError("a verdict needs alternatives with the same nonzero number of rounds")
    medians = {a: math.exp(statistics.fmean(math.log(_median(r[a])) for r in launches)) for a in labels}
    best = min(labels, key=lambda a: medians[a])
    d = {a: launch_log_ratios([r[a] for r in launches], [r[best] for r in launches]) for a in labels}
    tail = launch_tail_alpha(conf, len(labels))
    excluded = {
        a for a in labels if a != best and (q := t_ratio(d[a], tail, margin, floor)).significant and q.ratio > 1
    }
    per_comparison = {a: t_ratio(d[a], (1 - conf) / 2, margin, floor) for a in labels}
    rounds = sum(len(r[best]) for r in launches)
    best_set = [best, *(a for a in labels if a not in excluded and a != best)]
    return Verdict(best, best_set, medians, *_spread(labels, best, per_comparison), rounds, margin, conf)
