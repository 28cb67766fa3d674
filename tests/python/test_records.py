"""Reading records: valid lines, tolerance of extra fields and kinds, clear errors naming file:line."""

import json

import pytest

from pstlab.core.errors import PstlabError
from pstlab.io import records

POINT = {
    "bench": "swap",
    "type": "point",
    "run_id": "r1",
    "ranks": 2,
    "transport": "mpi",
    "bytes": 8,
    "t_min": 1e-6,
    "t_med": 2e-6,
    "t_mean": 2e-6,
    "t_max": 3e-6,
    "reps": 3,
}


def write(path, lines):
    path.write_text("".join(line + "\n" for line in lines))
    return path


def test_loads_records_and_keeps_unknown_fields_and_kinds(tmp_path):
    f = write(
        tmp_path / "a.jsonl",
        [json.dumps({**POINT, "future_field": [1, 2]}), "", json.dumps({**POINT, "type": "diag", "step": 3})],
    )
    recs = records.load_file(f)
    assert [r["type"] for r in recs] == ["point", "diag"]
    assert recs[0]["future_field"] == [1, 2]
    assert recs[0]["_file"] == "a.jsonl"


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"bench": "swap", "type": ', "not JSON"),
        ("[1, 2]", "expected a JSON object"),
        (json.dumps({**POINT, "bench": ""}), "'bench'"),
        (json.dumps({k: v for k, v in POINT.items() if k != "run_id"}), "'run_id'"),
        (json.dumps({**POINT, "t_min": "fast"}), "'t_min' must be a number"),
        (json.dumps({**POINT, "reps": True}), "'reps' must be a number"),
    ],
)
def test_malformed_line_names_file_and_line(tmp_path, line, reason):
    f = write(tmp_path / "bad.jsonl", [json.dumps(POINT), line])
    with pytest.raises(PstlabError, match=reason) as e:
        records.load_file(f)
    assert f"{f}:2: malformed record" in str(e.value)


def test_null_statistics_are_accepted_and_read_as_missing(tmp_path):
    f = write(tmp_path / "n.jsonl", [json.dumps({**POINT, "t_min": None, "alpha_s": float("nan")})])
    rec = records.load_file(f)[0]
    assert records.number(rec, "t_min") is None
    assert records.number(rec, "alpha_s") is None
    assert records.number(rec, "t_max") == 3e-6


def test_missing_and_empty_directories(tmp_path):
    with pytest.raises(PstlabError, match="no such file or directory"):
        records.load(tmp_path / "nowhere")
    with pytest.raises(PstlabError, match=r"no record files \(\*\.jsonl\)"):
        records.load(tmp_path)


def test_binary_file_is_refused(tmp_path):
    f = tmp_path / "x.jsonl"
    f.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(PstlabError, match="not a text file"):
        records.load_file(f)


def test_directory_reads_only_top_level_jsonl(tmp_path):
    write(tmp_path / "a.jsonl", [json.dumps(POINT)])
    (tmp_path / ".partial").mkdir()
    write(tmp_path / ".partial" / "b.jsonl", ["garbage"])
    write(tmp_path / "notes.txt", ["garbage"])
    rs = records.load(tmp_path)
    assert len(rs.records) == 1
    assert rs.manifest is None


def test_fixture_sets_have_every_bench(ompi_dir, mpich_dir):
    for d in (ompi_dir, mpich_dir):
        rs = records.load(d)
        for bench in ("swap", "pingpong", "coll", "match", "kernel", "model"):
            assert rs.has(bench), (d, bench)
        assert rs.manifest["mpi"] == d.name
        assert rs.label() == d.name


def test_select(ompi_dir):
    rs = records.load(ompi_dir)
    summaries = rs.summaries("swap", "sensitivity")
    assert summaries and all(s["summary"] == "sensitivity" for s in summaries)
    assert {p["cache"] for p in rs.select("swap", "point", pair="0,1")} == {"1", "cold"}
    assert not rs.has("nosuchbench")


def _header_file(tmp_path, **extra):
    f = tmp_path / "run.jsonl"
    header = {"bench": "swap", "type": "header", "run_id": "r", "version": "9.9", **extra}
    point = {"bench": "swap", "type": "point", "run_id": "r", "bytes": 8, "t_min": 1e-6}
    f.write_text(json.dumps(header) + "\n" + json.dumps(point) + "\n")
    return f


def test_older_schemas_are_read_and_a_newer_one_is_refused(tmp_path):
    assert records.load(_header_file(tmp_path)).points("swap")  # no schema_version: version 1
    assert records.schema_version({}) == 1 and records.schema_version({"schema_version": True}) == 1
    # The current schema is checked in full: this header lacks what every run header carries.
    with pytest.raises(PstlabError, match=r"run.jsonl:1: malformed record \(required field 'ranks' missing"):
        records.load(_header_file(tmp_path, schema_version=records.SCHEMA_VERSION))
    newer = records.SCHEMA_VERSION + 1
    with pytest.raises(
        PstlabError,
        match=rf"run.jsonl:1: written by pstswm 9.9 with record schema {newer}; "
        rf"this pstlab reads schemas up to {records.SCHEMA_VERSION}",
    ):
        records.load(_header_file(tmp_path, schema_version=newer))
