"""The launch floor (pstlab.launch_floor, docs/statistics.md "A floor under the launch spread"):
known answers, its place in verdicts.build, and calibration against a placement lottery."""

import math

import numpy as np
import pytest

from pstlab.stats import launch_floor, stats, verdicts

MARGIN = 0.02
EXPERIMENTS, COMPARISONS, ROUNDS = 4, 2, 10  # a simulated suite: experiments of one kind
LAUNCH_SPREAD, ROUND_SPREAD = 0.05, 0.01  # in the log-ratio of two alternatives


def test_pool_known_answer():
    """Each comparison's variance is about its own mean (a real difference is not spread), each
    experiment gives the median over its comparisons, and the experiments are weighted by launches − 1."""
    first = [[0.0, 0.1, 0.2], [1.0, 1.1, 1.2], [0.5, 0.5, 0.5]]  # variances 0.01, 0.01, 0: median 0.01
    second = [[0.0, 0.2, 0.4, 0.6, 0.8]]  # variance 0.1, 4 launches beyond the first
    floor = launch_floor.pool([first, second])
    assert floor.df == 6 and floor.experiments == 2
    assert floor.variance == pytest.approx((2 * 0.01 + 4 * 0.1) / 6)
    assert launch_floor.pool([]) is None


def test_one_wild_comparison_does_not_set_the_floor():
    calm = [[0.0, 0.01, -0.01]] * 4
    wild = [[0.0, 1.0, -1.0]]
    assert launch_floor.pool([calm + wild]).variance == pytest.approx(1e-4)


def test_the_floor_widens_never_narrows():
    """Launches that agree get the floor's width; a comparison more spread than the floor keeps its own."""
    tail = stats.launch_tail_alpha(0.95, 2)
    floor = launch_floor.Floor(variance=0.05**2, df=8, experiments=4)
    agreeing = [0.05, 0.051, 0.049]
    assert stats.t_ratio(agreeing, tail, MARGIN).significant
    q = stats.t_ratio(agreeing, tail, MARGIN, floor)
    half = 2.306004 * 0.05 / math.sqrt(3)  # t with the floor's 8 degrees of freedom
    assert not q.significant and q.lo == pytest.approx(math.exp(0.05 - half))
    spread = [0.0, 0.2, 0.4]
    assert stats.t_ratio(spread, tail, MARGIN, floor) == stats.t_ratio(spread, tail, MARGIN)
    assert stats.launches_to_exclude(agreeing, tail, MARGIN) == 2
    assert stats.launches_to_exclude(agreeing, tail, MARGIN, floor) > 3


@pytest.mark.parametrize(("df", "draws", "sees"), [(2, 1, False), (4, 1, False), (5, 1, True), (4, 2, True)])
def test_a_lottery_is_seen_by_enough_launches(df, draws, sees):
    """Two equally likely placements: every experiment pooled shows no spread with chance 2^(-draws·df)."""
    assert launch_floor.Floor(1e-4, df, 1).sees_a_lottery(0.95, draws) is sees


# --- verdicts.build: the floor pooled over every experiment of a kind ---


def _records(experiments: dict[int, list[float]], rounds: int = 12):
    """Points of 'fast' and 'slow' per message size, one experiment per size (its own launches, run ids
    and files): experiments[bytes][k] is launch k's log-ratio of slow to fast, rounds scattered ±2 %."""
    points = []
    for size, log_ratios in experiments.items():
        for k, d in enumerate(log_ratios, 1):
            base = [1e-5 * (1 + 0.02 * ((7 * r) % rounds - rounds / 2) / (rounds / 2)) for r in range(rounds)]
            for protocol, factor in (("fast", 1.0), ("slow", math.exp(d))):
                points.append(
                    {"bench": "swap", "type": "point", "run_id": f"{size}-{k}", "_file": f"swap-{size}-L{k}.jsonl",
                     "bytes": size, "protocol": protocol, "round_s": [t * factor for t in base]}
                )  # fmt: skip
    return points


def _cases(experiments):
    return {c.key[0]: c for c in verdicts.build(_records(experiments), [], ("bytes",), lambda p: p["protocol"])}


AGREEING = [0.05, 0.05, 0.05]  # three launches of one placement: no spread seen
LOTTERY = [[0.05, -0.05, 0.05], [-0.05, -0.05, 0.05], [0.05, 0.05, -0.05]]  # both placements drawn


def test_an_experiment_whose_launches_agree_takes_the_kinds_spread():
    alone = _cases({8: AGREEING})[8]
    assert alone.verdict.best_set == ["fast"]  # its own spread is nil: decided, but on too few launches
    assert alone.caveats == [launch_floor.CAVEAT] and alone.floor.df == 2
    cases = _cases({8: AGREEING, 64: LOTTERY[0], 512: LOTTERY[1], 4096: LOTTERY[2]})
    tied = cases[8]
    assert tied.verdict.best_set == ["fast", "slow"] and not tied.caveats
    assert tied.floor.experiments == 4 and tied.floor.df == 8
    # three lottery experiments of variance 1/300 and one of 0, each 2 launches beyond its first: 0.05²
    assert tied.floor.variance == pytest.approx(0.05**2)
    # the interval shown is the one that decided, the floor's: t with 8 degrees of freedom
    assert tied.ratio("slow").lo == pytest.approx(math.exp(0.05 - 2.306004 * 0.05 / math.sqrt(3)))
    assert tied.launches_to_decide == tied.launches_needed("slow") > 3


