"""End to end with the real pstswm of PSTSWM_BUILD (skipped when it is not built)."""

import pytest

from conftest import real_pstswm
from pstlab import records, report
from pstlab.run import Options, run_suite

REAL = real_pstswm()
pytestmark = pytest.mark.skipif(REAL is None, reason="no pstswm: set PSTSWM_BUILD=build/<mpi> and PSTSWM_MPI=<mpi>")


def test_small_suite_runs_and_reports(tmp_path):
    binary, mpi = REAL
    suite = tmp_path / "tiny.toml"
    suite.write_text(
        'description = "tiny"\n'
        '[[experiment]]\nname = "swap"\nsubcommand = "swap"\nranks = 2\n'
        'args = ["--protocols", "1,0,0,6", "--sizes", "8,8K,128K", "--reps", "3"]\n'
        '[[experiment]]\nname = "later"\nsubcommand = "no-such-subcommand"\nranks = 2\n'
    )
    out = tmp_path / "res"
    run_suite(Options(str(suite), mpi, "mpiexec", pstswm=str(binary), out=str(out)), echo=lambda _: None)
    rs = records.load(out)
    assert rs.manifest["experiments"][1]["status"] == "skipped"
    points = rs.points("swap")
    assert {p["protocol"] for p in points} == {"1,0", "0,6"} and all(p["verified"] for p in points)
    assert rs.headers()[0]["mpi_build"] == mpi
    md, _ = report.write(out)
    assert "seed 000 Table 3" in md.read_text()


def test_bad_arguments_are_reported_as_such(tmp_path):
    binary, mpi = REAL
    suite = tmp_path / "bad.toml"
    suite.write_text('[[experiment]]\nname = "s"\nsubcommand = "swap"\nranks = 2\nargs = ["--protocols", "9,9"]\n')
    out = tmp_path / "res"
    with pytest.raises(Exception, match="failed: s"):
        run_suite(Options(str(suite), mpi, "mpiexec", pstswm=str(binary), out=str(out)), echo=lambda _: None)
    entry = records.load.__globals__["json"].loads((out / "manifest.json").read_text())["experiments"][0]
    assert entry["reason"].startswith("pstswm rejected its arguments: ")
    assert "--protocols" in entry["reason"]
    assert not list(out.glob("*.jsonl"))
