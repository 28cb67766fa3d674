"""pstlab's verdict statistics (the method of pstswm's stats/verdict.c): known answers and calibration."""

import math

import numpy as np
import pytest

from pstlab.stats import stats, verdicts


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


# --- Calibration that can fail: each rule runs beside a median-only rule on the same simulation ---

MARGIN = 0.02


def _median_only(launches: list[dict[str, list[float]]]) -> set[str]:
    """No confidence bound: exclude when the median paired ratio (rounds of all launches pooled) to
    the alternative with the smallest median exceeds 1 + margin.  The tests must tell it apart."""
    pooled = {a: [t for r in launches for t in r[a]] for a in launches[0]}
    best = min(pooled, key=lambda a: stats.median_ci(pooled[a])[0])
    return {a for a in pooled if stats.paired_ratio(pooled[a], pooled[best]).ratio <= 1 + MARGIN}


def _launch_rule(launches):
    return set(stats.launch_verdict(launches, 0.95, MARGIN).best_set)


def _pooled_rounds_rule(launches):
    """The rounds rule on the launches' rounds concatenated, as if they were independent."""
    return set(stats.verdict({a: [t for r in launches for t in r[a]] for a in launches[0]}, 0.95, MARGIN).best_set)


def _rounds_rule(launches):
    return set(stats.verdict(launches[0], 0.95, MARGIN).best_set)


def _launches(rng, gap, launches=3, rounds=10, between=0.05, within=0.01):
    """'fast' and 'slow' (true ratio gap) measured in a number of launches.  Each launch moves each
    alternative's log time by N(0, between/√2), so their log-ratio by N(0, between); within a launch
    each round's log-ratio moves by N(0, within); what hits a whole round hits both."""
    out = []
    for _ in range(launches):
        shift = rng.normal(0, between / math.sqrt(2), 2)
        load = 1e-5 * (1 + 0.2 * rng.random(rounds))
        noise = rng.normal(0, within / math.sqrt(2), (2, rounds))
        out.append(
            {"fast": list(load * np.exp(shift[0] + noise[0])), "slow": list(load * gap * np.exp(shift[1] + noise[1]))}
        )
    return out


def _share(rng, rules, trials, kept, **simulation):
    """{rule name: share of trials in which kept(best set) holds}, every rule on the same trials."""
    hits = dict.fromkeys(rules, 0)
    for _ in range(trials):
        launches = _launches(rng, **simulation)
        for name, rule in rules.items():
            hits[name] += kept(rule(launches))
    return {name: h / trials for name, h in hits.items()}


def test_equal_alternatives_across_launches_stay_together():
    """Two equal alternatives, launch spread 0.05 and round spread 0.01 in the log-ratio, 3 launches
    x 10 rounds: the launch rule drops one of them in <= 5 % of 1,000 trials.  The median-only rule
    and the rounds rule on pooled rounds (which takes rounds of one launch as independent) both fail."""
    rules = {"launch": _launch_rule, "median only": _median_only, "pooled rounds": _pooled_rounds_rule}
    both = _share(np.random.default_rng(31), rules, 1000, lambda s: s == {"fast", "slow"}, gap=1.0)
    false_exclusions = {name: round(1 - share, 3) for name, share in both.items()}
    print("false exclusions, equal alternatives, 3 launches x 10 rounds:", false_exclusions)
    assert false_exclusions["launch"] <= 0.05, false_exclusions
    assert false_exclusions["median only"] > 0.05, false_exclusions
    assert false_exclusions["pooled rounds"] > 0.05, false_exclusions


@pytest.mark.parametrize("between", [0.05, 0.005])
def test_a_gap_at_the_margin_is_kept_across_launches(between):
    """A true gap of exactly 1 + margin is a tie by definition: the launch rule keeps the slower one in
    >= 95 % of 1,000 trials (3 launches x 10 rounds); the median-only rule does not."""
    rules = {"launch": _launch_rule, "median only": _median_only}
    kept = _share(np.random.default_rng(5), rules, 1000, lambda s: "slow" in s, gap=1 + MARGIN, between=between)
    print(f"slower kept at the margin, launch spread {between}:", kept)
    assert kept["launch"] >= 0.95, kept
    assert kept["median only"] < 0.95, kept


def test_a_gap_at_the_margin_is_kept_within_a_launch():
    """The rounds rule (one launch, 10 rounds, 2 % noise per round in the log-ratio, no launch effect to
    see): the slower of two alternatives exactly 1 + margin apart stays in >= 95 % of 2,000 trials;
    the median-only rule does not."""
    rules = {"rounds": _rounds_rule, "median only": _median_only}
    one_launch = {"gap": 1 + MARGIN, "launches": 1, "between": 0.0, "within": 0.02}
    kept = _share(np.random.default_rng(17), rules, 2000, lambda s: "slow" in s, **one_launch)
    print("slower kept at the margin, one launch:", kept)
    assert kept["rounds"] >= 0.95, kept
    assert kept["median only"] < 0.95, kept


