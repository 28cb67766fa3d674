"""Readable tie sets and the presentation defects of issue 31: each test fails on the output before it."""

import dataclasses
import re

import matplotlib.pyplot as plt

from pstlab.benches.coll import ops
from pstlab.core import tiesets
from pstlab.io import records
from pstlab.io.records import RecordSet
from pstlab.report import doc, plots
from pstlab.report.sections import coll, common, model
from pstlab.stats import stats

UNORDERED = {f"{i},{j}": False for i in (0, 2, 4) for j in range(1, 6)} | {"0,0": False, "0,6": False}
ORDERED = {f"{i},{j}": True for i in (1, 3) for j in range(1, 6)}
CATALOGUE = UNORDERED | ORDERED


def test_a_tie_set_is_named_by_what_its_members_share():
    universe = list(CATALOGUE)
    unordered = list(UNORDERED)
    assert tiesets.name(unordered, universe, CATALOGUE) == f"all {len(unordered)} unordered protocols"
    families = [a for a in universe if a[0] in "02"]
    assert tiesets.name(families, universe, CATALOGUE) == f"every 0,x and 2,x ({len(families)})"
    assert tiesets.name(universe[:-1], universe) == f"any but {universe[-1]} ({len(universe) - 1} of {len(universe)})"
    assert tiesets.name(universe, universe) == f"all {len(universe)}"
    some = ["0,6", "0,1", "2,3", "4,1", "0,2"]
    assert tiesets.name(some, universe, CATALOGUE) == f"5 of the {len(unordered)} unordered: 0,6, 0,1, 2,3 and 2 more"
    mixed = ["0,6", "1,1", "2,3", "3,1", "4,2"]
    assert tiesets.name(mixed, universe, CATALOGUE) == "0,6, 1,1, 2,3 and 2 more"  # nothing shared: count, first 3
    assert tiesets.name(["0,6", "1,3"], universe) == "0,6 ≈ 1,3"  # few: every member, in order
    assert tiesets.full(mixed) == "0,6, 1,1, 2,3, 3,1, 4,2"


def test_never_more_than_four_members_inline():
    for n in range(1, 30):
        members = [f"{i // 10},{i % 10}" for i in range(n)]
        name = tiesets.name(members, [*members, "9,9", "9,8", "9,7"])
        assert len(stats_codes(name)) <= tiesets.MAX_INLINE, name


def stats_codes(text: str) -> list[str]:
    return re.findall(r"(?<![\d,])\d,\d(?![\d,])", text)


def test_the_protocol_catalogue_comes_from_the_slugs():
    recs = [{"protocol": "0,6", "slug": "unordered.sendrecv"}, {"protocol": "3,1", "slug": "ordered.isend.overlap"}]
    assert tiesets.catalogue([*recs, {"protocol": "coll"}]) == {"0,6": False, "3,1": True}


def test_an_undetermined_sensitivity_says_what_it_spans():
    """'undetermined' said nothing: the class interval's ends are named ('moderate to high')."""
    v = stats.Verdict("a", ["a"], {"a": 1.0}, 0.1, (0.06, 0.2), "undetermined", ("moderate", "high"), 10, 0.02, 0.95)
    assert common.level_text(v) == "moderate to high"
    assert common.level_text(dataclasses.replace(v, level="low", level_ci=("low", "low"))) == "low"


def test_folded_sections_and_contents_render_in_markdown_and_html():
    table = doc.Table("T", ["a"], [["1"]])
    sec = doc.Section("Kernel (Worley 1999)", [doc.Details("every member", [table, doc.Text("x\\\ny")])])
    md = doc.to_markdown("R", "i", [sec], "plots", contents=True)
    assert "Contents: [Kernel](#kernel-worley-1999)" in md
    assert "<details><summary>every member</summary>" in md and md.index("| 1 |") < md.index("</details>")
    page = doc.to_html("R", "i", [sec], contents=True)
    assert '<h2 id="kernel-worley-1999">' in page and "<details>" in page and "x<br>" in page
    assert doc.flat(sec.blocks) == [table, sec.blocks[0].blocks[1]]


def test_points_of_an_oversubscribed_or_noisy_run_are_marked_in_plots():
    series = plots.Series("allreduce", [8, 1024, 65536], [1.0, 2.0, 3.0], marked=[False, True, True])
    fig, ax = plt.subplots()
    plots._draw(ax, plots.Panel("p", "x", "y", series=[series, plots.Series("b", [8], [1.0], marked=[True])]))
    labels = ax.get_legend_handles_labels()[1]
    plt.close(fig)
    assert labels.count(plots.MARKED) == 1  # one legend entry, however many marked series


