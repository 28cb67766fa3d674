"""pstlab reframe: the reference table of pstswm's ReFrame library from real records (the current
fixtures, renamed as the library's experiments), its bounds, its bad input, and that it names the
figures as the library does."""

import importlib.util
import json
import shutil
import sys

import pytest

from conftest import FIXTURES, ROOT
from pstlab.analysis import reframe_refs
from pstlab.cli import main

# The library's experiments from the fixtures' records of the same subcommands.
SOURCES = {
    "swap": "swap-protocols",
    "pingpong": "pingpong",
    "coll": "coll",
    "match": "match",
    "model": "model",
}
CURRENT = FIXTURES / "current" / "openmpi"


def _results(directory, launches: int = 1, leave_out: str = ""):
    directory.mkdir()
    for experiment, source in SOURCES.items():
        if experiment == leave_out:
            continue
        for k in range(1, launches + 1):
            name = f"{experiment}-L{k}.jsonl" if launches > 1 else f"{experiment}.jsonl"
            shutil.copy(CURRENT / f"{source}.jsonl", directory / name)
    shutil.copy(CURRENT / "manifest.json", directory / "manifest.json")
    return directory


def _records(source: str) -> list[dict]:
    return [
        json.loads(line)
        for line in (CURRENT / f"{source}.jsonl").read_text().splitlines()
    ]


def _write(tmp_path, *args) -> dict:
    out = tmp_path / "refs.json"
    assert main(["reframe", *map(str, args), "--out", str(out)]) == 0
    return json.loads(out.read_text())


def _edit_points(path, edit) -> list[dict]:
    """Rewrite the point records of a record file with edit(record); the records as written."""
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    for r in recs:
        if r["type"] == "point":
            edit(r)
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return recs


def _swap_entry(table: dict, point: dict) -> dict:
    return table["references"]["swap ranks=2 nodes=1"][
        f"{point['protocol']} {point['bytes']}B cache {point['cache']}"
    ]


def test_every_figure_has_its_median_and_its_interval_as_bounds(tmp_path):
    results = _results(tmp_path / "r")
    with_interval = lambda r: r.update(ci_low=r["t_med"] * 0.5, ci_high=r["t_med"] * 2)  # noqa: E731
    point = next(
        p
        for p in _edit_points(results / "swap.jsonl", with_interval)
        if p["type"] == "point"
    )
    table = _write(tmp_path, results, "--system", "local:default", "--tolerance", "0.2")
    assert table["system"] == "local:default" and table["tolerance"] == 0.2
    shapes = [("swap", 2), ("pingpong", 2), ("coll", 4), ("match", 2), ("model", 1)]
    assert set(table["references"]) == {f"{e} ranks={r} nodes=1" for e, r in shapes}
    entry = _swap_entry(table, point)
    value, lower, upper, unit = entry["reference"]
    assert unit == "us" and value == pytest.approx(point["t_med"] * 1e6)
    assert entry["bounds_us"] == pytest.approx(
        [point["t_med"] * 0.5 * 0.8e6, point["t_med"] * 2 * 1.2e6]
    )
    assert value * (1 + lower) == pytest.approx(entry["bounds_us"][0], rel=1e-5)
    assert value * (1 + upper) == pytest.approx(entry["bounds_us"][1], rel=1e-5)
    model = table["references"]["model ranks=1 nodes=1"]
    step = next(p for p in _records("model") if p["type"] == "point")["step_s"]
    assert [e["reference"][0] for e in model.values()] == pytest.approx([step * 1e6])


def test_launches_give_the_median_and_widen_the_bounds_to_their_spread(tmp_path):
    results = _results(tmp_path / "r", launches=3)
    _edit_points(results / "swap-L3.jsonl", lambda r: r.update(t_med=r["t_med"] * 3))
    table = _write(tmp_path, results, "--system", "cluster", "--tolerance", "0")
    point = next(p for p in _records("swap-protocols") if p["type"] == "point")
    entry = _swap_entry(table, point)
    assert entry["launches"] == 3
    assert entry["reference"][0] == pytest.approx(
        point["t_med"] * 1e6
    )  # the median of t, t, 3t
    assert entry["bounds_us"] == pytest.approx(
        [point["t_med"] * 1e6, point["t_med"] * 3e6]
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--system", "local:default", "--tolerance", "abc"],
            "--tolerance 'abc': expected a number",
        ),
        (
            ["--system", "local:default", "--tolerance", "nan"],
            "--tolerance 'nan': expected a number",
        ),
        (
            ["--system", "local default"],
            "--system 'local default': expected a ReFrame system or system:partition",
        ),
        (["--system", "a:b:c"], "--system 'a:b:c': expected a ReFrame system"),
    ],
)
def test_bad_options_exit_2_with_one_line(tmp_path, capsys, args, message):
    out = tmp_path / "refs.json"
    assert (
        main(["reframe", str(_results(tmp_path / "r")), *args, "--out", str(out)]) == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert not out.exists()


def test_a_results_directory_without_an_experiment_names_it(tmp_path, capsys):
    results = _results(tmp_path / "r", leave_out="match")
    assert (
        main(
            [
                "reframe",
                str(results),
                "--system",
                "local",
                "--out",
                str(tmp_path / "refs.json"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert (
        err.count("\n") == 1
        and "no point records of the library's experiment 'match' (match.jsonl)" in err
    ), err


def test_a_directory_that_is_no_results_directory_is_refused(tmp_path, capsys):
    (tmp_path / "r").mkdir()
    shutil.copy(CURRENT / "swap-protocols.jsonl", tmp_path / "r" / "swap.jsonl")
    assert (
        main(
            [
                "reframe",
                str(tmp_path / "r"),
                "--system",
                "local",
                "--out",
                str(tmp_path / "refs.json"),
            ]
        )
        == 2
    )
    assert (
        "not a results directory of pstlab run (no manifest.json)"
        in capsys.readouterr().err
    )


def test_two_directories_of_one_shape_are_refused(tmp_path, capsys):
    a, b = _results(tmp_path / "a"), _results(tmp_path / "b")
    assert (
        main(
            [
                "reframe",
                str(a),
                str(b),
                "--system",
                "local",
                "--out",
                str(tmp_path / "refs.json"),
            ]
        )
        == 2
    )
    assert (
        "a second set of references for 'swap ranks=2 nodes=1'"
        in capsys.readouterr().err
    )


def _library():
    pytest.importorskip("reframe")
    spec = importlib.util.spec_from_file_location(
        "pstswm_checks", ROOT / "packaging" / "reframe" / "pstswm_checks.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["pstswm_checks"] = (
        module  # ReFrame finds a test's source through its module
    )
    spec.loader.exec_module(module)
    return module


def test_the_library_names_the_figures_as_pstlab_does():
    library = _library()
    assert library.FIGURES == reframe_refs.FIGURES
    for source in SOURCES.values():
        recs = _records(source)
        ours = {f[0]: f[1] for r in recs if (f := reframe_refs.figure(r)) is not None}
        assert ours and library.figures(recs) == pytest.approx(ours)


def test_the_library_runs_the_experiments_pstlab_reads():
    library = _library()
    assert [library._experiment(e)["subcommand"] for e in SOURCES] == list(SOURCES)
    assert library.reference_key("swap", 2, 1) == reframe_refs.reference_key(
        "swap", 2, 1
    )
