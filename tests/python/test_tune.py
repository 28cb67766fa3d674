"""`pstlab tune`: picks per algorithm and stage, the preset file, a build without `kernel`."""

import sys

import pytest

from conftest import FIXTURES
from pstlab import records, tune
from pstlab.errors import PstlabError

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


def test_choose_picks_the_fastest_variant_per_algorithm_and_stage():
    points = records.load(FIXTURES / "openmpi" / "kernel.jsonl").points("kernel")
    choice = tune.choose(points)
    assert list(choice) == ["fft", "legendre"]
    for stage, (fastest, picks) in choice.items():
        for pick in picks:
            mine = [p for p in points if p["algorithm"] == pick.algorithm]
            top = min(mine, key=lambda p: p["t_min"])
            assert (pick.protocol, pick.overlap, pick.t_s) == (top["protocol"], top["overlap"], top["t_min"])
        assert fastest.t_s == min(p.t_s for p in picks), stage


def test_preset_file_round_trips_through_toml(tmp_path, cli):
    out = tmp_path / "opt.toml"
    rc, text, _ = cli("tune", "--records", FIXTURES / "mpich" / "kernel.jsonl", "--out", out)
    assert rc == 0 and f"wrote {out}" in text and "fastest algorithm" in text
    preset = tomllib.loads(out.read_text())
    points = records.load(FIXTURES / "mpich" / "kernel.jsonl").points("kernel")
    legendre = [p for p in points if p["algorithm"] in ("exchsum", "halfsum", "ringsum", "ringpipe")]
    best = min(legendre, key=lambda p: p["t_min"])
    assert preset["legendre"]["algorithm"] == best["algorithm"]
    assert preset["legendre"][best["algorithm"]] == {
        "protocol": best["protocol"],
        "overlap": best["overlap"],
        "t_s": pytest.approx(best["t_min"], rel=1e-6),
    }
    assert set(preset["fft"]) == {"algorithm", "dfft", "srtrans", "swtrans", "logtrans"}
    assert "# configuration: size T42L4, trunc 42, levels 4, grid 2x1" in out.read_text()


def test_tune_refuses_records_of_several_configurations(tmp_path):
    f = tmp_path / "k.jsonl"
    lines = (FIXTURES / "openmpi" / "kernel.jsonl").read_text().splitlines()
    f.write_text(
        "\n".join(
            lines + [line.replace('"T42L4"', '"T85L4"').replace('"trunc": 42', '"trunc": 85') for line in lines[1:]]
        )
        + "\n"
    )
    with pytest.raises(PstlabError, match="several configurations \\(size T42L4, T85L4\\)"):
        tune.tune(tune.Options(records=str(f), out=str(tmp_path / "o.toml")))
    out, choice = tune.tune(tune.Options(trunc=85, records=str(f), out=str(tmp_path / "o.toml")))
    assert out.is_file() and choice


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
    rc, _, _ = cli(
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
        out,
        "--",
        "--copy",
        FIXTURES / "openmpi" / "kernel.jsonl",
    )
    assert rc == 0
    call = fake.calls("kernel")[-1]
    assert call[:9] == ["kernel", "--trunc", "42", "--levels", "4", "--grid", "2x1", "--protocols", "all"]
    assert call[9:11] == ["--copy", str(FIXTURES / "openmpi" / "kernel.jsonl")]
    assert (tmp_path / "opt.kernel.jsonl").is_file()
    assert tomllib.loads(out.read_text())["fft"]["algorithm"]
