"""`pstlab tune`: picks per algorithm and stage, the preset file, a build without `kernel`."""

import sys

import pytest

from conftest import FIXTURES
from pstlab.core.errors import PstlabError
from pstlab.io import records
from pstlab.run import tune

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


def _real_points(mpi: str) -> list[dict]:
    return records.load(FIXTURES / mpi / "kernel.jsonl").points("kernel")


def _label(p) -> str:
    return f"{p.protocol}+ov" if p.overlap and p.protocol[0] in "01" else p.protocol


@pytest.mark.parametrize("mpi", ["openmpi", "mpich"])
def test_choose_picks_the_fastest_variant_per_algorithm_and_stage(mpi):
    points = _real_points(mpi)
    choice = tune.choose(points)
    assert list(choice) == ["fft", "legendre"]  # a 1d run: FFT stage on 2x1, Legendre stage on 1x2
    for stage, c in choice.items():
        mine = [p for p in points if p["stage"] == stage]
        algorithms = {p["algorithm"] for p in mine if p["protocol"] != "coll"}
        assert {p.algorithm for p in c.picks} == algorithms
        assert {p.algorithm for p in c.collectives} == {p["algorithm"] for p in mine if p["protocol"] == "coll"}
        for pick in c.picks:
            top = min((p for p in mine if p["algorithm"] == pick.algorithm), key=lambda p: p["t_min"])
            assert (pick.protocol, pick.overlap, pick.t_s) == (top["protocol"], top["overlap"], top["t_min"])
        assert c.fastest.t_s == min(p.t_s for p in c.picks), stage
        assert c.fastest.protocol != "coll"
        assert f"grid {mine[0]['grid']}" in c.config


@pytest.mark.parametrize("mpi", ["openmpi", "mpich"])
def test_picks_agree_with_pstswms_own_sensitivity_summaries(mpi):
    """pstswm kernel names each algorithm's best alternative itself; tune must pick the same one."""
    rs = records.load(FIXTURES / mpi / "kernel.jsonl")
    choice = tune.choose(rs.points("kernel"))
    summaries = rs.summaries("kernel", "sensitivity")
    assert summaries
    for s in summaries:
        pick = next(p for p in choice[s["stage"]].picks if p.algorithm == s["algorithm"])
        assert _label(pick) == s["best"]
        assert (pick.protocol, pick.overlap) == (s["best_protocol"], s["best_overlap"])
        assert pick.t_s == pytest.approx(s["best_s"], rel=1e-12)


def test_preset_file_round_trips_through_toml(tmp_path, cli):
    out = tmp_path / "opt.toml"
    rc, text, _ = cli("tune", "--records", FIXTURES / "mpich" / "kernel.jsonl", "--out", out)
    assert rc == 0 and f"wrote {out}" in text and "fastest algorithm" in text
    assert "MPI collective (not a candidate)" in text
    preset = tomllib.loads(out.read_text())
    points = _real_points("mpich")
    assert set(preset) == {"fft", "legendre"}
    for stage in ("fft", "legendre"):
        mine = [p for p in points if p["stage"] == stage and p["protocol"] != "coll"]
        best = min(mine, key=lambda p: p["t_min"])
        assert preset[stage]["algorithm"] == best["algorithm"]
        assert preset[stage][best["algorithm"]] == {
            "protocol": best["protocol"],
            "overlap": best["overlap"],
            "t_s": pytest.approx(best["t_min"], rel=1e-6),
        }
        assert set(preset[stage]) == {"algorithm"} | {p["algorithm"] for p in mine}
    assert "alltoallv" not in preset["fft"] and "allreduce" not in preset["legendre"]
    size = points[0]["size"]
    trunc, levels = points[0]["trunc"], points[0]["levels"]
    text = out.read_text()
    assert f"# configuration: size {size}, trunc {trunc}, levels {levels}; fft grid 2x1" in text
    assert "# MPI collective alltoallv: t_s = " in text


