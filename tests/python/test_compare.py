"""`pstlab compare`: tables with ratios and a verdict, overlaid plots, benches on one side only."""

import json
import math
import re
import shutil

import numpy as np
import pytest
from scipy import stats as sps

from conftest import FIXTURES
from pstlab import compare, records
from pstlab.sections import kernel, match, swap


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp")
    md, html, verdicts = compare.write(FIXTURES / "openmpi", FIXTURES / "mpich", out)
    return md.read_text(), html.read_text(), verdicts, out


def test_log_ratio_is_welch_on_logs():
    a, b = [1.0, 1.1, 0.95], [1.5, 1.62, 1.4, 1.55]
    t = compare.log_ratio(a, b)
    la, lb = np.log(a), np.log(b)
    ref = sps.ttest_ind(lb, la, equal_var=False)
    assert t.p == pytest.approx(ref.pvalue)
    assert t.ratio == pytest.approx(math.exp(lb.mean() - la.mean()))
    ci = ref.confidence_interval(0.95)
    assert (t.lo, t.hi) == (pytest.approx(math.exp(ci.low)), pytest.approx(math.exp(ci.high)))
    # one launch a side: a ratio, no interval, no test; a non-positive value: no ratio at all
    single = compare.log_ratio([2.0], [3.0])
    assert single.ratio == pytest.approx(1.5) and (single.lo, single.hi, single.p) == (None, None, None)
    assert compare.log_ratio([1.0, -0.5], [1.0, 1.0]) is None
    exact = compare.log_ratio([1.0, 1.0], [2.0, 2.0])
    assert (exact.ratio, exact.lo, exact.hi) == pytest.approx((2.0, 2.0, 2.0)) and exact.p == 0.0


def test_holm_known_answer():
    assert compare.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert compare.holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_best_time_rows_carry_the_right_ratio():
    a, b = records.load(FIXTURES / "openmpi"), records.load(FIXTURES / "mpich")
    rows = compare.metric_rows(swap.METRICS[0], a, b)
    table = compare.metric_table(rows)
    key = ("mpi", "1", "0,1", 128 << 10)
    best_a = min(p["t_min"] for p in swap.size_points(a) if p["bytes"] == key[3] and p["cache"] == "1")
    best_b = min(p["t_min"] for p in swap.size_points(b) if p["bytes"] == key[3] and p["cache"] == "1")
    row = next(r for r in table.rows if r[:4] == ["mpi", "1", "0,1", "128K"])
    assert row[table.columns.index("B/A")] == f"{best_b / best_a:.2f}"
    # one launch a side: never a winner, however large the ratio
    assert row[table.columns.index("better")] == "untested"
    assert row[table.columns.index("95% CI")] == "–"


def test_every_bench_is_compared_with_overlays(written):
    md, html, verdicts, out = written
    for title in (
        "Best exchange time per message size",
        "Peak bandwidth per protocol",
        "Ping-pong half round trip",
        "Collective time per call",
        "Fitted cost per failed match",
        "Kernel time with its best protocol",
        "Model time per step",
    ):
        assert f"**{title}" in md, title
        assert any(v.startswith(title) for v in verdicts)
    plots = set(re.findall(r"\]\(plots/([\w-]+)\.png\)", md))
    assert {"swap-overlay", "pingpong-overlay", "coll-overlay", "match-overlay", "model-overlay"} <= plots
    assert all((out / "plots" / f"{p}.png").is_file() for p in plots)
    assert html.count("data:image/png;base64,") == len(plots)


def test_match_m_compared_per_algorithm(written):
    md, *_ = written
    a, b = records.load(FIXTURES / "openmpi"), records.load(FIXTURES / "mpich")
    ma, mb = match.METRICS[0].extract(a), match.METRICS[0].extract(b)
    assert set(ma) == set(mb) and ma
    for key in ma:
        algorithm, queue, wildcard, length = key
        line = next(x for x in md.splitlines() if x.startswith(f"| {algorithm} | {queue} | {wildcard} | {length} |"))
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert [float(c) for c in cells[4:6]] == [
            pytest.approx(ma[key][0], rel=5e-3, abs=5e-4),
            pytest.approx(mb[key][0], rel=5e-3, abs=5e-4),
        ]
        if ma[key][0] > 0 and mb[key][0] > 0:
            assert cells[6] == f"{mb[key][0] / ma[key][0]:.2f}"
            assert cells[9] == "untested"
        else:  # a noisy fit below zero: neither a ratio nor a winner
            assert cells[6] == "–" and cells[9] == "–"
    _, _, verdicts, _ = written
    line = next(v for v in verdicts if v.startswith("Fitted cost per failed match"))
    nonpositive = sum(1 for k in ma if ma[k][0] <= 0 or mb[k][0] <= 0)
    assert line.endswith(f", not comparable in {nonpositive}") if nonpositive else "not comparable" not in line


