"""Launching through scripts/pstrun: argv lists only, launcher choices, subcommand discovery."""

import pytest

from pstlab.core.errors import PstlabError
from pstlab.run import launch


def test_argv_is_a_list_through_pstrun(fake):
    run = launch.Launch.create("mpich", "srun", pstswm=str(fake.path))
    argv = run.command(4, "swap", ["--sizes", "8,1K"])
    assert argv[0].endswith("scripts/pstrun")
    assert argv[1:7] == ["--mpi", "mpich", "--launcher", "srun", "-n", "4"]
    assert argv[7:] == [str(fake.path), "swap", "--sizes", "8,1K"]


@pytest.mark.parametrize("launcher", ["mpiexec", "srun", "srun --mpi=pmix -n {n}", "env X={n}"])
def test_launcher_choices(launcher):
    assert launch.check_launcher(launcher) == launcher


def test_bad_launcher_mpi_and_binary(tmp_path):
    with pytest.raises(PstlabError, match="--launcher: 'aprun' is not mpiexec, srun or a template"):
        launch.check_launcher("aprun")
    with pytest.raises(PstlabError, match="--mpi: unknown MPI 'lam'"):
        launch.check_mpi("lam")
    with pytest.raises(PstlabError, match="pstswm not found at .*nobuild/pstswm: build it"):
        launch.Launch.create("openmpi", "mpiexec", build=str(tmp_path / "nobuild"))


def test_subcommands_from_help_and_arguments_pass_intact(fake, tmp_path):
    fake.commands("swap,match")
    run = launch.Launch.create("openmpi", fake.launcher, pstswm=str(fake.path))
    assert run.subcommands() == {"swap", "match"}
    tricky = ["--label", "two words; $(rm -rf /) 'q'", "--out", str(tmp_path / "o.jsonl")]
    outcome = launch.run(run.command(3, "swap", tricky), tmp_path / "o", tmp_path / "e", 30)
    assert outcome.returncode == 0 and not outcome.timed_out
    assert fake.calls("swap")[-1] == ["swap", *tricky]


def test_timeout_stops_the_whole_launch(fake, tmp_path):
    run = launch.Launch.create("openmpi", fake.launcher, pstswm=str(fake.path))
    outcome = launch.run(run.command(1, "swap", ["--sleep", "30"]), tmp_path / "o", tmp_path / "e", 0.5)
    assert outcome.timed_out
    assert outcome.elapsed_s < 10
