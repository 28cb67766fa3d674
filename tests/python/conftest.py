"""Shared fixtures: the committed record fixtures, the fake pstswm, running the CLI in-process."""

import ast
import os
import shutil
from functools import cache
from pathlib import Path

import pytest

from pstlab.cli import main

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FIXTURES = HERE / "fixtures"
FAKE = HERE / "fake_pstswm.py"
# A launcher template that starts the fake directly: pstrun substitutes {n}, no MPI involved.
FAKE_LAUNCHER = "env FAKE_RANKS={n}"


# pstlab's layers, lowest first (python/pyproject.toml's import-linter contract); report and run
# share a rank.  Each test file is marked with the highest layer it imports, so `pytest -m stats`
# runs the tests of one layer (markers are registered in pytest.ini, which makes them strict).
LAYERS = ("core", "io", "stats", "benches", "analysis", "report", "run", "simulate", "cli")


@cache
def layer_of(path: Path) -> str:
    """The highest pstlab layer a test file imports (core when it imports none)."""
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        imported |= {n.split(".")[1] for n in names if n.startswith("pstlab.") and n.count(".") >= 1}
    return max((layer for layer in imported if layer in LAYERS), key=LAYERS.index, default="core")


def pytest_collection_modifyitems(items):
    for item in items:
        item.add_marker(getattr(pytest.mark, layer_of(Path(item.fspath))))


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
