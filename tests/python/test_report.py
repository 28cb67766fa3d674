"""`pstlab report` on the committed fixtures: every section, the papers' tables, a self-contained page."""

import base64
import re
import shutil

import pytest

from conftest import FIXTURES
from pstlab.io import records
from pstlab.report import report, summary


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    md, html = report.write(FIXTURES / "openmpi", out)
    return md.read_text(), html.read_text(), out


def test_every_bench_has_its_section_and_seed_tables(rendered):
    md, _, _ = rendered
    for heading in (
        "## Runs and machine",
        "## Point-to-point SWAP",
        "## Ping-pong",
        "## Collective operations",
        "## Message matching cost",
        "## Parallel algorithm kernels",
        "## Shallow water model runs",
    ):
        assert heading in md
    for table in (
        "Worley 1998 Table 3",
        "Worley 2000",
        "Protocol sensitivity summary",
        "Frese & Knipp 1998 §5.1",
        "by communicator size",
        "Song 2013 Table 8",
        "Song 2013 Tables 1–6",
        "Protocol sensitivity per algorithm (Worley 1999)",
        "MPI collective instead of the best protocol (Worley 1998 Table 4)",
        "Worley 1998 Table 1",
        "Worley 1998 Table 5, runtimes",
        "Accuracy and conservation",
        "Experiments of suite 'fixtures'",
    ):
        assert table in md, table
    # Table 5's degradation needs parallel model runs: the fixture's serial run has none to degrade.
    parallel = [r for r in records.load(FIXTURES / "openmpi").points("model") if r["grid"] != "1x1"]
    assert ("Worley 1998 Table 5, sensitivity" in md) == bool(parallel)


# docs/kernel.md: the MPI collective each algorithm is equivalent to (none does dfft's work).
COLLECTIVE = {
    **dict.fromkeys(("srtrans", "swtrans", "logtrans"), "alltoallv"),
    **dict.fromkeys(("exchsum", "halfsum", "ringsum", "ringpipe"), "allreduce"),
    "dfft": None,
}


def _md_table(md: str, title: str) -> tuple[list[str], list[list[str]]]:
    """The columns and rows of the Markdown table under the bold title containing `title`."""
    lines = md.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("**") and title in line)
    body = []
    for line in lines[start + 1 :]:
        if line.startswith("|"):
            body.append([c.strip() for c in line.strip("|").split("|")])
        elif body:
            break
    return body[0], body[2:]


