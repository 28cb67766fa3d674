"""Shared fixtures: the committed record fixtures, the fake pstswm, running the CLI in-process."""

import os
import shutil
from pathlib import Path

import pytest

from pstlab.cli import main

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIXTURES = HERE / "fixtures"
FAKE = HERE / "fake_pstswm.py"
# A launcher template that starts the fake directly: pstrun substitutes {n}, no MPI involved.
FAKE_LAUNCHER = "env FAKE_RANKS={n}"


@pytest.fixture(autouse=True)
def _checkout_root(monkeypatch):
    """pstlab finds suites/ and scripts/pstrun from the checkout; results/ goes nowhere near it."""
    monkeypatch.setenv("PSTSWM_ROOT", str(ROOT))


@pytest.fixture
def ompi_dir() -> Path:
    return FIXTURES / "openmpi"


@pytest.fixture
def mpich_dir() -> Path:
    return FIXTURES / "mpich"


@pytest.fixture
def fixture_copy(tmp_path, ompi_dir) -> Path:
    """A writable copy of the Open MPI fixture directory."""
    dest = tmp_path / "results"
    shutil.copytree(ompi_dir, dest)
    return dest


@pytest.fixture
def cli(capsys):
    """Run `pstlab ARGS...` in-process; return (exit status, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        rc = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return rc, out, err

    return run


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """The fake pstswm: its path, and the log of its invocations."""
    log = tmp_path / "fake.log"
    monkeypatch.setenv("FAKE_PSTSWM_LOG", str(log))
    monkeypatch.setenv("FAKE_PSTSWM_COMMANDS", "swap,coll")

    class Fake:
        path = FAKE
        launcher = FAKE_LAUNCHER

        @staticmethod
        def calls(subcommand: str | None = None) -> list[list[str]]:
            import json

            if not log.exists():
                return []
            argvs = [json.loads(line)["argv"] for line in log.read_text().splitlines()]
            return [a for a in argvs if subcommand is None or a[:1] == [subcommand]]

        @staticmethod
        def commands(names: str) -> None:
            monkeypatch.setenv("FAKE_PSTSWM_COMMANDS", names)

    return Fake


def real_pstswm() -> tuple[Path, str] | None:
    """(pstswm binary, MPI name) from PSTSWM_BUILD / PSTSWM_MPI, or None when not built."""
    build, mpi = os.environ.get("PSTSWM_BUILD"), os.environ.get("PSTSWM_MPI")
    if not build or not mpi:
        return None
    binary = (ROOT / build / "pstswm") if not Path(build).is_absolute() else Path(build) / "pstswm"
    return (binary, mpi) if binary.is_file() else None
