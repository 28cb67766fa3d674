"""pstlab's verdict statistics (the method of pstswm's core/verdict.c): known answers and calibration."""

import math

import numpy as np
import pytest

from pstlab import stats


@pytest.mark.parametrize(
    ("n", "alpha", "rank"), [(10, 0.025, 2), (20, 0.025, 6), (6, 0.025, 1), (5, 0.025, 0), (20, 0.05 / 61, 3)]
)
def test_sign_rank_known_answers(n, alpha, rank):
    assert stats.sign_rank(n, alpha) == rank


@pytest.mark.parametrize("n", [10, 20, 50, 200])
def test_sign_rank_is_the_largest_rank_within_alpha(n):
    def cdf(m):
        return sum(math.comb(n, i) for i in range(m + 1)) / 2**n

    j = stats.sign_rank(n, 0.025)
    assert j >= 1 and cdf(j - 1) <= 0.025 < cdf(j)


def test_median_ci_known_answers():
    assert stats.median_ci([float(v) for v in range(10, 0, -1)]) == (5.5, 2.0, 9.0)
    med, lo, hi = stats.median_ci([3.0, 1.0, 2.0, 5.0, 4.0])
    assert med == 3.0 and math.isnan(lo) and math.isnan(hi)  # 5 values: no 95 % interval exists
    assert stats.quantile_sorted([1.0, 2.0, 4.0], 0.75) == 3.0


def test_paired_ratio_known_answers():
    b = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]
    q = stats.paired_ratio([1.1 * x for x in b], b)
    assert (q.ratio, q.lo, q.hi) == pytest.approx((1.1, 1.1, 1.1)) and q.significant
    same = stats.paired_ratio(b, b)
    assert same.ratio == 1.0 and not same.significant
    # within the 2 % equivalence margin is never significant, however tight
    assert not stats.paired_ratio([1.015 * x for x in b], b).significant
    with pytest.raises(ValueError, match="different lengths"):
        stats.paired_ratio([1.0], [1.0, 2.0])


def _trial(rng, factors, n=10, noise=0.02, drift=0.0):
    base = 1e-5 * (1 + drift * rng.random(n))  # what hits a whole round hits every alternative
    return {a: list(base * f * (1 + noise * rng.standard_normal(n))) for a, f in factors.items()}


def test_aa_alternatives_share_the_best_set():
    """One alternative entered twice (independent noise): both in the best set in >= 95 % of 1000 trials."""
    rng = np.random.default_rng(13)
    together = 0
    for _ in range(1000):
        v = stats.verdict(_trial(rng, {"a": 1.0, "a again": 1.0, "slow": 1.2}))
        together += {"a", "a again"} <= set(v.best_set)
    assert together >= 950, together


@pytest.mark.parametrize("drift", [0.0, 0.5])
def test_a_ten_percent_gap_is_decided(drift):
    """10 % apart, 2 % noise, 10 rounds: decided for the faster in >= 95 % of 1000 trials, also when
    every round is slowed by up to 50 % alike (pairing by round removes it)."""
    rng = np.random.default_rng(7)
    decided = sum(
        stats.verdict(_trial(rng, {"fast": 1.0, "slow": 1.1}, drift=drift)).best_set == ["fast"] for _ in range(1000)
    )
    assert decided >= 950, decided


def test_verdict_fields():
    rounds = {"b": [2.0] * 12, "a": [1.0] * 12, "c": [1.01] * 12}
    v = stats.verdict(rounds)
    assert v.best == "a" and v.best_set == ["a", "c"] and not v.decided
    assert v.tie_set() == "a ≈ c" and v.median_rel_ci[0] >= 0 and v.rounds == 12
    few = stats.verdict({"a": [1.0, 1.1, 0.9, 1.0, 1.05], "b": [2.0, 2.1, 1.9, 2.0, 2.05]})
    assert few.level == "undetermined" and "n/a" in few.level_ci  # 5 rounds: no interval
    with pytest.raises(ValueError, match="same nonzero number of rounds"):
        stats.verdict({"a": [1.0, 2.0], "b": [1.0]})
