"""The current fixture set (tests/python/fixtures/current/<mpi>/): today's record schema, rounds and
verdicts, parallel model runs.  The schema-1 set beside it keeps older result directories tested."""

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from pstlab.io import algorithms, records
from pstlab.report import report
from pstlab.run import tune

CURRENT = FIXTURES / "current"
MPIS = ["openmpi", "mpich"]


@pytest.mark.parametrize("mpi", MPIS)
def test_fixtures_are_of_the_current_schema(mpi):
    """Raising the schema version means regenerating them: tests/python/fixtures/regenerate.sh."""
    headers = records.load(CURRENT / mpi).headers()
    assert headers and all(records.schema_version(h) == records.SCHEMA_VERSION for h in headers)


@pytest.mark.parametrize("mpi", MPIS)
def test_every_fixture_file_passes_the_records_checks(mpi):
    """The checks every records test of CTest applies (header first, one run id, no key twice,
    consistent statistics, intervals holding their medians, best sets holding their best)."""
    for f in sorted((CURRENT / mpi).glob("*.jsonl")):
        out = subprocess.run(
            [sys.executable, str(ROOT / "tests" / "check-records.py"), str(f)],
            capture_output=True,
            text=True,
            timeout=60, check=False,
        )
        assert out.returncode == 0, f"{f.name}: {out.stdout}"


@pytest.mark.parametrize("mpi", MPIS)
def test_report_of_current_records_has_every_verdict_table(mpi, tmp_path):
    md, _ = report.write(CURRENT / mpi, tmp_path / "rep")
    text = md.read_text()
    for table in (
        "Recommended parallel algorithm and protocol per transform stage",
        "Fastest protocols per message size, with confidence",
        "Protocol sensitivity per algorithm (Worley & Foster 1994), with confidence",
        "Cost of the generic protocol 0,6 and of the MPI collective relative to the best",
        "Time per step (ms) by processor grid PX×PY (Worley 1998 Table 5, runtimes)",
        "Degradation against the optimal configuration (Worley 1998 Table 5, sensitivity)",
        "Fitted cost per failed match M (Song 2013 Table 8)",
        "Which algorithm to use (each algorithm's fastest alternative, in one set of rounds)",
        "MPI library alternatives against the stage's collective",
    ):
        assert table in text, table


@pytest.mark.parametrize("mpi", MPIS)
def test_tune_picks_inside_each_tie_set_from_the_headers_registry(mpi):
    rs = records.load(CURRENT / mpi)
    reg = algorithms.of(rs)
    assert reg is not algorithms.BUILTIN and "srtrans" in reg.names
    choice = tune.choose(rs.points("kernel"), reg)
    assert list(choice) == ["fft", "legendre"]
    for stage, c in choice.items():
        measured = {p["algorithm"] for p in rs.points("kernel") if p["stage"] == stage}
        assert {p.algorithm for p in c.picks} | {p.algorithm for p in c.collectives} == measured
        assert all(reg.is_collective(p.algorithm) for p in c.collectives)
        for pick in c.picks:
            label = f"{pick.protocol}+ov" if pick.overlap and pick.protocol[0] in "01" else pick.protocol
            assert label in pick.tie_set.split(" ≈ "), (stage, pick)
        assert c.fastest in c.picks


def test_the_model_runs_are_parallel_and_name_their_collectives():
    points = records.load(CURRENT / "openmpi").points("model")
    coll = [p for p in points if p.get("preset") == "coll"]
    assert {p["grid"] for p in points} >= {"1x1", "1x2"}
    assert coll and all(p["legendre"] == "allreduce" and p["legendre_protocol"] == "coll" for p in coll)


def test_current_set_lives_apart_from_the_schema_1_set():
    assert all(records.schema_version(h) == 1 for h in records.load(FIXTURES / "openmpi").headers())
    assert Path(CURRENT / "openmpi").is_dir() and not list(FIXTURES.glob("openmpi/current"))
