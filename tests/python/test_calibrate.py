"""`pstlab calibrate` (python/pstlab/calibrate.py): the fit from pstswm's records, the platform file it
writes, bad input, and (with the SMPI build: make test's smpi step) the whole self-check."""

import json
import os
import re
import shutil

import pytest

from conftest import FIXTURES, ROOT
from pstlab import calibrate, platform, records

CURRENT = FIXTURES / "current" / "openmpi"


def test_fit_reproduces_every_pingpong_size_and_the_model_rate():
    f = calibrate.fit(records.load(CURRENT))
    assert f.latency_s == f.pingpong_s[0] and len(f.pingpong_s) >= 5
    assert all(0 < x <= 1 for _, x in f.bw_factor) and f.bw_factor[0] == (0, 1.0)
    for n, t in f.pingpong_s.items():
        if n:
            factor = [x for size, x in f.bw_factor if size <= n][-1]
            assert f.latency_s + n / (
                f.bandwidth_bytes_per_s * factor
            ) == pytest.approx(t, rel=1e-9)
    serial = [p for p in records.load(CURRENT).points("model") if p["grid"] == "1x1"]
    assert f.mflops == {
        f"T{serial[0]['trunc']}L{serial[0]['levels']}": {"mflops": pytest.approx(serial[0]["mflops"])}
    }


def test_stage_rates_are_each_stages_flops_over_its_time_scaled_to_the_median_step(tmp_path):
    """Records with per-stage flops (pstswm model since it writes <stage>_flops) give per-stage
    rates: the stage's share of the median step, from its mean time's share; the median over runs."""
    src = tmp_path / "r"
    shutil.copytree(CURRENT, src)
    serial = next(p for p in records.load(CURRENT).points("model") if p["grid"] == "1x1")
    stage_s = {"fft": 0.002, "legendre": 0.004, "fourier": 0.001, "grid": 0.0005, "spectral": 0.0005}
    runs = []
    for step_s in (0.004, 0.008, 0.016):  # a stalled host: the stage means add up to twice the median step
        run = dict(serial, step_s=step_s, mflops=1e3)
        run.update({f"{s}_s": t * step_s / 0.004 for s, t in stage_s.items()})
        run.update({f"{s}_flops": 1e6 * (i + 1) for i, s in enumerate(stage_s)})
        runs.append(run)
    with open(src / "model-staged.jsonl", "w") as out:
        out.write(json.dumps(records.load(CURRENT).headers()[0]) + "\n")
        out.writelines(json.dumps(dict(r, trunc=42, levels=3)) + "\n" for r in runs)
    rates = calibrate.fit(records.load(src)).mflops["T42L3"]
    # the median run (step 8 ms): its stage means, twice stage_s, add up to twice its step, so each
    # scaled to the step is stage_s; its flops over that (the fastest run's would be twice as fast)
    for i, (stage, t) in enumerate(stage_s.items()):
        assert rates[f"{stage}_mflops"] == pytest.approx((i + 1) / t), stage
    assert rates["mflops"] == 1e3
    text = calibrate.toml_text(calibrate.fit(records.load(src)), src)
    out = tmp_path / "p.toml"
    out.write_text(text)
    assert platform.load(out).compute["T42L3"]["legendre_mflops"] == pytest.approx(rates["legendre_mflops"], rel=1e-5)


def test_written_platform_loads_and_keeps_its_validation(tmp_path):
    f = calibrate.fit(records.load(CURRENT))
    out = tmp_path / "this-machine.toml"
    validation = {
        "pingpong_max_error": 0.01,
        "swap_max_error": 0.2,
        "stage_max_error": 0.05,
    }
    out.write_text(calibrate.toml_text(f, CURRENT, validation))
    p = platform.load(out)
    assert (
        p.validation == validation
        and p.topology == "cluster"
        and p.link_sharing == "shared"
    )
    # a message crosses two links: each carries half the zero-byte time
    assert (
        p.latency_s == pytest.approx(f.latency_s / 2, rel=1e-5)
        and p.nodes == f.ranks_per_node
    )
    assert p.bw_factor == [(n, pytest.approx(x, rel=1e-5)) for n, x in f.bw_factor]


def test_corrected_fit_moves_each_size_by_measured_over_simulated():
    f = calibrate.fit(records.load(CURRENT))
    simulated = {n: 2 * t for n, t in f.pingpong_s.items()}  # SMPI doubling every time
    g = calibrate.corrected(f, simulated)
    assert g.latency_s == pytest.approx(f.latency_s / 2) and g.meant_s == {
        n: t / 2 for n, t in f.pingpong_s.items()
    }


def test_results_without_pingpong_exit_2(tmp_path, capsys):
    from pstlab.cli import main

    src = tmp_path / "r"
    src.mkdir()
    shutil.copy(CURRENT / "model.jsonl", src)
    assert main(["calibrate", str(src), "--out", str(tmp_path / "p.toml")]) == 2
    err = capsys.readouterr().err
    assert (
        "no ping-pong records to fit (pstswm pingpong --modes send on 2 ranks)" in err
    )
    assert not (tmp_path / "p.toml").exists()


@pytest.mark.skipif(
    os.environ.get("PSTSWM_MPI") != "smpi",
    reason="needs the SMPI build (make test's smpi step)",
)
def test_calibrate_simulates_its_platform_and_stores_what_it_printed(tmp_path, capsys):
    from pstlab.cli import main

    out = tmp_path / "this-machine.toml"
    rc = main(
        [
            "calibrate",
            str(CURRENT),
            "--out",
            str(out),
            "--build",
            os.environ.get("PSTSWM_BUILD", str(ROOT / "build/smpi")),
        ]
    )
    printed = capsys.readouterr().out
    stored = platform.load(out).validation
    assert set(stored) == {"pingpong_max_error", "swap_max_error", "stage_max_error"}
    figures = dict(
        re.findall(
            r"^(calibration ping-pong|swap 0,6|kernel stage).*max error ([\d.]+)%",
            printed,
            re.M,
        )
    )
    assert len(figures) == 3, printed
    for title, key in [
        ("calibration ping-pong", "pingpong_max_error"),
        ("swap 0,6", "swap_max_error"),
        ("kernel stage", "stage_max_error"),
    ]:
        # printed to 0.1 %, stored to 4 decimals
        assert float(figures[title]) == pytest.approx(100 * stored[key], abs=0.06)
    missed = (
        stored["pingpong_max_error"] > 0.05
        or max(stored["swap_max_error"], stored["stage_max_error"]) > 0.15
    )
    assert rc == (3 if missed else 0) and ("MISSED" in printed) == missed
