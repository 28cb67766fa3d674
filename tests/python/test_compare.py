"""`pstlab compare`: tables with ratios and a verdict, overlaid plots, benches on one side only."""

import re
import shutil

import pytest

from conftest import FIXTURES
from pstlab import compare, records
from pstlab.sections import kernel, match, swap


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp")
    md, html, verdicts = compare.write(FIXTURES / "openmpi", FIXTURES / "mpich", out)
    return md.read_text(), html.read_text(), verdicts, out


def test_faster_respects_direction_and_ties():
    assert compare.faster(2.0, 1.0, higher_is_better=False) == "B"
    assert compare.faster(1.0, 2.0, higher_is_better=False) == "A"
    assert compare.faster(1.0, 2.0, higher_is_better=True) == "B"
    assert compare.faster(1.0, 1.04, higher_is_better=False) == "≈"
    assert compare.faster(0.0, 1.0, higher_is_better=False) == "–"
    # A fitted matching cost can come out negative within its interval: no ratio, no verdict.
    assert compare.faster(1.0, -0.5, higher_is_better=False) == "–"
    assert compare.positive_ratio(1.0, -0.5) is None and compare.positive_ratio(2.0, 3.0) == pytest.approx(1.5)


def test_best_time_rows_carry_the_right_ratio():
    a, b = records.load(FIXTURES / "openmpi"), records.load(FIXTURES / "mpich")
    table, wins = compare.metric_table(swap.METRICS[0], a, b)
    key = ("mpi", "1", "0,1", 128 << 10)
    best_a = min(p["t_min"] for p in swap.size_points(a) if p["bytes"] == key[3] and p["cache"] == "1")
    best_b = min(p["t_min"] for p in swap.size_points(b) if p["bytes"] == key[3] and p["cache"] == "1")
    row = next(r for r in table.rows if r[:4] == ["mpi", "1", "0,1", "128K"])
    assert row[table.columns.index("B/A")] == f"{best_b / best_a:.2f}"
    assert row[table.columns.index("better")] == compare.faster(best_a, best_b, higher_is_better=False)
    assert sum(wins.values()) == len(table.rows)


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
            assert cells[7] == compare.faster(ma[key][0], mb[key][0], higher_is_better=False)
        else:  # a noisy fit below zero: neither a ratio nor a winner
            assert cells[6:8] == ["–", "–"]
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
