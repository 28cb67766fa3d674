"""`pstlab compare`: tables with ratios and a verdict, overlaid plots, benches on one side only."""

import json
import math
import re
import shutil

import numpy as np
import pytest
from scipy import stats as sps

from conftest import FIXTURES
from pstlab.analysis import metric_rows
from pstlab.benches import kernel, match, swap
from pstlab.io import records
from pstlab.report import compare
from pstlab.stats import ratios


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp")
    md, html, verdicts = compare.write(FIXTURES / "openmpi", FIXTURES / "mpich", out)
    return md.read_text(), html.read_text(), verdicts, out


def test_log_ratio_is_welch_on_logs():
    a, b = [1.0, 1.1, 0.95], [1.5, 1.62, 1.4, 1.55]
    t = ratios.log_ratio(a, b)
    la, lb = np.log(a), np.log(b)
    ref = sps.ttest_ind(lb, la, equal_var=False)
    assert t.p == pytest.approx(ref.pvalue)
    assert t.ratio == pytest.approx(math.exp(lb.mean() - la.mean()))
    ci = ref.confidence_interval(0.95)
    assert (t.lo, t.hi) == (pytest.approx(math.exp(ci.low)), pytest.approx(math.exp(ci.high)))
    # one launch a side: a ratio, no interval, no test; a non-positive value: no ratio at all
    single = ratios.log_ratio([2.0], [3.0])
    assert single.ratio == pytest.approx(1.5) and (single.lo, single.hi, single.p) == (None, None, None)
    assert ratios.log_ratio([1.0, -0.5], [1.0, 1.0]) is None
    exact = ratios.log_ratio([1.0, 1.0], [2.0, 2.0])
    assert (exact.ratio, exact.lo, exact.hi) == pytest.approx((2.0, 2.0, 2.0)) and exact.p == 0.0


def test_holm_known_answer():
    assert ratios.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert ratios.holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    # the step-down's levels: 0.05/4 and 0.05/3 reject, 0.05/2 stops it and holds for the rest
    levels = ratios.holm_levels([0.01, 0.04, 0.03, 0.005])
    assert levels == pytest.approx([0.05 / 3, 0.025, 0.025, 0.0125])
    assert [p < lv for p, lv in zip([0.01, 0.04, 0.03, 0.005], levels, strict=True)] == [True, False, False, True]


def test_table_intervals_are_the_ones_holm_decided_with(tmp_path):
    """Where 'better' names a side its interval excludes 1, and where it says ≈ the interval holds 1."""
    a = _swap_set(tmp_path / "a", [{8: (t, t), 64: (2 * t, 2 * t)} for t in (1e-5, 1.01e-5, 0.99e-5)])
    b = _swap_set(tmp_path / "b", [{8: (1.3 * t, 1.3 * t), 64: (2 * t, 2 * t)} for t in (1e-5, 1.02e-5, 0.99e-5)])
    rows = [r for rs in metric_rows.all_rows(records.load(a), records.load(b)).values() for r in rs]
    verdicts = {r.better() for r in rows}
    assert {"A", "≈"} <= verdicts, verdicts  # both kinds of decision occur in this set
    for r in rows:
        lo, hi = r.interval()
        assert (r.better() != "≈") == (not lo <= 1 <= hi), (r.key, r.better(), lo, hi, r.p_adjusted)


