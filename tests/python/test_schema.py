"""The record schema as pstlab reads it (python/pstlab/io/schema.json, kept equal to `pstswm schema
--json` by the tree.schema test): every stored fixture matches it, its checks catch what they
should, and every record field pstlab reads is one the schema defines."""

import json
import re
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from pstlab.io import records, schema

SCHEMA = schema.load()
FIXTURE_FILES = sorted(FIXTURES.glob("*/*.jsonl")) + sorted(FIXTURES.glob("current/*/*.jsonl"))


def test_pstlab_reads_the_schema_version_of_its_copy():
    assert records.SCHEMA_VERSION == SCHEMA.version == json.loads(schema.SCHEMA_FILE.read_text())["schema_version"]


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_matches_the_schema(path):
    """The current set strictly (every required field present); the schema-1 set with the fields
    renamed or retired since, and without the fields added since."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    version = records.schema_version(lines[0])
    problems = [f"line {i + 1}: {p}" for i, r in enumerate(lines) for p in SCHEMA.problems(r, version)]
    assert not problems, "\n".join(problems[:20])
    if path.parent.parent.name == "current":
        assert version == SCHEMA.version


def _swap_point() -> dict:
    current = FIXTURES / "current" / "openmpi" / "swap-protocols.jsonl"
    return next(r for r in map(json.loads, current.read_text().splitlines()) if r["type"] == "point")


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda r: r.update(bogus=1), "field 'bogus' is not in the schema"),
        (lambda r: r.update(t_min="fast"), "field 't_min' must be a number"),
        (lambda r: r.update(round_s=[1, "x"]), "field 'round_s' must be of type number[]"),
        (lambda r: r.update(verified=1), "field 'verified' must be of type bool"),
        (lambda r: r.pop("bytes"), "required field 'bytes' missing"),
        (lambda r: r.update(summary="nonesuch"), "unknown record kind swap/point/nonesuch"),
    ],
)
def test_problems_are_found(change, problem):
    rec = _swap_point()
    assert SCHEMA.problems(rec, SCHEMA.version) == []
    change(rec)
    assert any(p.startswith(problem) for p in SCHEMA.problems(rec, SCHEMA.version))


def test_members_of_nested_objects_are_checked():
    header = json.loads((FIXTURES / "current" / "openmpi" / "swap-protocols.jsonl").read_text().splitlines()[0])
    assert SCHEMA.problems(header, SCHEMA.version) == []
    header["binding"][0]["cpu"] = "0"
    assert any("'binding'" in p for p in SCHEMA.problems(header, SCHEMA.version))


def test_older_versions_read_renamed_and_retired_fields_and_miss_added_ones():
    fit = {"bench": "match", "type": "summary", "summary": "fit", "run_id": "r", "seed_m_ns": 1.5}
    assert SCHEMA.field(fit, "seed_m_ns").name == "song_m_ns"
    assert SCHEMA.problems(fit, 1) == []
    assert "field 'seed_m_ns' is not in the schema" in SCHEMA.problems(fit, SCHEMA.version)
    model = {"bench": "model", "type": "point", "run_id": "r", "protocol": "local"}
    assert SCHEMA.problems(model, 1) == []


def test_records_check_types_from_the_schema(tmp_path):
    rec = _swap_point()
    rec["nmsg"] = "one"
    f = tmp_path / "x.jsonl"
    f.write_text(json.dumps(rec) + "\n")
    with pytest.raises(records.PstlabError, match="field 'nmsg' must be a number"):
        records.load(f)


# Keys pstlab reads that are not record fields.
NOT_RECORD_FIELDS = {
    # manifest.json and run state (pstlab run)
    "args", "created", "digest", "experiment", "experiments", "file", "finished", "launch", "launches", "reason",
    "returncode", "status", "subcommand", "tuned", "updated", "description", "estimate_s", "timeout_s", "until_s",
    "predicted",  # the manifest's entry of a `pstlab predict` run: the platform, its hash and band
    # the record file a record came from, and the schema document itself
    "_file", "RecordSet", "doc", "groups", "members", "optional", "records", "unit",
    # rows and tables pstlab derives (reports, repro, compare, plots)
    "benches", "best_sets", "c", "code", "color", "compute_s", "config", "efficiency", "fresh", "inconsistent", "iot",
    "key", "median_set_share", "mpi", "operation", "p90_set_share", "problem", "rot", "runs", "share",
    "skipped_oversubscribed", "targets_met", "untested", "verdicts", "warm", "set",
    # pstlab checksums: its groups of records and sets of equal digests
    "choices", "classes", "differs_in", "distinct", "kind", "match", "record", "source", "timed_choices",
    "without_checksums",
    "references",  # pstlab reframe's table of the ReFrame library's references
    "round", "what",  # bench/node-ceiling.sh's samples (benches.ceiling): a round and its kernel
    "comm_share", "seconds",  # validate_t3e's cells: a predicted step's communication share, 5 days in s
    # pstlab calibrate: the platform's [validation] keys, and the subcommands it simulates
    "pingpong_max_error", "swap_max_error", "node_swap_max_error", "stage_max_error", "kernel", "pingpong", "swap",
}


def test_every_record_field_pstlab_reads_is_in_the_schema():
    """A field renamed in pstswm's schema without pstlab following it fails here, not in a report."""
    read = set()
    pattern = re.compile(r"""(?:\[|\.get\()\s*"([A-Za-z_][A-Za-z0-9_]*)"\s*[\],]""")
    for path in sorted((ROOT / "python" / "pstlab").rglob("*.py")):
        read |= set(pattern.findall(path.read_text()))
    older = {old for _, old in schema.RENAMED} | {name for _, name in schema.RETIRED}
    unknown = sorted(read - SCHEMA.names() - NOT_RECORD_FIELDS - older)
    assert not unknown, f"pstlab reads fields the schema does not define: {unknown}"


def test_schema_file_is_packaged():
    pyproject = (ROOT / "python" / "pyproject.toml").read_text()
    assert '"io/schema.json"' in pyproject
    assert Path(schema.SCHEMA_FILE).is_file()


def test_benches_are_the_subcommands_that_write_records():
    """pstlab's BENCHES and the binary's registry (through `pstswm schema --json`, which
    pstlab's copy equals: tree.schema) name the same subcommands."""
    from pstlab.benches.registry import BENCHES

    written = {r["bench"] for r in json.loads(schema.SCHEMA_FILE.read_text())["records"]}
    assert {b.BENCH for b in BENCHES} == written
