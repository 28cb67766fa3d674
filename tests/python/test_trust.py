"""The Trust level measured by held-out launches (pstlab.analysis.trust), on launches with known answers."""

import random

import pytest

import launch_cases
from pstlab.analysis import trust, trust_calibration
from pstlab.stats import stats


def test_a_verdict_every_launch_shows_agrees_when_any_launch_is_left_out():
    case = launch_cases.case([{"a": 1.0, "b": 1.3, "c": 1.6}] * 5)
    assert trust.held_out(case) == [True] * 5
    a = trust.agreement([case])
    assert (a.agreed, a.pairs, a.verdicts) == (5, 5, 1) and trust.level_of(a) == "high"


def test_a_launch_that_ranks_the_other_way_disagrees_with_the_rest():
    """One launch of five where b beats a clearly: the other four's verdict (a alone) does not meet its own."""
    steady = {"a": 1.0, "b": 1.3}
    case = launch_cases.case([steady, steady, {"a": 1.3, "b": 1.0}, steady, steady])
    assert trust.held_out(case) == [True, True, False, True, True]
    assert trust.level_of(trust.agreement([case])) == "medium"  # 4 of 5 = 80 %


def test_launches_that_keep_changing_their_winner_read_low():
    """Two of three launches agree and the third reverses them: left out, it disagrees with the two
    (decided); either of the two left out, the rest tie and agree: 2 of 3."""
    steady, flipped = {"a": 1.0, "b": 1.3}, {"a": 1.3, "b": 1.0}
    case = launch_cases.case([steady, steady, flipped])
    assert trust.held_out(case) == [True, True, False]
    assert trust.level_of(trust.agreement([case])) == "low"


def test_a_tie_over_launches_agrees_with_any_launch():
    """Launches that alternate their winner make the verdict over the rest a tie: nothing to contradict."""
    flip = [{"a": 1.0, "b": 1.3}, {"a": 1.3, "b": 1.0}] * 2 + [{"a": 1.0, "b": 1.3}]
    assert trust.held_out(launch_cases.case(flip)) == [True] * 5


def test_oversubscribed_and_short_cases_are_not_counted():
    over = launch_cases.case([{"a": 1.0, "b": 1.3}] * 5)
    over.caveats = ["oversubscribed"]
    two = launch_cases.case([{"a": 1.0, "b": 1.3}] * 2)
    a = trust.agreement([over, two])
    assert a.pairs == 0 and trust.level_of(a) is None
    assert trust.statement(a).startswith("reproduction not measured")


def test_two_launches_of_many_alternatives_give_an_open_interval_not_an_overflow():
    """Left-out verdicts over two launches reach t quantiles in the millions; the upper end is then inf."""
    q = stats.t_ratio([0.0, 5.0], 1e-9, 0.02)
    assert q.hi == float("inf") and not q.significant


def test_the_calibration_interval_is_wilsons():
    lo, hi = trust_calibration.wilson(8, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.4902, 0.9433)
    assert trust_calibration.wilson(0, 0)[0] != trust_calibration.wilson(0, 0)[0]  # nan: no verdicts, no rate


def test_the_lottery_favours_one_protocol_of_a_launch_by_its_gain():
    run = [
        {"type": "header"},
        {"type": "point", "protocol": "0,6", "round_s": [1.0, 2.0]},
        {"type": "point", "protocol": "1,10", "round_s": [1.0, 2.0]},
    ]
    always = trust_calibration.Lottery(1.0, 0.1)
    drawn = always.draw(run, random.Random(3))  # noqa: S311 (reproducible test data)
    changed = [r for r, before in zip(drawn, run, strict=True) if r != before]
    assert len(changed) == 1 and changed[0]["round_s"] == [0.9, 1.8]
    assert run[1]["round_s"] == run[2]["round_s"] == [1.0, 2.0]  # the recorded launch is left as it was
    assert trust_calibration.Lottery(1e-9, 0.1).draw(run, random.Random(3)) is run  # noqa: S311
    assert str(always) == "lottery 100% x 10%"


def test_a_lottery_that_is_not_two_numbers_in_range_exits_2(capsys):
    for bad in ("0.3", "x,0.1", "0,0.1", "0.3,1"):
        with pytest.raises(SystemExit) as exit_:
            trust_calibration.main(["--lottery", bad, "quiet=/nonexistent"])
        assert exit_.value.code == 2 and "--lottery: " in capsys.readouterr().err