def test_best_time_rows_carry_the_right_ratio():
    a, b = records.load(FIXTURES / "openmpi"), records.load(FIXTURES / "mpich")
    rows = metric_rows.metric_rows(swap.METRICS[0], a, b)
    table = compare.metric_table(rows)
    key = ("mpi", "1", "0,1", 128 << 10)
    best_a = min(p["t_min"] for p in swap.size_points(a) if p["bytes"] == key[3] and p["cache"] == "1")
    best_b = min(p["t_min"] for p in swap.size_points(b) if p["bytes"] == key[3] and p["cache"] == "1")
    row = next(r for r in table.rows if r[:4] == ["mpi", "1", "0,1", "128K"])
    assert row[table.columns.index("B/A")] == f"{best_b / best_a:.2f}"
    # one launch a side: never a winner, however large the ratio
    assert row[table.columns.index("better")] == "untested"
    assert row[table.columns.index("CI (Holm)")] == "–"


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
    assert "slowdown(s) shown above 10 %" in err and "Best exchange time per message size" in err
    assert "B worse by 30." in err and "lower end above 1.100" in err  # ~30 %
    assert "Gate: is B slower than A by more than 10 %?" in (tmp_path / "c" / "compare.md").read_text()


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


def _swap_set(directory, launches):
    """A record set of swap points, one file per launch: launches[k] = {bytes: (t_min, t_med)}."""
    directory.mkdir()
    for k, sizes in enumerate(launches, 1):
        points = [
            {"bench": "swap", "type": "point", "run_id": f"{directory.name}{k}", "transport": "mpi", "cache": "1",
             "pair": "0,1", "protocol": "0,1", "bytes": size, "t_min": t_min, "t_med": t_med}
            for size, (t_min, t_med) in sizes.items()
        ]  # fmt: skip
        (directory / f"swap-L{k}.jsonl").write_text("".join(json.dumps(p) + "\n" for p in points))
    return directory


def _per_launch_times(t_meds, size=8):
    return [{size: (t, t)} for t in t_meds]


def test_gate_tests_the_slowdown_not_its_point_estimate(tmp_path, cli):
    """B/A = 1.06 [1.01, 1.11] (Welch, 3 launches a side) is not shown slower than 5 %: it passes a
    5 % gate, and fails a 0.5 % one (its lower end, 1.012, is above 1.005)."""
    spread = 4.302653 * 0.01855 / math.sqrt(3)  # t₂ at 0.975 × sd / √3: the interval's half-width in logs
    a = _swap_set(tmp_path / "a", _per_launch_times([1e-5] * 3))
    b_times = [1.06e-5 * math.exp(e) for e in (-0.01855, 0.0, 0.01855)]
    b = _swap_set(tmp_path / "b", _per_launch_times(b_times))
    row = compare.gate_rows(records.load(a), records.load(b), 5)[0]
    assert (row.test.lo, row.test.hi) == pytest.approx((1.06 * math.exp(-spread), 1.06 * math.exp(spread)))
    assert f"{row.test.lo:.2f}, {row.test.hi:.2f}" == "1.01, 1.11" and row.test.p < 0.05
    rc, out, err = cli("compare", a, b, "--out", tmp_path / "c", "--fail-above", "5")
    assert rc == 0, err
    assert "Gate (--fail-above 5): 0 of 1 values show B slower than A by more than 5 %" in out
    rc, _, err = cli("compare", a, b, "--out", tmp_path / "d", "--fail-above", "0.5")
    assert rc == 1 and "1 slowdown(s) shown above 0.5 %" in err
    assert "B worse by 6.0% (B/A of per-launch medians 1.060, Holm-adjusted interval [1.012, 1.110]" in err
    assert "lower end above 1.005" in err


def test_gate_uses_medians_not_minima(tmp_path, cli):
    """B's minima 30 % worse, its medians as A's: no slowdown to gate (a minimum is one lucky sample)."""
    a = _swap_set(tmp_path / "a", [{8: (1e-5, 1.2e-5)}] * 3)
    b = _swap_set(tmp_path / "b", [{8: (1.3e-5, t)} for t in (1.19e-5, 1.2e-5, 1.21e-5)])
    rc, out, err = cli("compare", a, b, "--out", tmp_path / "c", "--fail-above", "5")
    assert rc == 0, err
    assert "0 of 1 values show B slower" in out
    worse = _swap_set(tmp_path / "worse", [{8: (1e-5, t)} for t in (1.55e-5, 1.56e-5, 1.57e-5)])
    rc, _, err = cli("compare", a, worse, "--out", tmp_path / "d", "--fail-above", "5")
    assert rc == 1 and "B worse by 30.0%" in err


