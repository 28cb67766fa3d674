"""Verdicts merged over launches, the report's answers and its guardrails, tune's tie-set rule."""

import json

import numpy as np
import pytest

from pstlab.analysis import guardrails
from pstlab.benches import swap
from pstlab.io import records
from pstlab.report import report
from pstlab.run import tune
from pstlab.stats import launch_floor, stats


def _write(path, recs):
    path.write_text("".join(json.dumps({"run_id": "r", **r}) + "\n" for r in recs))


def _swap_launch(rid, seed, n=12, caveats=()):
    """One swap launch at one size: 0,0 10 % slower than 0,6 and 1,3 in every round (2 % noise)."""
    rng = np.random.default_rng(seed)
    base = [1e-5 * rng.uniform(1, 1.04) for _ in range(n)]  # shared per-round drift
    alts = {"0,6": 1.0, "0,0": 1.1, "1,3": 1.0}
    points = [
        {
            "bench": "swap",
            "type": "point",
            "run_id": rid,
            "transport": "mpi",
            "cache": "1",
            "pair": "0,1",
            "bytes": 1024,
            "nmsg": 1,
            "protocol": p,
            "round_s": [b * f * rng.uniform(0.99, 1.01) for b in base],
        }
        for p, f in alts.items()
    ]
    summary = {
        "bench": "swap",
        "type": "summary",
        "summary": "sensitivity",
        "run_id": rid,
        "transport": "mpi",
        "cache": "1",
        "pair": "0,1",
        "bytes": 1024,
        "nmsg": 1,
        "margin": 0.02,
        "confidence": 0.95,
        "verdict_caveats": list(caveats),
    }
    header = {"bench": "swap", "type": "header", "run_id": rid, "oversubscribed": False}
    return [header, *points, summary]


def test_launches_merge_into_one_paired_verdict(tmp_path):
    _write(tmp_path / "swap-L1.jsonl", _swap_launch("a", 1, caveats=["noisy", "precision not reached"]))
    _write(tmp_path / "swap-L2.jsonl", _swap_launch("b", 2))
    rs = records.load(tmp_path)
    (case,) = swap.verdict_cases(rs)
    assert case.launches == 2 and case.unit == "launches" and case.verdict.rounds == 24
    rounds_of = {(q["run_id"], q["protocol"]): q["round_s"] for q in rs.points("swap")}
    per_launch = [{p: rounds_of[(r, p)] for p in ("0,6", "0,0", "1,3")} for r in ("a", "b")]
    assert case.verdict == stats.launch_verdict(per_launch)
    assert [v.best_set for v in case.launch_verdicts] == [stats.verdict(r).best_set for r in per_launch]
    assert set(case.verdict.best_set) == {"0,6", "1,3"} and "0,0" not in case.verdict.best_set
    # kept from a launch: noisy; judged again on each launch's rounds: precision (2 % noise: reached);
    # one experiment of two launches cannot have seen a placement lottery, and 0,0 is excluded
    assert case.caveats == [launch_floor.CAVEAT, "noisy"]
    q = case.ratio("0,0")
    assert q.significant and q.ratio == pytest.approx(1.1, rel=0.02)


def test_too_few_rounds_is_a_caveat(tmp_path):
    _write(tmp_path / "s.jsonl", _swap_launch("a", 1, n=5))
    (case,) = swap.verdict_cases(records.load(tmp_path))
    assert "fewer than 10 rounds" in case.caveats and case.verdict.level == "undetermined"