def test_kernel_best_times_compared(written):
    md, *_ = written
    a, b = records.load(FIXTURES / "openmpi"), records.load(FIXTURES / "mpich")
    ka, kb = kernel.METRICS[0].extract(a), kernel.METRICS[0].extract(b)
    assert set(ka) == set(kb) and ka
    for (stage, algorithm, size, grid), (t, detail) in ka.items():
        mine = [p for p in a.points("kernel") if (p["stage"], p["algorithm"], p["grid"]) == (stage, algorithm, grid)]
        top = min(mine, key=lambda p: p["t_min"])
        assert t == top["t_min"] and detail == kernel.label(top)
        line = next(x for x in md.splitlines() if x.startswith(f"| {stage} | {algorithm} | {size} | {grid} |"))
        assert f"| {detail} |" in line


def test_bench_on_one_side_only(tmp_path, cli):
    only_swap = tmp_path / "a"
    only_swap.mkdir()
    shutil.copy(FIXTURES / "openmpi" / "swap-protocols.jsonl", only_swap)
    rc, out, _ = cli("compare", only_swap, FIXTURES / "mpich", "--out", tmp_path / "cmp")
    assert rc == 0
    text = (tmp_path / "cmp" / "compare.md").read_text()
    assert "Only B has pingpong records; nothing to compare." in text
    assert "Best exchange time per message size (min over protocols): B better in" in out


def test_compare_bad_input(cli, tmp_path):
    rc, _, err = cli("compare", FIXTURES / "openmpi", tmp_path / "nope", "--out", tmp_path / "c")
    assert rc == 2 and "nope: no such file or directory" in err


def test_peak_bandwidth_is_the_best_over_size_sweeps():
    a = records.load(FIXTURES / "openmpi")
    peaks = swap.METRICS[1].extract(a)
    for (transport, cache, protocol), (peak, detail) in peaks.items():
        mine = [
            s["peak_mbytes_per_s"]
            for s in a.summaries("swap", "protocol")
            if (s["transport"], s["cache"], s["protocol"]) == (transport, cache, protocol)
            and s["_file"] != "swap-volume.jsonl"
        ]
        assert peak == max(mine)
        assert detail.startswith("at ")


def _launches(directory, scale, jitter=(1.0, 1.01, 0.99)):
    """swap-protocols of the Open MPI fixture as len(jitter) launches, times × scale × jitter."""
    directory.mkdir()
    lines = (FIXTURES / "openmpi" / "swap-protocols.jsonl").read_text().splitlines()
    for k, j in enumerate(jitter, 1):
        out = []
        for line in lines:
            rec = json.loads(line)
            for f, v in rec.items():
                if isinstance(v, float) and f.startswith("t_"):
                    rec[f] = v * scale * j
                elif isinstance(v, float) and "mbytes_per_s" in f:
                    rec[f] = v / (scale * j)
            out.append(json.dumps(rec))
        (directory / f"swap-protocols-L{k}.jsonl").write_text("\n".join(out) + "\n")
    return directory


def test_gate_fails_on_a_significant_slowdown(tmp_path, cli):
    a, b = _launches(tmp_path / "a", 1.0), _launches(tmp_path / "b", 1.3, jitter=(1.0, 0.99, 1.015))
    rc, _, err = cli("compare", a, b, "--out", tmp_path / "c", "--fail-above", "10")
    assert rc == 1, err
    assert "significant slowdown(s) above 10 %" in err and "Best exchange time per message size" in err
    assert "B worse by 3" in err  # ~30 %
    assert "Gate: B worse than 10 %" in (tmp_path / "c" / "compare.md").read_text()


def test_gate_passes_within_the_allowance_and_when_equal(tmp_path, cli):
    a, b = _launches(tmp_path / "a", 1.0), _launches(tmp_path / "b", 1.3, jitter=(1.0, 0.99, 1.015))
    rc, out, err = cli("compare", a, b, "--out", tmp_path / "c", "--fail-above", "50")
    assert rc == 0, err
    assert "Best exchange time per message size (min over protocols): B better in 0, A in" in out
    same = _launches(tmp_path / "same", 1.0, jitter=(1.005, 0.995, 1.0))
    rc, out, err = cli("compare", a, same, "--out", tmp_path / "d", "--fail-above", "0")
    assert rc == 0, err
    assert "A in 0, no significant difference in" in out


def test_gate_needs_three_launches_a_side(tmp_path, cli):
    a, b = _launches(tmp_path / "a", 1.0), _launches(tmp_path / "b", 1.3, jitter=(1.0, 1.01))
    rc, _, err = cli("compare", a, b, "--out", tmp_path / "c", "--fail-above", "10")
    assert rc == 2
    assert "--fail-above needs 3 or more launches on each side (A has 3, B has 2)" in err
    rc, _, err = cli("compare", a, a, "--out", tmp_path / "d", "--fail-above", "-1")
    assert rc == 2 and "--fail-above must be a percentage >= 0, got -1" in err