def _coll_point(**fields) -> dict:
    base = {"bench": "coll", "type": "point", "run_id": "c", "op": "alltoallv", "bytes": 65536, "t_med": 7e-6}
    return base | fields


def test_oversubscribed_marks_the_cells_of_larger_communicators_only():
    """A 4-rank run on 2 CPUs measured its 2-rank communicator on a CPU each: only the 3- and 4-rank
    cells (and the bandwidth at 4) carry the mark."""
    header = {"bench": "coll", "type": "header", "run_id": "c", "ranks": 4, "cpus_online": 2, "oversubscribed": True}
    pts = [_coll_point(comm_size=n, op="allreduce", _file="c.jsonl", t_med=n * 1e-6, algbw=1.0) for n in (2, 3, 4)]
    rs = RecordSet(path=__import__("pathlib").Path("mem"), records=[dict(header, _file="c.jsonl"), *pts])
    (row,) = coll.time_table(pts, coll.concerned(rs)).rows
    assert row[2:5] == ["2.00", "3.00 ⚠", "4.00 ⚠"] and row[5].endswith("⚠")


def test_a_panel_of_one_communicator_size_is_left_to_the_table():
    """The allocator-state runs measured one communicator size: no plot of two crosses at x = 2."""
    pts = [_coll_point(comm_size=2, alloc_state=s, _file=f"{s}.jsonl") for s in ("warm", "fresh")]
    rs = RecordSet(path=__import__("pathlib").Path("mem"), records=pts)
    assert coll._panels([("", rs)]) == []
    swept = [_coll_point(comm_size=n, op="bcast", _file="s.jsonl") for n in (2, 4)]
    assert [p.title for p in coll._panels([("", RecordSet(rs.path, pts + swept))])] == ["bcast"]


def test_warm_and_fresh_heap_rows_are_labelled_and_one_rank_is_singular():
    pts = [
        _coll_point(comm_size=2, alloc_state="warm", _file="w.jsonl"),
        _coll_point(comm_size=2, alloc_state="fresh", t_med=8e-6, _file="f.jsonl"),
    ]
    labels = [label for label, _ in ops(pts)]
    assert labels == ["alltoallv fresh heap", "alltoallv warm heap"]
    table = coll.time_table(pts, lambda p: p["_file"] == "f.jsonl")
    assert [r[0] for r in table.rows] == labels and table.rows[0][2] == "8.00 ⚠" and table.rows[1][2] == "7.00"
    rs = RecordSet(path=__import__("pathlib").Path("mem"), records=[_coll_point(comm_size=1, op="barrier")])
    assert coll.headline(rs) == ["coll barrier on 1 rank: 64K B 7.00 µs"]


def test_where_the_time_goes_names_stages_without_overlap_or_setup_probes():
    run = {
        "bench": "model",
        "type": "point",
        "run_id": "m",
        "case": 2,
        "trunc": 42,
        "levels": 4,
        "grid": "2x2",
        "preset": "DR",
        "step_s": 2e-3,
        "fft_s": 1.72e-3,
        "fft_comm_s": 1.5e-3,
        "legendre_s": 4e-4,
        "legendre_comm_s": 3e-4,
        "blas_blis_s": 2e-4,
        "comm_s": 1.8e-3,
    }
    table = model.stage_table([run])
    assert table.columns == [
        "problem",
        "grid",
        "algorithms",
        "step",
        "FFT compute",
        "FFT comm",
        "Legendre compute",
        "Legendre comm",
    ]
    (row,) = table.rows
    assert row[4:] == ["0.220", "1.50", "0.100", "0.300"]  # fft_s includes fft_comm_s: compute is the rest


def test_the_generic_protocol_column_says_which_time_is_over_which(tmp_path):
    """'0,6 instead: 0.99×' read as if 0,6 were faster: the header says time over the best's time."""
    from conftest import FIXTURES
    from pstlab.report import report

    md, _ = report.write(FIXTURES / "current" / "openmpi", tmp_path / "r")
    text = md.read_text()
    assert "0,6 instead" not in text and "| 0,6 time / best's [CI] |" in text
    assert records.load(FIXTURES / "current" / "openmpi").has("kernel")