def test_guardrails_name_every_weakness(tmp_path):
    header = {
        "bench": "coll",
        "type": "header",
        "oversubscribed": True,
        "noise": {"before": {"lost_frac_max": 0.31}, "noisy": True},
    }
    fit = {"bench": "swap", "type": "summary", "summary": "protocol", "protocol": "0,0", "fit_ok": False}
    point = {"bench": "coll", "type": "point", "op": "bcast", "bytes": 8, "t_med": 1e-6, "precision_reached": False}
    _write(tmp_path / "c.jsonl", [header, fit, point])
    g = guardrails.check(records.load(tmp_path), [])
    text = "\n".join(g.lines())
    assert g.oversubscribed == {"c.jsonl"} and g.mark("c.jsonl") == "⚠ oversubscribed, noisy"
    assert "oversubscribed: 1 of 1 runs had more ranks than CPUs (c.jsonl)" in text
    assert "noisy host: 1 of 1 runs lost more than 2% of a clock-spin probe (worst c.jsonl: 31%)" in text
    assert "no footer in 1 of 1 runs" in text
    assert "fits failing: 1 of 1 fitted models" in text
    assert "precision not reached: 0 of 0 verdicts, 1 of 1 measured points" in text
    assert all("Do: " in line for line in g.lines())  # every guardrail says what to do


def test_guardrails_count_a_failing_fit_once_however_often_it_is_recorded(tmp_path):
    """'98 fitted models fail' listed one name twice: a name is counted once, launches and sweeps merged."""
    fits = [
        {"bench": "swap", "type": "summary", "summary": "protocol", "protocol": p, "fit_ok": ok, "run_id": rid}
        for rid in ("a", "b")
        for p, ok in (("0,6", False), ("0,1", True))
    ]
    _write(tmp_path / "s.jsonl", fits)
    g = guardrails.check(records.load(tmp_path), [])
    assert g.failing_fits == ["swap 0,6"] and g.fits == 2


def test_report_opens_with_answers_and_a_quiet_box(tmp_path):
    _write(tmp_path / "swap-L1.jsonl", _swap_launch("a", 1))
    (tmp_path / "swap-L1.jsonl").open("a").write(
        json.dumps({"bench": "swap", "type": "footer", "run_id": "a", "noise": {"after": {"lost_frac_max": 0.001}}})
        + "\n"
    )
    md, _ = report.write(tmp_path, tmp_path / "rep")
    text = md.read_text()
    assert text.index("## Answers for this machine") < text.index("## Runs and machine")
    assert "- none: no oversubscription, a quiet host, fits ok." in text
    assert "| 1K | 1 | 3 | 12 | 0,6 ≈ 1,3 |" in text or "| 1K | 1 | 3 | 12 | 1,3 ≈ 0,6 |" in text


def _kernel_points(alts, n=12, seed=3):
    rng = np.random.default_rng(seed)
    base = [1e-4 * rng.uniform(1, 1.2) for _ in range(n)]
    out = []
    for (protocol, overlap), f in alts.items():
        out.append(
            {
                "bench": "kernel",
                "type": "point",
                "run_id": "k",
                "stage": "fft",
                "algorithm": "srtrans",
                "size": "T42L4",
                "grid": "2x1",
                "protocol": protocol,
                "overlap": overlap,
                "t_min": min(base) * f,
                "round_s": [b * f * rng.uniform(0.995, 1.005) for b in base],
            }
        )
    return out


@pytest.mark.parametrize(
    ("alts", "chosen"),
    [
        # 0,6 ties with a faster 2,3: the generic protocol wins the tie
        ({("2,3", True): 1.0, ("0,6", False): 1.005, ("1,3", False): 1.3}, ("0,6", False)),
        # no 0,6 in the set: the fastest member without overlap
        ({("2,3", True): 1.0, ("1,3", False): 1.004, ("0,6", False): 1.3, ("0,1", True): 1.001}, ("1,3", False)),
        # only overlapping members: the point estimate
        ({("2,3", True): 1.0, ("0,1", True): 1.003, ("0,6", False): 1.3}, ("2,3", True)),
        # decided: the best, whatever the rule prefers
        ({("3,1", True): 1.0, ("0,6", False): 1.2}, ("3,1", True)),
    ],
)
def test_tune_chooses_inside_the_tie_set_by_its_rule(alts, chosen):
    (pick,) = tune.choose(_kernel_points(alts))["fft"].picks
    assert (pick.protocol, pick.overlap) == chosen
    assert pick.stat == "t_med" and " ≈ " in pick.tie_set or pick.tie_set == "3,1"
