"""pstlab's architecture as a contract: the layer order (import-linter), no import cycle, short functions,
and nothing heavy loaded before it is needed.  Each check is also shown to fail on a planted defect."""

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGE = ROOT / "python" / "pstlab"
CONFIG = ROOT / "python" / "pyproject.toml"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
MAX_FUNCTION_LINES = 60  # the C side allows 80 (tests/check-function-length.py); Python says more per line


def _lint_imports(package_parent: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(package_parent))
    return subprocess.run(
        [str(LINT_IMPORTS), str(CONFIG), "--no-cache"], env=env, capture_output=True, text=True, check=False
    )


def _cycles(package_parent: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(package_parent))
    check = ROOT / "tests" / "check-python-imports.py"
    return subprocess.run([sys.executable, str(check), "pstlab"], env=env, capture_output=True, text=True, check=False)


@pytest.fixture
def planted(tmp_path) -> Path:
    """A copy of pstlab to plant defects in; its parent directory goes first on PYTHONPATH."""
    shutil.copytree(PACKAGE, tmp_path / "pstlab", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def _plant(root: Path, module: str, line: str) -> None:
    path = root / "pstlab" / module
    path.write_text(path.read_text() + f"\n{line}  # planted\n")


def test_the_layer_contract_holds():
    done = _lint_imports(PACKAGE.parent)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_layer_contract_fails_on_a_planted_upward_import(planted):
    _plant(planted, "core/errors.py", "from pstlab.report import doc")
    done = _lint_imports(planted)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "pstlab.core.errors -> pstlab.report.doc" in done.stdout


def test_the_contract_fails_when_run_imports_the_report(planted):
    _plant(planted, "run/launch.py", "from pstlab.report import summary")
    done = _lint_imports(planted)
    assert done.returncode == 1 and "pstlab.run.launch -> pstlab.report.summary" in done.stdout, done.stdout


def test_pstlab_has_no_import_cycle():
    done = _cycles(PACKAGE.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no import cycle" in done.stdout


def test_the_cycle_check_finds_a_planted_cycle_within_one_layer(planted):
    """io.schema importing io.records back is legal for the layers (one layer) but a cycle; an import
    inside a function counts, since it runs whenever the function does."""
    _plant(planted, "io/schema.py", "def _planted():\n    from pstlab.io import records  # noqa: PLC0415")
    done = _cycles(planted)
    assert done.returncode == 1, done.stdout
    assert "pstlab.io.records" in done.stdout and "pstlab.io.schema" in done.stdout


def long_functions(root: Path, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """Every function or method of the .py files under root longer than limit lines (def to last line)."""
    out = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    out.append(f"{path.relative_to(root.parent)}:{node.lineno}: {node.name} has {lines} lines")
    return out


def test_no_pstlab_function_is_over_60_lines():
    assert long_functions(PACKAGE) == []


def test_the_length_check_finds_a_planted_long_function(tmp_path):
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "long.py").write_text(f"def long():\n{body}")
    assert long_functions(tmp_path / "pkg") == [f"pkg/long.py:1: long has {MAX_FUNCTION_LINES + 1} lines"]
    (tmp_path / "pkg" / "long.py").write_text(f"def short():\n{body[: body.rindex('    x')]}")
    assert long_functions(tmp_path / "pkg") == []


HEAVY = ("matplotlib", "scipy")


@pytest.mark.parametrize(
    "code",
    [
        "import pstlab",
        "import pstlab.cli",
        "import pstlab.run.run",
        "from pstlab.cli import main; main(['--help'])",
        "from pstlab.cli import main; main(['run', 'quick', '--dry-run', '--out', 'DIR', '--pstswm', 'FAKE'])",
    ],
)
def test_starting_pstlab_loads_neither_plotting_nor_scipy(code, tmp_path):
    """Like pandas with its plotting: matplotlib and scipy load when a report or an interval needs them;
    `pstlab run` loads neither before it launches anything."""
    code = code.replace("DIR", str(tmp_path / "run")).replace("FAKE", str(ROOT / "tests" / "python" / "fake_pstswm.py"))
    listing = "print(sorted({m.split('.')[0] for m in sys.modules}))"
    probe = f"import sys\ntry:\n    {code}\nexcept SystemExit:\n    pass\n{listing}"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    loaded = set(ast.literal_eval(done.stdout.strip().splitlines()[-1]))
    assert not loaded & set(HEAVY), loaded & set(HEAVY)


def test_the_probe_sees_a_heavy_import():
    """The test above can fail: the same probe after importing the report's plots finds matplotlib."""
    probe = "import sys\nimport pstlab.report.plots\nprint(sorted({m.split('.')[0] for m in sys.modules}))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    assert "matplotlib" in ast.literal_eval(done.stdout.strip().splitlines()[-1])
