"""`pstlab repro`: agreement of best sets across runs, their size, oversubscribed runs left out."""

import json

import pytest

from pstlab.analysis import repro
from pstlab.core.errors import PstlabError


def _summary(best_set, size, n=4, caveats=(), **extra):
    return {
        "bench": "swap",
        "type": "summary",
        "summary": "sensitivity",
        "transport": "mpi",
        "cache": "1",
        "pair": "0,1",
        "bytes": size,
        "nmsg": 1,
        "best_set": best_set,
        "best": best_set[0],
        "nprotocols": n,
        "verdict_caveats": list(caveats),
        **extra,
    }


def _run(path, sets, oversubscribed=False):
    """A results directory of one swap run without rounds: pstswm's own summaries are the verdicts."""
    path.mkdir()
    recs = [{"bench": "swap", "type": "header", "oversubscribed": oversubscribed}]
    recs += [_summary(s, size) for size, s in sets.items()]
    (path / "swap.jsonl").write_text("".join(json.dumps({"run_id": path.name, **r}) + "\n" for r in recs))
    return path


def test_consistent_runs_meet_the_targets(tmp_path, cli):
    a = _run(tmp_path / "a", {8: ["0,6"], 1024: ["1,3"], 4096: ["2,3", "0,6"]})
    b = _run(tmp_path / "b", {8: ["0,6"], 1024: ["1,3", "0,0"], 4096: ["0,6"]})
    result = repro.analyse([a, b])
    e = result["benches"]["swap"]
    assert (e["verdicts"], e["consistent"], e["share"]) == (3, 3, 1.0)
    # set sizes over runs x verdicts: 1,1,2 and 1,2,1 of 4 alternatives
    assert e["median_set_share"] == pytest.approx(0.25) and e["p90_set_share"] == pytest.approx(0.5)
    assert e["targets_met"] and repro.exit_code(result) == 0
    rc, out, _ = cli("repro", a, b)
    assert rc == 0 and "best sets intersect in every pair for 3/3 = 100%" in out and "targets met" in out


def test_disjoint_sets_are_inconsistent(tmp_path, cli):
    a = _run(tmp_path / "a", {8: ["0,6"], 1024: ["1,3"]})
    b = _run(tmp_path / "b", {8: ["0,6"], 1024: ["1,3"]})
    c = _run(tmp_path / "c", {8: ["0,6"], 1024: ["2,3"]})  # disagrees with both on 1K
    result = repro.analyse([a, b, c])
    e = result["benches"]["swap"]
    assert e["consistent"] == 1 and e["inconsistent"][0]["best_sets"] == [["1,3"], ["1,3"], ["2,3"]]
    assert repro.exit_code(result) == 1
    rc, out, _ = cli("repro", a, b, c)
    assert rc == 1 and "TARGETS NOT MET" in out and "differs: mpi 1 0,1 1024 1: 1,3 | 1,3 | 2,3" in out


def test_wide_sets_fail_the_size_target(tmp_path):
    everything = ["0,6", "1,3", "2,3", "0,0"]
    a = _run(tmp_path / "a", {8: everything, 16: everything})
    b = _run(tmp_path / "b", {8: everything, 16: everything})
    e = repro.analyse([a, b])["benches"]["swap"]
    assert e["share"] == 1.0 and e["median_set_share"] == 1.0 and not e["targets_met"]


def test_oversubscribed_runs_do_not_count(tmp_path, cli):
    a = _run(tmp_path / "a", {8: ["0,6"]})
    b = _run(tmp_path / "b", {8: ["2,3"]}, oversubscribed=True)
    result = repro.analyse([a, b])
    assert result["benches"]["swap"]["verdicts"] == 0 and repro.exit_code(result) == 2
    rc, out, _ = cli("repro", a, b, "--json")
    assert rc == 2 and json.loads(out)["benches"]["swap"]["verdicts"] == 0


def test_needs_two_runs(tmp_path, cli):
    a = _run(tmp_path / "a", {8: ["0,6"]})
    with pytest.raises(PstlabError, match="two or more results directories"):
        repro.analyse([a])
    rc, _, err = cli("repro", a)
    assert rc == 2 and "repro needs two or more results directories" in err