def test_tune_refuses_records_of_several_configurations(tmp_path):
    f = tmp_path / "k.jsonl"
    lines = (FIXTURES / "openmpi" / "kernel.jsonl").read_text().splitlines()
    points = _real_points("openmpi")
    size, trunc = points[0]["size"], points[0]["trunc"]
    other = f"T{trunc + 1}L{points[0]['levels']}"
    f.write_text(
        "\n".join(
            lines
            + [
                line.replace(f'"{size}"', f'"{other}"').replace(f'"trunc":{trunc},', f'"trunc":{trunc + 1},')
                for line in lines[1:]
            ]
        )
        + "\n"
    )
    with pytest.raises(PstlabError, match=f"several configurations \\(size {size}, {other}\\)"):
        tune.tune(tune.Options(records=str(f), out=str(tmp_path / "o.toml")))
    out, choice = tune.tune(tune.Options(trunc=trunc + 1, records=str(f), out=str(tmp_path / "o.toml")))
    assert out.is_file() and choice
    assert f"configuration: size {other}, trunc {trunc + 1}" in out.read_text()


def test_tune_refuses_two_grids_for_one_stage_and_narrows_with_grid(tmp_path):
    f = tmp_path / "k.jsonl"
    lines = (FIXTURES / "openmpi" / "kernel.jsonl").read_text().splitlines()
    f.write_text("\n".join(lines + [line.replace('"grid":"2x1"', '"grid":"4x1"') for line in lines[1:]]) + "\n")
    with pytest.raises(PstlabError, match="several configurations \\(grid 2x1, 4x1\\)"):
        tune.tune(tune.Options(records=str(f), out=str(tmp_path / "o.toml")))
    _, choice = tune.tune(tune.Options(grid="4x1", records=str(f), out=str(tmp_path / "o.toml")))
    assert list(choice) == ["fft"] and "grid 4x1" in choice["fft"].config


def test_only_collectives_is_an_error(tmp_path):
    f = tmp_path / "k.jsonl"
    lines = (FIXTURES / "openmpi" / "kernel.jsonl").read_text().splitlines()
    f.write_text("\n".join(line for line in lines if '"type":"header"' in line or '"protocol":"coll"' in line) + "\n")
    with pytest.raises(PstlabError, match="only MPI collectives"):
        tune.tune(tune.Options(records=str(f), out=str(tmp_path / "o.toml")))


def test_build_without_kernel_is_a_clear_error(fake, tmp_path, cli):
    rc, _, err = cli(
        "tune",
        "--trunc",
        "42",
        "--levels",
        "4",
        "--grid",
        "2x1",
        "--launcher",
        fake.launcher,
        "--pstswm",
        fake.path,
        "--out",
        tmp_path / "o.toml",
    )
    assert rc == 2
    assert "has no 'kernel' subcommand, so there is nothing to tune with" in err
    rc, _, err = cli("tune", "--levels", "4", "--grid", "2x1", "--pstswm", fake.path)
    assert rc == 2 and "--trunc is required" in err
    rc, _, err = cli("tune", "--trunc", "42", "--levels", "4", "--grid", "2by1", "--pstswm", fake.path)
    assert rc == 2 and "--grid: '2by1' is not PXxPY" in err


def test_tune_runs_the_kernel_on_the_grid_and_writes_the_preset(fake, tmp_path, cli):
    fake.commands("swap,kernel")
    out = tmp_path / "opt.toml"
    real = _real_points("openmpi")[0]
    trunc, levels = str(real["trunc"]), str(real["levels"])
    rc, _, _ = cli(
        "tune",
        "--trunc",
        trunc,
        "--levels",
        levels,
        "--grid",
        "2x1",
        "--launcher",
        fake.launcher,
        "--pstswm",
        fake.path,
        "--out",
        out,
        "--",
        "--copy",
        FIXTURES / "openmpi" / "kernel.jsonl",
    )
    assert rc == 0
    call = fake.calls("kernel")[-1]
    assert call[:9] == ["kernel", "--trunc", trunc, "--levels", levels, "--grid", "2x1", "--protocols", "all"]
    assert call[9:11] == ["--copy", str(FIXTURES / "openmpi" / "kernel.jsonl")]
    assert (tmp_path / "opt.kernel.jsonl").is_file()
    # The copied records are a 1d run: on --grid 2x1 only its FFT stage (2x1) is that grid.
    preset = tomllib.loads(out.read_text())
    assert list(preset) == ["fft"] and preset["fft"]["algorithm"]
