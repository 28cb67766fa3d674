"""`pstlab calibrate` (python/pstlab/simulate/calibrate.py): the fit from pstswm's records, the platform file it
writes, bad input, and (with the SMPI build: make test's smpi step) the whole self-check."""

import json
import os
import re
import shutil

import pytest

from conftest import FIXTURES, ROOT
from pstlab.io import records
from pstlab.simulate import calibrate, platform

CURRENT = FIXTURES / "current" / "openmpi"


def test_fit_reproduces_every_2_rank_swap_size_and_the_model_rate():
    """The message path is fitted to the 2-rank swap: latency x factor(n) + n / peak is each size's
    time, every factor at least 1 (the copy at the peak is the most a size can be)."""
    f = calibrate.fit(records.load(CURRENT))
    swap2 = f.swap2_s
    assert f.latency_s == min(swap2.values()) and len(swap2) >= 5
    assert all(x >= 1 for _, x in f.lat_factor) and f.lat_factor[0] == (0, 1.0)
    for n, t in swap2.items():
        factor = calibrate._factor(f.lat_factor, n)
        fitted = f.latency_s * factor + n / f.bandwidth_bytes_per_s
        # exact, except where the copy alone would make a size faster than the latency allows
        assert fitted == pytest.approx(t, rel=1e-9) or (factor == 1 and t < fitted <= t + n / f.bandwidth_bytes_per_s)
    p = next(p for p in records.load(CURRENT).points("model") if p["grid"] == "1x1")
    scale = p["step_s"] / sum(p[f"{s}_s"] for s in platform.STAGES)  # the stages' shares of the median step
    stages = {f"{s}_mflops": pytest.approx(p[f"{s}_flops"] / (p[f"{s}_s"] * scale) / 1e6) for s in platform.STAGES}
    assert f.mflops == {f"T{p['trunc']}L{p['levels']}": {"mflops": pytest.approx(p["mflops"]), **stages}}


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
    with (src / "model-staged.jsonl").open("w") as out:
        out.write(json.dumps(records.load(CURRENT).headers()[0]) + "\n")
        out.writelines(json.dumps(dict(r, trunc=42, levels=3)) + "\n" for r in runs)
    rates = calibrate.fit(records.load(src)).mflops["T42L3"]
    # the median run (step 8 ms): its stage means, twice stage_s, add up to twice its step, so each
    # scaled to the step is stage_s; its flops over that (the fastest run's would be twice as fast)
    for i, (stage, t) in enumerate(stage_s.items()):
        assert rates[f"{stage}_mflops"] == pytest.approx((i + 1) / t), stage
    assert rates["mflops"] == 1e3
    out = tmp_path / "p.toml"
    calibrate.write(out, calibrate.fit(records.load(src)), src)
    assert platform.load(out).compute["T42L3"]["legendre_mflops"] == pytest.approx(rates["legendre_mflops"], rel=1e-5)


def test_written_platform_loads_and_keeps_its_validation(tmp_path):
    f = calibrate.fit(records.load(CURRENT))
    out = tmp_path / "this-machine.toml"
    validation = {
        "pingpong_max_error": 0.01,
        "swap_max_error": 0.2,
        "stage_max_error": 0.05,
    }
    calibrate.write(out, f, CURRENT, validation)
    p = platform.load(out)
    assert p.validation == validation and p.topology == "cluster" and p.node is not None
    # one node of the host's cores; a message between them crosses two core links and the node's
    # shared link, whose latencies add up to the zero-byte time
    assert p.nodes == 1 and p.cores_per_node == f.ranks_per_node
    assert p.node.latency_s == pytest.approx(f.latency_s, rel=1e-5)
    # a core sends one flow and receives one in the swap: its link carries both at the peak
    assert p.node.core_bandwidth_bytes_per_s == pytest.approx(2 * f.bandwidth_bytes_per_s, rel=1e-5)
    assert p.lat_factor == [(n, pytest.approx(x, rel=1e-5)) for n, x in f.lat_factor] and p.bw_factor == [(0, 1.0)]


def test_corrected_fit_moves_each_size_by_measured_over_simulated():
    f = calibrate.fit(records.load(CURRENT))
    simulated = {n: 2 * t for n, t in f.swap2_s.items()}  # SMPI doubling every time
    g = calibrate.corrected(f, simulated)
    assert g.latency_s == pytest.approx(f.latency_s / 2)
    assert g.meant_s == pytest.approx({n: t / 2 for n, t in f.swap2_s.items()}, rel=1e-12)


def test_results_without_swaps_exit_2_and_write_nothing(tmp_path, capsys):
    from pstlab.cli import main

    src = tmp_path / "r"
    src.mkdir()
    shutil.copy(CURRENT / "model.jsonl", src)
    shutil.copy(CURRENT / "pingpong.jsonl", src)
    assert main(["calibrate", str(src), "--out", str(tmp_path / "p.toml")]) == 2
    assert "no swap records of protocol 0,6 on 2 ranks to fit the node's message path" in capsys.readouterr().err
    assert not (tmp_path / "p.toml").exists()