def test_a_value_with_fewer_launches_is_not_gated_silently(tmp_path, cli):
    """B's third launch lacks the 64-byte size: that value (and α, fitted over the sizes) is listed as
    not gated; the 8-byte one is gated (and fails when B is 30 % slower there)."""
    a = _swap_set(tmp_path / "a", [{8: (1e-5, 1e-5), 64: (2e-5, 2e-5)}] * 3)
    b_even = [{8: (1e-5, 1e-5), 64: (2e-5, 2e-5)}, {8: (1.01e-5, 1.01e-5), 64: (2e-5, 2e-5)}, {8: (0.99e-5, 0.99e-5)}]
    b = _swap_set(tmp_path / "b", b_even)
    rc, out, err = cli("compare", a, b, "--out", tmp_path / "c", "--fail-above", "5")
    assert rc == 0, err
    assert "0 of 1 values show B slower than A by more than 5 % (per-launch medians, Holm); 2 not gated" in out
    # the size and the α fitted over sizes, which B's third launch cannot fit
    assert "not gated: Best exchange time per message size (min over protocols) [mpi, 1, 0,1, 64]: A has 3" in out
    assert "not gated: Per-message overhead α per protocol [mpi, 1, 0,1]: A has 3, B has 2 launches" in out
    md = (tmp_path / "c" / "compare.md").read_text()
    assert "Not gated:" in md and "[mpi, 1, 0,1, 64]: A has 3, B has 2 launches" in md
    slower_at_8 = [{**launch, 8: (1.3e-5, 1.3e-5 * (1 + k / 100))} for k, launch in enumerate(b_even)]
    slow = _swap_set(tmp_path / "slow", slower_at_8)
    rc, _, err = cli("compare", a, slow, "--out", tmp_path / "d", "--fail-above", "5")
    assert rc == 1 and "[mpi, 1, 0,1, 8]: B worse by 31" in err
    assert "not gated: Best exchange time per message size (min over protocols) [mpi, 1, 0,1, 64]" in err


def _placed(directory, ranks_per_node):
    """The launches of `directory` as if run with ranks_per_node (the run header's locality)."""
    for path in directory.glob("*.jsonl"):
        recs = [json.loads(line) for line in path.read_text().splitlines()]
        for rec in recs:
            if rec.get("type") == "header":
                rec["nodes"] = len(ranks_per_node)
                rec["locality"] = {"ranks_per_node": ranks_per_node, "distribution": "block", "cpu_bind": None}
        path.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    return directory


def test_runs_placed_differently_are_flagged_and_not_gated(tmp_path, cli):
    a = _placed(_launches(tmp_path / "a", 1.0), [2])
    b = _placed(_launches(tmp_path / "b", 1.3, jitter=(1.0, 0.99, 1.015)), [1, 1])
    rc, out, err = cli("compare", a, b, "--out", tmp_path / "c")
    assert rc == 0, err
    assert "warning: the runs were placed differently: A 1 node(s), ranks per node [2]" in out
    assert "B 2 node(s), ranks per node [1, 1]" in out
    assert "placed differently" in (tmp_path / "c" / "compare.md").read_text()
    rc, _, err = cli("compare", a, b, "--out", tmp_path / "d", "--fail-above", "10")
    assert rc == 2 and "--fail-above will not gate: the runs were placed differently" in err
    same = _placed(_launches(tmp_path / "same", 1.3, jitter=(1.0, 0.99, 1.015)), [2])
    rc, out, err = cli("compare", a, same, "--out", tmp_path / "e", "--fail-above", "10")
    assert rc == 1 and "placed differently" not in out + err