@pytest.mark.parametrize(("draws", "caveats"), [(1, [launch_floor.CAVEAT]), (2, [])])
def test_splits_launched_apart_have_seen_more_launches(draws, caveats):
    """Ranks x threads: one step time per split and launch, each split its own launch (draws 2): five
    launches of one configuration could all have drawn one placement with chance 2^-8, not 2^-4."""
    steps = {"2x1": [1.0, 1.01, 0.99, 1.0, 1.02], "1x2": [2.0, 2.02, 1.98, 2.0, 2.01]}
    case = verdicts.Case(("T42",), steps, 5, [], per_launch=1)
    case.verdict = stats.launch_verdict(case.launch_rounds())
    floor = launch_floor.apply([case], [case.key], draws=draws)
    assert floor.df == 4 and case.floor == floor and case.verdict.best_set == ["2x1"] and case.caveats == caveats


def test_one_launch_takes_no_floor():
    case = _cases({8: [0.05]})[8]
    assert case.unit == "rounds" and case.floor is None and case.verdict.best_set == ["fast"] and not case.caveats


# --- Calibration that can fail: equal alternatives under a placement lottery, normal and t3 launch effects ---


def _suite(rng, trials, launches, effect, gap=1.0, spreads=(LAUNCH_SPREAD,) * EXPERIMENTS):
    """Per-launch log-ratios of a simulated suite, (trials, EXPERIMENTS, COMPARISONS, launches).  Each
    launch of an experiment draws one launch effect, which moves every comparison of the experiment
    alike (they share the launch: the case pooling learns least from); experiments draw apart.
    bimodal: the placement lottery, ±spread with probability 1/2 each; normal and t3 have the same
    standard deviation, spreads[e] in experiment e.  A launch's value is the median of its ROUNDS
    rounds' log-ratios (as stats.launch_log_ratios), each moved by N(0, ROUND_SPREAD)."""
    shape = (trials, EXPERIMENTS, 1, launches)
    draws = {
        "bimodal": lambda: rng.choice([-1.0, 1.0], shape),
        "normal": lambda: rng.standard_normal(shape),
        "t3": lambda: rng.standard_t(3, shape) / math.sqrt(3),
    }
    spread = np.asarray(spreads)[:, None, None]
    rounds = rng.normal(0.0, ROUND_SPREAD, (trials, EXPERIMENTS, COMPARISONS, launches, ROUNDS))
    return math.log(gap) + spread * draws[effect]() + np.median(rounds, axis=-1)


def _shares(suite, found, rules=("floor", "no floor")) -> dict[str, np.ndarray]:
    """{rule: per experiment, the share of its comparisons for which found(t interval) holds}, with the
    floor pooled over each simulated suite and without it, every comparison a verdict over two alternatives."""
    tail = stats.launch_tail_alpha(0.95, 2)
    hits = {name: np.zeros(EXPERIMENTS) for name in rules}
    for trial in suite.tolist():
        for name in rules:
            floor = launch_floor.pool(trial) if name == "floor" else None
            hits[name] += [sum(found(stats.t_ratio(d, tail, MARGIN, floor)) for d in e) for e in trial]
    return {name: h / (len(suite) * COMPARISONS) for name, h in hits.items()}


def _excluded(q: stats.PairedRatio) -> bool:
    return q.significant  # of two equal alternatives, either dropped is false


@pytest.mark.parametrize("launches", [3, 5])
def test_a_placement_lottery_drops_equal_alternatives_only_with_the_floor_off(launches):
    """Two equal alternatives whose ratio moves ±5 % with a launch's placement, 4 experiments of 2
    comparisons: with the floor one of them is dropped in <= 5 % of 1,000 suites' comparisons.  Without
    it, every experiment whose launches all drew one placement drops one: a quarter at 3 launches,
    one in 16 at 5."""
    rng = np.random.default_rng(41 + launches)
    shares = _shares(_suite(rng, 1000, launches, "bimodal"), _excluded)
    false = {name: round(float(share.mean()), 4) for name, share in shares.items()}
    print(f"false exclusions, placement lottery, {launches} launches:", false)
    assert false["floor"] <= 0.05, false
    assert false["no floor"] > 0.05, false


@pytest.mark.parametrize("effect", ["normal", "t3"])
@pytest.mark.parametrize("launches", [3, 5])
def test_normal_and_heavy_tailed_launch_effects_stay_calibrated(effect, launches):
    """Normal and t3 launch effects, launch spread 0.05 in three experiments and 0.15 in the fourth:
    equal alternatives are dropped in <= 5 % of each experiment's comparisons.  The widest keeps its
    own interval (a floor, not a shrinkage towards the pool, which would drop one in 10-16 % there)."""
    rng = np.random.default_rng(7 * launches + len(effect))
    suite = _suite(rng, 1000, launches, effect, spreads=(0.05, 0.05, 0.05, 0.15))
    false = _shares(suite, _excluded, rules=("floor",))["floor"]
    print(f"false exclusions per experiment, {effect} launch effects, {launches} launches:", false)
    assert max(false) <= 0.05, false


def test_a_ten_percent_gap_is_still_found_at_five_launches():
    """A real 10 % difference, normal launch effects of 0.05 in the log-ratio, 5 launches: the slower is
    dropped in >= 60 % of comparisons with the floor (spread about each comparison's own mean, so the
    difference itself does not raise the floor)."""
    rng = np.random.default_rng(3)
    shares = _shares(_suite(rng, 1000, 5, "normal", gap=1.10), lambda q: q.significant and q.ratio > 1)
    found = {name: round(float(share.mean()), 4) for name, share in shares.items()}
    print("10 % found at 5 launches:", found)
    assert found["floor"] >= 0.60, found
