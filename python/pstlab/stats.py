"""The statistics pstlab derives from records: spreads over protocols, fits, ratios.

pstswm already reports per-point statistics over repetitions (t_min, t_med, ...); these are the
second-level figures the seeds tabulate across protocols, sizes and configurations.
"""

import math
import statistics
from dataclasses import dataclass

import numpy as np

# Seed 001: protocol sensitivity is low / moderate / high when (median-min)/min is
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
    """Seed 001's classification of protocol sensitivity."""
    if median_rel <= LOW_REL:
        return "low"
    return "high" if median_rel >= HIGH_REL else "moderate"


def rel_excess(t: float, best: float) -> float:
    """(t - best)/best: the performance lost by using t instead of best (seed 000 Tables 4, 5)."""
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
    """T(N) = t_l + N·t_s (seed 002 §5.1), with relative weights so small sizes count too."""
    return line_fit(bytes_, times_s, [1.0 / (t * t) for t in times_s])


def per_match_s(diff_s: float, n: int) -> float | None:
    """Seed 003's per-n matching time: Diff / (n(n-1)/2) failed matches; None for n < 2."""
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
