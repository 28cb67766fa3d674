"""Plots: PNG output, many series highlighted rather than drawn as a tangle; where pstlab looks for things."""

from pathlib import Path

from pstlab.core import paths
from pstlab.report import plots


def test_figure_is_a_png_with_every_panel():
    a = plots.Panel("a", "x", "y", xlog=True, xbytes=True, series=[plots.Series("s", [8, 1024], [1.0, 2.0])])
    b = plots.Panel("b", "x", "y", ylog=True, xinteger=True, series=[plots.Series("t", [1, 2, 3], [1, 10, 100])])
    fig = plots.figure("name", "caption", [a, b, b], columns=2)
    assert fig.png[:8] == b"\x89PNG\r\n\x1a\n"
    assert (fig.name, fig.caption) == ("name", "caption")


def test_many_series_highlight_the_best_few():
    series = [plots.Series(f"p{i}", [1, 2], [i, i + 1]) for i in range(20)]
    best_high = plots._highlight(plots.Panel("t", "x", "y", series=series))
    assert best_high == {19, 18, 17, 16, 15, 14}
    best_low = plots._highlight(plots.Panel("t", "x", "y", series=series, rank_by_max_y=False))
    assert best_low == {0, 1, 2, 3, 4, 5}
    few = plots._highlight(plots.Panel("t", "x", "y", series=series[:5]))
    assert few == set(range(5))


def test_checkout_paths(monkeypatch, tmp_path):
    root = paths.repo_root()
    assert (root / "scripts" / "pstrun").is_file() and (root / "suites" / "quick.toml").is_file()
    assert paths.pstswm("mpich") == root / "build" / "mpich" / "pstswm"
    assert paths.pstswm("openmpi", "elsewhere") == Path("elsewhere") / "pstswm"
    monkeypatch.setenv("PSTSWM_ROOT", str(tmp_path))
    assert tmp_path / "suites" in paths.data_dirs("suites")


def test_missing_values_and_empty_series_are_tolerated():
    panel = plots.Panel(
        "p",
        "x",
        "y",
        ylog=True,
        series=[plots.Series("gap", [1, 2, 3], [1.0, None, 3.0]), plots.Series("empty", [], [])]
        + [plots.Series(f"s{i}", [1, 2], [i + 1, i + 2]) for i in range(9)],
    )
    assert plots.figure("gaps", "c", [panel]).png[:4] == b"\x89PNG"
