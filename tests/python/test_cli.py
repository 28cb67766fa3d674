"""The CLI's table of commands: each command's module builds its sub-parser and handles it, and only
the module of the command being run is imported (`pstlab --help` and `pstlab platform` stay light)."""

import ast
import subprocess
import sys

import pytest

from conftest import ROOT
from pstlab import cli


@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_each_command_module_builds_its_sub_parser(name, capsys):
    module = cli.command_module(name)
    assert callable(module.add_parser) and callable(module.command)
    with pytest.raises(SystemExit) as done:
        cli.parser(name).parse_args([name, "--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: pstlab {name} ")


def _loaded(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running code (a SystemExit ends it quietly)."""
    probe = f"import sys\ntry:\n    {code}\nexcept SystemExit:\n    pass\nprint(sorted(sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT)
    return set(ast.literal_eval(done.stdout.strip().splitlines()[-1]))


COMMAND_MODULES = {module for module, _ in cli.COMMANDS.values()}


def test_the_top_help_imports_no_command_module():
    assert not _loaded("from pstlab.cli import main; main(['--help'])") & COMMAND_MODULES


def test_a_command_imports_its_own_module_only():
    """Also shows the probe above can fail: a command's --help loads that command's module."""
    loaded = _loaded("from pstlab.cli import main; main(['platform', '--help'])") & COMMAND_MODULES
    assert loaded == {"pstlab.simulate.platform"}


def test_pstlab_platform_runs_on_the_standard_library(tmp_path):
    """scripts/pstrun runs `python3 -m pstlab platform` without pstlab's venv: no numpy on the way."""
    t3e = ROOT / "platforms" / "t3e-900.toml"
    loaded = _loaded(f"from pstlab.cli import main; main(['platform', '{t3e}', '{tmp_path}'])")
    assert "pstlab.simulate.platform" in loaded and "numpy" not in loaded
    assert (tmp_path / "platform.xml").is_file()
    assert "numpy" in _loaded("from pstlab.cli import main; main(['summary', '--help'])")