def test_launch_verdict_known_answer():
    """Per-launch median log-ratios 0.10, 0.12, 0.08 (mean 0.10, sd 0.02): the t interval over three
    launches with (1 - 0.95)/2 in each tail (k = 2) is exp(0.10 ± 4.303·0.02/√3)."""
    launches = [{"a": [1.0] * 10, "b": [math.exp(d)] * 10} for d in (0.10, 0.12, 0.08)]
    v = stats.launch_verdict(launches)
    half = 4.302653 * 0.02 / math.sqrt(3)
    q = stats.t_ratio(stats.launch_log_ratios([r["b"] for r in launches], [r["a"] for r in launches]), 0.025, 0.02)
    assert (q.ratio, q.lo, q.hi) == pytest.approx((math.exp(0.10), math.exp(0.10 - half), math.exp(0.10 + half)))
    assert q.n == 3 and q.significant and v.best_set == ["a"] and v.rounds == 30
    # three times the spread: undecided now; 5 launches would decide if it held (t₄ 2.776·0.06/√5 < 0.10 − ln 1.02)
    wide = [0.10 + 3 * (d - 0.10) for d in (0.10, 0.12, 0.08)]
    assert not stats.t_ratio(wide, 0.025, 0.02).significant
    assert stats.launches_to_exclude(wide, 0.025, 0.02) == 5
    assert stats.launches_to_exclude([0.01, 0.015, 0.012], 0.025, 0.02) is None  # within the margin
    with pytest.raises(ValueError, match="two or more launches"):
        stats.launch_verdict(launches[:1])


# --- verdicts.build: the unit, the launches' own verdicts, and each run's own --precision ---


def _records(launch_shifts, precision=None, rounds=12, scatter=0.1):
    """Points of two protocols, 'fast' and 'slow' (1.3x), one record file per launch; round r of
    every alternative is scaled alike, and launch k's 'slow' by launch_shifts[k].  Rounds scatter by
    ±scatter, so their medians' intervals are about that wide."""
    points, headers = [], []
    for k, shift in enumerate(launch_shifts, 1):
        run = f"run{k}"
        if precision is not None:
            headers.append({"bench": "swap", "type": "header", "run_id": run, "precision": precision})
        base = [1e-5 * (1 + scatter * ((7 * r) % rounds - rounds / 2) / (rounds / 2)) for r in range(rounds)]
        for protocol, factor in (("fast", 1.0), ("slow", 1.3 * shift)):
            points.append(
                {"bench": "swap", "type": "point", "run_id": run, "_file": f"swap-L{k}.jsonl", "bytes": 8,
                 "protocol": protocol, "round_s": [t * factor for t in base]}
            )  # fmt: skip
    return points, headers


def _cases(points, headers=()):
    return verdicts.build(points, [], ("bytes",), lambda p: p["protocol"], headers)


def test_one_launch_is_the_rounds_verdict():
    points, headers = _records([1.0], precision=0.2)
    (case,) = _cases(points, headers)
    assert case.unit == "rounds" and case.launches == 1 and case.launches_to_decide is None
    assert case.verdict == case.launch_verdicts[0] == stats.verdict(case.rounds)
    assert case.ratio("slow") == stats.paired_ratio(case.rounds["slow"], case.rounds["fast"])


def test_several_launches_are_the_unit():
    points, headers = _records([1.0, 1.1, 0.9], precision=0.2)
    (case,) = _cases(points, headers)
    assert case.unit == "launches" and case.launches == 3 and len(case.launch_verdicts) == 3
    # every launch alone decides for 'fast' (its rounds are exact multiples); over launches the
    # spread of 'slow' (1.17, 1.3, 1.43) leaves it undecided at k = 2: t₂ at 0.975 is 4.30
    assert all(v.best_set == ["fast"] for v in case.launch_verdicts)
    assert case.verdict.best_set == ["fast", "slow"] and not case.verdict.decided
    q = case.ratio("slow")
    d = [math.log(1.3 * s) for s in (1.0, 1.1, 0.9)]
    assert q.n == 3 and q.ratio == pytest.approx(math.exp(np.mean(d)))
    assert q.lo == pytest.approx(math.exp(np.mean(d) - 4.302653 * np.std(d, ddof=1) / math.sqrt(3)))
    assert not q.significant and q.lo < 1.02
    assert case.launches_to_decide == case.launches_needed("slow") == stats.launches_to_exclude(d, 0.025, 0.02) > 3
    # a tight spread over launches decides
    (tight,) = _cases(*_records([1.0, 1.01, 0.99], precision=0.2))
    assert tight.verdict.best_set == ["fast"] and tight.ratio("slow").significant and tight.launches_to_decide is None


@pytest.mark.parametrize("shifts", [[1.0], [1.0, 1.01, 0.99]])
def test_precision_is_the_runs_own(shifts):
    """Rounds scattered ±10 %: their medians' intervals are about 10 % wide, within a run's
    --precision 0.20, outside the default 0.05 that a run without a header is judged against."""
    points, headers = _records(shifts, precision=0.2)
    (case,) = _cases(points, headers)
    assert "precision not reached" not in case.caveats
    (case,) = _cases(points)
    assert "precision not reached" in case.caveats
    (case,) = _cases(*_records(shifts, precision=0.01))
    assert "precision not reached" in case.caveats
