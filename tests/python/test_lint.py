"""ruff is part of the contract: the package, its tests and the bench scripts' Python are lint-clean."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

RUFF = Path(sys.executable).with_name("ruff")


@pytest.mark.skipif(not RUFF.exists() and not shutil.which("ruff"), reason="ruff is not installed")
def test_ruff_clean():
    ruff = str(RUFF) if RUFF.exists() else shutil.which("ruff")
    done = subprocess.run(
        [ruff, "check", "--config", "python/pyproject.toml", "python", "tests/python", "bench"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
