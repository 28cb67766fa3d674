"""End to end with the real pstswm of PSTSWM_BUILD (skipped when it is not built)."""

import re
import subprocess
import sys

import pytest

from conftest import real_pstswm
from pstlab.benches import kernel as kernel_facts
from pstlab.io import records
from pstlab.report import report
from pstlab.run import tune
from pstlab.run.run import Options, run_suite

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

REAL = real_pstswm()
pytestmark = [
    pytest.mark.mpi,
    pytest.mark.skipif(REAL is None, reason="no pstswm: set PSTSWM_BUILD=build/<mpi> and PSTSWM_MPI=<mpi>"),
]


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
    assert "Worley 1998 Table 3" in md.read_text()


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


def test_tune_runs_the_real_kernel_and_its_records_report(tmp_path):
    binary, mpi = REAL
    opts = tune.Options(
        trunc=10,
        levels=2,
        grid="2x1",
        protocols="0,6,3,1",
        mpi=mpi,
        pstswm=str(binary),
        out=str(tmp_path / "opt.toml"),
        extra=["--reps", "10"],
    )
    out, choice = tune.tune(opts)
    preset = tomllib.loads(out.read_text())
    kept = tmp_path / "opt.kernel.jsonl"
    points = records.load(kept).points("kernel")
    # --grid 2x1: the Legendre stage's communicators have one rank, so pstswm runs the FFT stage only.
    assert list(preset) == list(choice) == ["fft"] and {p["stage"] for p in points} == {"fft"}
    assert {p["protocol"] for p in points} == {"0,6", "3,1", "coll"} and all(p["verified"] for p in points)
    # each algorithm's pick lies in its tie set; the stage's algorithm has the least median
    cases = {c.key[1]: c for c in kernel_facts.verdict_cases(records.load(kept))}
    for algorithm, pick in preset["fft"].items():
        if isinstance(pick, dict):
            label = pick["protocol"] + ("+ov" if pick["overlap"] and pick["protocol"][0] in "01" else "")
            assert label in cases[algorithm].verdict.best_set
    assert preset["fft"]["algorithm"] == min(choice["fft"].picks, key=lambda p: p.t_s).algorithm
    assert "# Protocol choice: inside a tie set" in out.read_text()
    md, _ = report.write(kept)
    text = md.read_text()
    assert text.index("## Answers for this machine") < text.index("## Runs and machine")
    assert "Protocol sensitivity per algorithm (Worley & Foster 1994), with confidence" in text
    assert "MPI collective relative to the best (Worley & Foster 1994, Table 4)" in text


def test_pstlab_verdicts_are_pstswms(tmp_path):
    """pstlab recomputes verdicts from the rounds in the records; for one launch they are pstswm's own."""
    binary, mpi = REAL
    opts = tune.Options(
        trunc=10,
        levels=2,
        grid="1x2",
        protocols="0,6,1,3,3,1",
        mpi=mpi,
        pstswm=str(binary),
        out=str(tmp_path / "opt.toml"),
        extra=["--reps", "12", "--stages", "legendre"],
    )
    tune.tune(opts)
    rs = records.load(tmp_path / "opt.kernel.jsonl")
    mine = {c.key[:2]: c for c in kernel_facts.verdict_cases(rs)}
    theirs = rs.summaries("kernel", "sensitivity")
    assert theirs and len(mine) == len(theirs)
    for s in theirs:
        c = mine[(s["stage"], s["algorithm"])]
        assert c.verdict.best == s["best"] and c.verdict.best_set == s["best_set"]
        assert c.verdict.level == s["level"] and list(c.verdict.level_ci) == s["level_ci"]
        assert c.verdict.median_rel_ci == pytest.approx(s["median_rel_ci"], rel=1e-3)
        assert c.verdict.rounds == s["rounds"]
    library = {(s["stage"], s["algorithm"]): q for s, q in kernel_facts.library_ratios(rs)}
    generic = rs.summaries("kernel", "generic")
    assert library and {(g["stage"], g["algorithm"]) for g in generic} == set(mine) | set(library)
    for g in generic:
        key = (g["stage"], g["algorithm"])
        q = library[key] if key in library else mine[key].ratio("coll")
        assert q is not None and q.ratio == pytest.approx(g["coll_ratio"], rel=1e-3)
        # The collective's rounds travel with 5 significant digits: an interval ending within that
        # of the equivalence band may fall either side of it.
        band = (1 / 1.02, 1.02)
        at_edge = any(abs(x - b) <= 2e-4 * b for x in (q.lo, q.hi) for b in band)
        assert q.significant == g["coll_significant"] or at_edge


def test_pstlab_reads_the_schema_version_the_binary_writes():
    binary, _ = REAL
    out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60, check=False).stdout
    assert int(re.search(r"record schema (\d+)", out).group(1)) == records.SCHEMA_VERSION, out
