"""pstlab predict: predicted (simulated) records never enter a verdict, the prediction section's
answer respects the platform's band, and the launch passes the platform and compute rate to pstrun."""

import copy
import dataclasses
import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from pstlab.analysis import box
from pstlab.benches import kernel, swap
from pstlab.io import records
from pstlab.io.records import RecordSet
from pstlab.report.sections import prediction
from pstlab.run import launch
from pstlab.simulate import platform, platform_dump, predict, sensitivity
from pstlab.stats import verdicts

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


def _fake_prediction(platform_file, out):
    """What a run of two sets at 2 and 16 ranks would predict on platform_file: the same compute,
    and gen paying latency for messages that grow with the ranks squared where coll pays bandwidth
    (so gen wins at 2 ranks whatever, and the answer at 16 ranks turns on both)."""
    p = platform.load(platform_file)
    latency_s = p.latency_s * p.lat_factor[0][1]
    bandwidth = p.bandwidth_bytes_per_s * p.bw_factor[0][1] / 0.1377  # the T3E's small-message factor
    recs = []
    for ranks, grid in ((2, "1x2"), (16, "4x4")):
        compute_s = 0.01 * 64.1 / p.compute["T42L16"]["mflops"] * 2 / ranks
        for preset, comm_s in (("gen", 1000 * latency_s), ("coll", 0.65e6 / bandwidth)):
            run_id = f"{preset}{ranks}"
            step_s = compute_s + comm_s * (ranks / 16) ** (2 if preset == "gen" else 1)
            recs += [
                {"bench": "model", "type": "header", "run_id": run_id, "simulated": True},
                {"bench": "model", "type": "point", "run_id": run_id, "case": 2, "trunc": 42, "levels": 16,
                 "grid": grid, "preset": preset, "step_s": step_s},
            ]
    return sensitivity.Outcome.of(RecordSet(out, recs, None))


def test_sensitivity_names_the_inputs_the_answer_turns_on(tmp_path):
    opts = predict.Options(str(T3E), out=str(tmp_path / "sens"))
    echoed = []
    out = sensitivity.sensitivity(opts, echoed.append, runner=_fake_prediction)
    changes = json.loads((out / sensitivity.FIGURES).read_text())
    assert list(changes) == list(sensitivity.INPUTS)
    assert changes["link latency"]["+20%"]["answer_changes"] == ["case 2 T42L16 at 16 ranks: gen → coll"]
    assert changes["link latency"]["-20%"]["answer_changes"] == []
    assert changes["link bandwidth"]["+20%"]["answer_changes"] == ["case 2 T42L16 at 16 ranks: gen → coll"]
    # compute moves every time by a quarter (1 / 0.8) at most, but both sets alike: the answer stays
    assert changes["compute rates"]["-20%"]["answer_changes"] == []
    assert changes["compute rates"]["-20%"]["largest_rel"] == pytest.approx(0.25, abs=0.001)
    assert changes["eager limit"]["+20%"] == {"answer_changes": [], "largest_rel": 0.0, "largest_cell": None}
    text = (out / sensitivity.REPORT).read_text()
    assert "The answer depends on: link latency, link bandwidth, latency factors, bandwidth factors." in text
    row = "| link latency | same | -8.9% (gen, 16 ranks) | **changed**: case 2 T42L16 at 16 ranks: gen → coll | +8.9%"
    assert row in text
    assert len(list((out / "platforms").glob("*.toml"))) == 1 + 2 * len(sensitivity.INPUTS)
    assert echoed[-1].startswith("| input |")


@pytest.mark.parametrize("name", list(sensitivity.INPUTS))
def test_each_input_variant_moves_that_input_alone_and_survives_its_file(tmp_path, name):
    base = platform.load(T3E)
    varied = sensitivity.INPUTS[name](base, 1.2)
    moved = [f.name for f in dataclasses.fields(base) if getattr(base, f.name) != getattr(varied, f.name)]
    assert len(moved) == 1, moved
    path = tmp_path / "v.toml"
    path.write_text(platform_dump.dumps(varied, "a variant"))
    assert dataclasses.replace(platform.load(path), path=base.path) == varied


def test_sensitivity_refuses_a_dry_run():
    done = subprocess.run(
        [sys.executable, "-m", "pstlab", "predict", "--platform", str(T3E), "--sensitivity", "--dry-run"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT / "python",
    )
    assert done.returncode == 2
    assert "--sensitivity runs the suite 19 times: drop --dry-run" in done.stderr


def _fake_smpicc(directory, version):
    smpicc = directory / "smpicc"
    smpicc.write_text(f"#!/bin/sh\necho 'SimGrid version {version}'\n")
    smpicc.chmod(0o755)


def test_the_smpi_build_follows_the_smpicc_on_path(tmp_path, monkeypatch):
    from pstlab.core import paths

    _fake_smpicc(tmp_path, "9.9")
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    assert paths.default_build("smpi") == "smpi-9.9"
    assert paths.pstswm("smpi").parent.name == "smpi-9.9"
    assert paths.default_build("openmpi") == "openmpi"  # only SMPI builds are per engine
    assert paths.pstswm("smpi", "elsewhere") == Path("elsewhere") / "pstswm"  # --build wins


def test_without_another_smpicc_the_smpi_build_is_build_smpi(tmp_path, monkeypatch):
    from pstlab.core import paths

    monkeypatch.setenv("PATH", str(tmp_path))  # no smpicc at all
    assert paths.default_build("smpi") == "smpi"


@pytest.mark.mpi
@pytest.mark.skipif(os.environ.get("PSTSWM_MPI") != "smpi", reason="needs the SMPI build (make test's smpi step)")
def test_a_dry_run_lists_the_suite_without_an_internal_error(tmp_path):
    """The results directory of a prediction is named for the SMPI build (a call without the MPI
    name made every `pstlab predict` an internal error)."""
    build = str(ROOT / os.environ.get("PSTSWM_BUILD", "build/smpi"))  # the run's directory is python/
    done = subprocess.run(
        [sys.executable, "-m", "pstlab", "predict", "--platform", str(T3E), "--build", build, "--dry-run",
         "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT / "python",
    )
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr
