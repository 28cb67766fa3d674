"""Second-level statistics: spreads over protocols, fits, ratios."""

import math

import pytest

from pstlab.stats import stats


def test_spread_relative_to_minimum():
    s = stats.spread([2.0, 1.0, 1.5, 4.0])
    assert s.min == 1.0
    assert s.median_rel == pytest.approx(0.75)  # median of 0, 0.5, 1, 3
    assert s.mean_rel == pytest.approx(1.125)
    assert s.max_rel == pytest.approx(3.0)
    assert s.n == 4


@pytest.mark.parametrize(
    ("median_rel", "label"),
    [(0.0, "low"), (0.05, "low"), (0.0501, "moderate"), (0.1499, "moderate"), (0.15, "high"), (2.0, "high")],
)
def test_sensitivity_classification_boundaries(median_rel, label):
    assert stats.classify(median_rel) == label


def test_line_fit_recovers_a_known_line_and_reports_residual():
    x = [1.0, 2.0, 3.0, 4.0]
    fit = stats.line_fit(x, [3 + 2 * v for v in x])
    assert fit.intercept == pytest.approx(3)
    assert fit.slope == pytest.approx(2)
    assert fit.max_rel_residual == pytest.approx(0, abs=1e-12)
    noisy = stats.line_fit(x, [5.0, 7.0, 9.0, 12.0])
    assert noisy.max_rel_residual > 0.01
    assert stats.line_fit([1.0, 1.0], [2.0, 3.0]) is None


def test_latency_bandwidth_fit_of_a_swap_like_curve():
    alpha, beta = 1.5e-6, 5e9
    sizes = [8.0 * 4**k for k in range(10)]
    fit = stats.latency_bandwidth(sizes, [alpha + b / beta for b in sizes])
    assert fit.intercept == pytest.approx(alpha, rel=1e-9)
    assert 1 / fit.slope == pytest.approx(beta, rel=1e-9)


def test_per_match_quotient_is_songs():
    # Song 2013 Table 1: n = 10, Diff 1 µs -> 0.0222 µs per failed match (45 of them).
    assert stats.per_match_s(1e-6, 10) == pytest.approx(1e-6 / 45)
    assert stats.per_match_s(1e-6, 1) is None


def test_ratio_and_relative_excess():
    assert stats.ratio(2.0, 3.0) == pytest.approx(1.5)
    assert stats.ratio(0.0, 3.0) is None
    assert stats.ratio(None, 3.0) is None
    assert stats.ratio(1.0, math.inf) is None
    assert stats.rel_excess(1.2, 1.0) == pytest.approx(0.2)


def test_nearest_in_log():
    sizes = [4096, 32768, 262144, 2097152]
    assert stats.nearest_in_log(sizes, 8192) == 4096  # factor 2 away: still the class
    assert stats.nearest_in_log(sizes, 131072) == 262144
    assert stats.nearest_in_log([64, 512], 8192) is None
