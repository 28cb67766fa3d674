"""pstlab predict: predicted (simulated) records never enter a verdict, the prediction section's
answer respects the platform's band, and the launch passes the platform and compute rate to pstrun."""

import copy
import gzip
import os
import subprocess
import sys

import pytest

from conftest import FIXTURES, ROOT
from pstlab import box, launch, platform, predict, records, verdicts
from pstlab.records import RecordSet
from pstlab.sections import kernel, prediction, swap

T3E = ROOT / "platforms" / "t3e-900.toml"


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    results = tmp_path_factory.mktemp("quick")
    for gz in (FIXTURES / "quick").glob("*.gz"):
        (results / gz.name.removesuffix(".gz")).write_bytes(
            gzip.decompress(gz.read_bytes())
        )
    return records.load(results)


def _simulate(rs: RecordSet, files: set[str] | None = None) -> RecordSet:
    """rs with the run headers of `files` (all when None) flagged as simulated."""
    out = copy.deepcopy(rs)
    for h in out.headers():
        if files is None or h.get("_file") in files:
            h["simulated"] = True
    return out


def test_a_predicted_record_never_enters_a_verdict(quick):
    assert box.build(quick).bullets, "the measured quick records give verdicts"
    predicted = _simulate(quick)
    assert box.build(predicted).bullets == []
    assert kernel.verdict_cases(predicted) == [] and swap.verdict_cases(predicted) == []


def test_predicted_launches_do_not_count_beside_measured_ones(quick):
    measured_cases = kernel.verdict_cases(quick)
    assert max(c.launches for c in measured_cases) == 3
    mixed = _simulate(quick, {"kernel-L2.jsonl", "kernel-L3.jsonl"})
    assert max(c.launches for c in kernel.verdict_cases(mixed)) == 1
    assert len(verdicts.measured(mixed).records) < len(mixed.records)


def test_the_answer_names_the_fastest_set_and_the_ties_within_the_band():
    curves = {
        "gen": {2: 1.0, 16: 0.49},
        "coll": {2: 1.2, 16: 0.45},
        "DR": {2: 1.05, 16: 0.9},
    }
    assert prediction.answer(curves, 0.10) == [
        "2 ranks: **gen** (within the band: DR)",
        "16 ranks: **coll** (within the band: gen)",
    ]
    assert prediction.answer(curves, None) == ["2 ranks: **gen**", "16 ranks: **coll**"]


def test_the_section_shows_predicted_beside_measured(tmp_path):
    def point(run_id, grid, preset, step_s):
        return {
            "bench": "model",
            "type": "point",
            "run_id": run_id,
            "case": 2,
            "trunc": 42,
            "levels": 16,
            "grid": grid,
            "preset": preset,
            "step_s": step_s,
            "comm_s": step_s / 2,
        }

    recs = [
        {"bench": "model", "type": "header", "run_id": "sim1", "simulated": True},
        {"bench": "model", "type": "header", "run_id": "sim2", "simulated": True},
        {"bench": "model", "type": "header", "run_id": "real", "simulated": False},
        point("sim1", "1x2", "gen", 0.010),
        point("sim2", "2x2", "gen", 0.006),
        point("real", "1x2", "gen", 0.008),
    ]
    manifest = {
        "experiments": [],
        "predicted": {"band": 0.1, "platform": "p.toml", "platform_sha256": "ab" * 32},
    }
    sec = prediction.section(RecordSet(tmp_path, recs, manifest))
    table = next(b for b in sec.blocks if hasattr(b, "rows"))
    assert [r[:3] for r in table.rows] == [
        ["gen", "1x2", "10.0"],
        ["gen", "2x2", "6.00"],
    ]
    assert table.rows[0][5:] == ["8.00", "+25%"] and table.rows[1][5:] == ["–", "–"]
    assert "±10%" in sec.blocks[0].markdown
    assert prediction.section(RecordSet(tmp_path, recs[2:3] + recs[5:], None)) is None


def test_the_launch_passes_the_platform_and_the_problem_rate(tmp_path):
    run = launch.Launch(
        "smpi",
        "mpiexec",
        tmp_path / "pstswm",
        tmp_path / "pstrun",
        tmp_path / "p.toml",
        (("T42L16", 6000.0),),
    )
    argv = run.command(4, "model", ["--trunc", "42", "--levels", "16", "--grid", "2x2"])
    assert argv[5:11] == [
        "--platform",
        str(tmp_path / "p.toml"),
        "--problem",
        "T42L16",
        "--host-mflops",
        "6000",
    ]
    assert "--problem" not in run.command(2, "swap", ["--sizes", "8"])
    assert launch.problem_of(["model", "--trunc", "85"]) is None


def test_the_section_names_the_platform_hash_from_the_records_without_a_manifest(tmp_path):
    header = {
        "bench": "model",
        "type": "header",
        "run_id": "sim",
        "simulated": True,
        "simulation": {"platform": "/p/t3e-900.toml", "platform_sha256": "0123456789ab" + "c" * 52},
    }
    point = {"bench": "model", "type": "point", "run_id": "sim", "case": 2, "trunc": 42, "levels": 16,
             "grid": "1x2", "preset": "gen", "step_s": 0.01, "comm_s": 0.005}
    sec = prediction.section(RecordSet(tmp_path, [header, point], None))
    assert "`/p/t3e-900.toml` (SHA-256 0123456789ab…)" in sec.blocks[0].markdown


def test_predict_refuses_an_unknown_mapping_and_records_the_chosen_one(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "pstlab", "predict", "--platform", str(T3E), "--mapping", "round", "--dry-run"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT / "python",
    )
    assert done.returncode == 2
    assert "--mapping: unknown mapping 'round' (allowed: block, cyclic)" in done.stderr
    assert predict.predicted_entry(platform.load(T3E), {}, "cyclic")["mapping"] == "cyclic"


def test_the_mapping_reaches_every_launch_and_leaves_the_environment_as_it_was(monkeypatch):
    monkeypatch.delenv("PSTRUN_MAPPING", raising=False)
    with predict.mapping_for_pstrun("cyclic"):
        assert os.environ["PSTRUN_MAPPING"] == "cyclic"
    assert "PSTRUN_MAPPING" not in os.environ
