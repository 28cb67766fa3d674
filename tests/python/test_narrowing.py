"""What it would take to narrow a wide tie (pstlab.analysis.narrowing), on launches with known spreads."""

import launch_cases
from pstlab.analysis import narrowing
from pstlab.benches import kernel, swap


def test_equal_alternatives_at_a_small_spread_are_equal_within_the_margin():
    tie = narrowing.wide_ties([launch_cases.case([{"a": 1.0, "b": 1.0, "c": 1.5}] * 5)])[0]
    assert tie.share == 2 / 3 and tie.launches == 5 and tie.more == 0
    assert tie.status(60.0) == "equal within margin"


def test_launches_that_swing_need_more_launches_and_say_what_they_cost():
    """b 4 % slower or faster by launch: a 5 % difference at that spread needs more than 5 launches."""
    swing = [{"a": 1.0, "b": f, "c": 1.5} for f in (1.04, 0.96, 1.05, 0.97, 1.03)]
    tie = narrowing.wide_ties([launch_cases.case(swing)])[0]
    assert tie.needed > 5 and tie.more == tie.needed - 5
    assert tie.status(30.0) == f"~{tie.needed} launches ({tie.more} more, ~{narrowing.duration(tie.more * 30.0)})"
    assert tie.status(None) == f"~{tie.needed} launches ({tie.more} more)"


def test_decided_one_launch_and_oversubscribed_verdicts_are_not_wide_ties():
    decided = launch_cases.case([{"a": 1.0, "b": 1.3}] * 5)
    one = launch_cases.case([{"a": 1.0, "b": 1.0}])
    over = launch_cases.case([{"a": 1.0, "b": 1.0}] * 5)
    over.caveats = ["oversubscribed"]
    assert narrowing.wide_ties([decided, one, over]) == []
    assert narrowing.counted([decided, one, over]) == 1


def _tie(share: float, needed: int | None, launches: int = 5) -> narrowing.Tie:
    return narrowing.Tie(("k",), "x", share, launches, needed)


def test_the_line_counts_each_kind_of_tie_with_its_cost():
    ties = [_tie(0.6, 3), _tie(0.5, 9), _tie(0.4, 25), _tie(0.3, None)]
    assert narrowing.line("swap", ties, 11, 20.0) == (
        "Wide ties, swap: 4 of 11 over 25%: 1 equal within margin; 2 separate 5% in ≤20 more launches (≤7 min); "
        "1 beyond reach"
    )
    assert narrowing.line("swap", ties[1:3], 11, 20.0) == (
        "Wide ties, swap: 2 of 11 over 25% (median 45%): 2 separate 5% in 4–20 more launches (~80 s–7 min)"
    )
    assert narrowing.line("swap", ties[:2], 3, 20.0) == (
        "Wide ties, swap: 2 of 3 over 25% (median 55%): 1 equal within margin; 1 separate 5% in 4 more launches (~80 s)"
    )
    assert narrowing.line("swap", [_tie(0.5, 9)], 3, None) == (
        "Wide ties, swap: 1 of 3 over 25% (median 50%): 1 separate 5% in 4 more launches"
    )
    assert narrowing.line("kernel", [_tie(0.5, 12), _tie(0.4, 14)], 11, 15.0) == (
        "Wide ties, kernel: 2 of 11 over 25% (median 45%): 2 separate 5% in 7–9 more launches (~2 min)"
    )
    assert narrowing.line("kernel", [], 11, 20.0) is None


def test_the_line_gives_up_the_median_then_the_ranges_before_it_outgrows_the_box():
    ties = [_tie(0.6, 3), _tie(0.5, 9), _tie(0.4, 1000), _tie(0.3, None)]
    assert narrowing.line("kernel", ties, 40, 600.0) == (
        "Wide ties, kernel: 4 of 40 over 25%: 1 equal within margin; 2 separate 5% in ≤995 more launches (≤166 h); "
        "1 beyond reach"
    )
    line = narrowing.line("kernel", ties, 1000, 600.0)
    assert line.endswith("in ≤995 more launches; 1 beyond reach") and len(line) <= narrowing.LINE_WIDTH


def test_ties_are_named_as_a_reader_names_them():
    k = dict(
        zip(
            kernel.VERDICT_KEY,
            ("fft", "swtrans", "T42L4", "2x1", "mpi", None, None, None, "intra-node"),
            strict=False,
        )
    )
    assert kernel.tie_name(tuple(k.values())) == "swtrans fft T42L4 2x1"
    s = dict(zip(swap.VERDICT_KEY, ("mpi", "1", "0,1", 512, 1, "intra-node"), strict=False))
    assert swap.tie_name(tuple(s.values())) == "512 B, cache 1"
    s["nmsg"], s["cache"] = 4, "cold"
    assert swap.tie_name(tuple(s.values())) == "512 B x 4 messages, cache cold"