@pytest.mark.mpi
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
    assert {"pingpong_max_error", "swap_max_error", "stage_max_error"} <= set(stored)
    figures = dict(
        re.findall(
            r"^(ping-pong|swap 0,6 on 2 ranks|kernel stages).*max error ([\d.]+)%",
            printed,
            re.M,
        )
    )
    assert len(figures) == 3, printed
    for title, key in [
        ("ping-pong", "pingpong_max_error"),
        ("swap 0,6 on 2 ranks", "swap_max_error"),
        ("kernel stages", "stage_max_error"),
    ]:
        # printed to 0.1 %, stored to 4 decimals
        assert float(figures[title]) == pytest.approx(100 * stored[key], abs=0.06)
    missed = stored["swap_max_error"] > 0.05 or max(stored["pingpong_max_error"], stored["stage_max_error"]) > 0.15
    assert rc == (3 if missed else 0) and ("MISSED" in printed) == missed


@pytest.mark.mpi
@pytest.mark.skipif(
    os.environ.get("PSTSWM_MPI") != "smpi",
    reason="needs the SMPI build (make test's smpi step)",
)
def test_calibrate_gives_the_same_file_from_the_same_records_under_load(tmp_path, capsys):
    """No host time enters a check: a run beside two busy processes writes the file a quiet run
    wrote, byte for byte, and prints the same figures."""
    import subprocess
    import sys

    from pstlab.cli import main

    build = os.environ.get("PSTSWM_BUILD", str(ROOT / "build/smpi"))
    outputs = []
    for loaded in (False, True):
        out = tmp_path / f"platform-{loaded}.toml"
        busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2 if loaded else 0)]
        try:
            main(["calibrate", str(CURRENT), "--out", str(out), "--build", build])
        finally:
            for b in busy:
                b.kill()
                b.wait()
        outputs.append((out.read_text(), capsys.readouterr().out.replace(str(out), "OUT")))
    assert outputs[0] == outputs[1]


def test_shared_bandwidth_is_what_makes_k_flows_take_the_loaded_swap_time():
    peak, lat, n = 4e9, 1e-6, 2**20
    factors = [(0, 1.0), (n, 3.0)]  # n's per-message part: 3 us
    t2 = 3 * lat + n / peak
    swaps = {(2, n): t2, (4, n): 3 * lat + 2 * n / peak, (8, n): 3 * lat + 4 * n / peak}
    # 4 ranks copy at half the peak: 4 flows share 2 x peak; 8 ranks at a quarter: 8 flows share 2 x peak too
    assert calibrate._shared_bandwidth(swaps, lat, factors, peak) == pytest.approx(2 * peak)
    # no loaded swap slower than 2 ranks: nothing shared is seen
    assert calibrate._shared_bandwidth({(2, n): t2, (4, n): t2}, lat, factors, peak) is None


def test_rates_by_share_come_from_serial_runs_at_fewer_levels():
    stage = {f"{s}_mflops": 100.0 for s in platform.STAGES}
    mflops = {
        "T42L16": {"mflops": 1.0, **stage},
        "T42L8": {"mflops": 1.0, **{k: 2 * v for k, v in stage.items()}},
        "T85L16": {"mflops": 1.0, **stage},  # one level count: no table
    }
    shares, sources = calibrate._shares(mflops)
    assert list(shares) == ["T42L16"] and sources["T42L16"] == "T42L16, T42L8"
    assert shares["T42L16"] == [(1.0, *[100.0] * 5), (0.5, *[200.0] * 5)]


@pytest.mark.parametrize(
    ("drop", "message"),
    [
        (
            "swap",
            "no swap records of protocol 0,6 on 2 ranks to fit the node's message path "
            "(pstswm swap --protocols 0,6 --pairs all",
        ),
        ("model", "no serial model run for the compute rate (pstswm model --grid 1x1 on 1 rank"),
    ],
)
def test_records_without_what_the_fit_needs_exit_2_naming_the_experiment(tmp_path, capsys, drop, message):
    from pstlab.cli import main

    src = tmp_path / "r"
    shutil.copytree(CURRENT, src)
    for f in src.glob("*.jsonl"):
        kept = [line for line in f.read_text().splitlines() if json.loads(line).get("bench") != drop]
        f.write_text("".join(line + "\n" for line in kept))
    assert main(["calibrate", str(src), "--out", str(tmp_path / "p.toml")]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "calibrate-node: name the OUT directory (scripts/calibrate-node.sh OUT)"),
        (["--problems", "85"], "--problems takes TRUNC:LEVELS items, e.g. '85:16 42:16' (got '85')"),
        (["--rounds", "0"], "--rounds needs a positive count (got '0')"),
        (["--legendre-kernel", "fast"], "--legendre-kernel dgemm or recurrence (got 'fast')"),
        (["--bogus"], "calibrate-node: unknown option '--bogus'"),
    ],
)
def test_calibrate_node_refuses_bad_input_with_exit_2(tmp_path, args, message):
    import subprocess

    out = [] if not args or args == ["--bogus"] else [str(tmp_path / "out")]
    done = subprocess.run(
        [str(ROOT / "scripts/calibrate-node.sh"), *args, *out], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()


def test_calibrate_node_refuses_an_existing_directory(tmp_path):
    import subprocess

    done = subprocess.run(
        [str(ROOT / "scripts/calibrate-node.sh"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and f"calibrate-node: {tmp_path} exists: give a new directory" in done.stderr