def test_kernel_tables_in_the_report_match_the_records(rendered):
    """Worley 1999 per algorithm and Worley 1998 Table 4, recomputed here from the raw points."""
    md, _, _ = rendered
    points = records.load(FIXTURES / "openmpi").points("kernel")
    columns, rows = _md_table(md, "Protocol sensitivity per algorithm (Worley 1999)")
    t4_columns, t4_rows = _md_table(md, "(Worley 1998 Table 4)")
    algorithms = {(p["stage"], p["algorithm"]) for p in points if p["protocol"] != "coll"}
    assert {(r[0], r[1]) for r in rows} == algorithms == {(r[0], r[1]) for r in t4_rows}
    for stage, algorithm in algorithms:
        mine = sorted(
            (p for p in points if (p["stage"], p["algorithm"]) == (stage, algorithm)), key=lambda p: p["t_min"]
        )
        lo = mine[0]["t_min"]
        rel = sorted((p["t_min"] - lo) / lo for p in mine)
        n = len(rel)
        median = rel[n // 2] if n % 2 else (rel[n // 2 - 1] + rel[n // 2]) / 2
        level = "low" if median <= 0.05 else "high" if median >= 0.15 else "moderate"
        best = mine[0]["protocol"] + ("+ov" if mine[0]["overlap"] and mine[0]["protocol"][0] in "01" else "")
        row = dict(zip(columns, next(r for r in rows if (r[0], r[1]) == (stage, algorithm)), strict=True))
        assert row["grid"] == mine[0]["grid"]
        assert row["alternatives"] == str(n)
        assert row["best"] == best
        assert float(row["(median−min)/min"]) == pytest.approx(median, abs=5e-4)
        assert float(row["(max−min)/min"]) == pytest.approx(rel[-1], abs=5e-4)
        assert row["sensitivity"] == level
        t4 = dict(zip(t4_columns, next(r for r in t4_rows if (r[0], r[1]) == (stage, algorithm)), strict=True))
        gen = next(p for p in mine if p["protocol"] == "0,6" and not p["overlap"])
        assert t4["best"] == best
        assert t4["0,6 loss"] == f"{(gen['t_min'] - lo) / lo * 100:+.0f}%"
        coll_name = COLLECTIVE[algorithm]
        assert t4["collective"] == (coll_name or "–")
        if coll_name:
            coll = next(p for p in points if (p["stage"], p["algorithm"]) == (stage, coll_name))
            assert t4["coll loss"] == f"{(coll['t_min'] - lo) / lo * 100:+.0f}%"


def test_markdown_plots_exist_and_html_embeds_them(rendered):
    md, html, out = rendered
    names = re.findall(r"\]\(plots/([\w-]+)\.png\)", md)
    assert {
        "swap-bandwidth",
        "swap-latency",
        "swap-volume",
        "pingpong",
        "coll",
        "match",
        "match-m",
        "model-runtime",
    } <= set(names)
    for name in names:
        assert (out / "plots" / f"{name}.png").read_bytes()[:4] == b"\x89PNG"
    embedded = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(embedded) == len(names)
    assert all(base64.b64decode(e)[:4] == b"\x89PNG" for e in embedded)
    assert not re.search(r'(src|href)="(?!data:|#)', html)  # nothing outside the page (contents links inside it)


def test_table3_numbers_match_the_records(rendered):
    md, _, _ = rendered
    rs = records.load(FIXTURES / "openmpi")
    at_128k = [
        p
        for p in rs.points("swap")
        if p["bytes"] == 128 << 10 and p.get("nmsg") == 1 and p["protocol"].split(",")[0] in ("0", "2")
    ]
    fastest = min(at_128k, key=lambda p: p["t_min"])
    row = next(line for line in md.splitlines() if line.startswith("| mpi | unordered |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[7] == "no rounds"  # these records carry no rounds: no verdict, and no lone winner by t_min
    assert float(cells[5].replace(",", "")) == pytest.approx((128 << 10) / fastest["t_min"] / 1e6, rel=1e-3)


def test_only_benches_with_records_are_reported(tmp_path):
    shutil.copy(FIXTURES / "openmpi" / "swap-protocols.jsonl", tmp_path)
    md, html = report.write(tmp_path)
    text = md.read_text()
    assert "## Point-to-point SWAP" in text
    assert "## Ping-pong" not in text and "## Shallow water" not in text
    assert "No records here for: pingpong, coll, match, kernel, model." in text
    assert html.parent == tmp_path


def test_report_of_a_single_file_goes_beside_it(tmp_path):
    f = tmp_path / "run.jsonl"
    shutil.copy(FIXTURES / "openmpi" / "kernel.jsonl", f)
    md, _ = report.write(f)
    assert md == tmp_path / "run-report" / "report.md"
    assert "## Parallel algorithm kernels" in md.read_text()


def test_unknown_bench_is_named_not_fatal(tmp_path):
    shutil.copy(FIXTURES / "openmpi" / "swap-protocols.jsonl", tmp_path)
    (tmp_path / "x.jsonl").write_text('{"bench": "rma-future", "type": "point", "run_id": "q"}\n')
    md, _ = report.write(tmp_path)
    assert "Records of rma-future are not reported" in md.read_text()


def test_terminal_summary(rendered, tmp_path):
    _, _, out = rendered
    text = summary.render(FIXTURES / "openmpi")
    rs = records.load(FIXTURES / "openmpi")
    n = len(rs.manifest["experiments"])
    assert all(e["status"] == "done" for e in rs.manifest["experiments"])  # every fixture is a real record
    assert f"suite fixtures with openmpi: {n} experiments ({n} done)" in text
    assert "swap: peak" in text and "pingpong send" in text and "match tag algorithm" in text
    run = rs.points("model")[0]
    assert f"model case {run['case']} T{run['trunc']}L{run['levels']}: fastest" in text
    size = rs.points("kernel")[0]["size"]
    for stage in ("fft", "legendre"):
        grid = next(p["grid"] for p in rs.points("kernel") if p["stage"] == stage)
        assert f"kernel {stage} {size} {grid}: sensitivity " in text  # no rounds here: classes, no winner
    shutil.copytree(FIXTURES / "openmpi", tmp_path / "r")
    shutil.copy(out / "report.html", tmp_path / "r")
    assert f"report: {(tmp_path / 'r' / 'report.html').resolve()}" in summary.render(tmp_path / "r")


def test_cli_report_and_bad_input(cli, tmp_path):
    kernel_only = tmp_path / "k"
    kernel_only.mkdir()
    shutil.copy(FIXTURES / "mpich" / "kernel.jsonl", kernel_only)
    rc, out, _ = cli("report", kernel_only, "--out", tmp_path / "rep")
    assert rc == 0 and out == f"pstlab: wrote {tmp_path / 'rep' / 'report.md'} and {tmp_path / 'rep' / 'report.html'}\n"
    rc, _, err = cli("report", tmp_path / "missing")
    assert rc == 2
    assert err.strip() == f"pstlab report: {tmp_path / 'missing'}: no such file or directory"
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "a.jsonl").write_text('{"bench": "swap", "type": "point", "run_id": "r", "bytes": 8}\nnot json\n')
    rc, _, err = cli("report", bad)
    assert rc == 2 and f"{bad / 'a.jsonl'}:2: malformed record" in err
    rc, _, err = cli("summary", tmp_path / "missing")
    assert rc == 2 and "no such file or directory" in err
