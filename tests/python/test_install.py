"""pstlab as an installed program: where it finds pstswm, pstrun, suites and platforms, where it
writes results, and how it refuses a wrong pstswm or an unknown name.  Fake executables only:
the real installed path is tests/install/end-to-end.sh."""

import json
import shutil
from pathlib import Path

import pytest

from conftest import FAKE
from pstlab.core import paths

SUITE = '[[experiment]]\nname = "s"\nsubcommand = "swap"\nranks = 2\nargs = []\n'
# An installed pstrun as far as pstlab can tell: logs its argv, starts the program on N "ranks".
PSTRUN = """#!/bin/sh
printf '%s\\n' "$*" >>"$FAKE_PSTRUN_LOG"
n=1
while [ $# -gt 0 ]; do
  case $1 in --mpi|--launcher) shift 2 ;; -n) n=$2; shift 2 ;; *) break ;; esac
done
FAKE_RANKS=$n exec "$@"
"""


def executable(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def fake_pstswm(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(FAKE, directory / "pstswm"))


def prefix(root: Path, suites=("mini",), platforms=()) -> Path:
    """An installed prefix: bin/pstswm, bin/pstrun, share/pstswm/{suites,platforms}/*.toml."""
    fake_pstswm(root / "bin")
    executable(root / "bin" / "pstrun", PSTRUN)
    for kind, names in (("suites", suites), ("platforms", platforms)):
        (root / "share" / "pstswm" / kind).mkdir(parents=True, exist_ok=True)
        for name in names:
            (root / "share" / "pstswm" / kind / f"{name}.toml").write_text(SUITE)
    return root


@pytest.fixture
def away(tmp_path, monkeypatch):
    """An empty working directory outside any checkout, no $PSTSWM*, a PATH without pstswm."""
    for var in (paths.ROOT_VAR, paths.PSTSWM_VAR, paths.SHARE_VAR):
        monkeypatch.delenv(var, raising=False)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.setenv("FAKE_PSTRUN_LOG", str(tmp_path / "pstrun.log"))
    monkeypatch.setenv("FAKE_PSTSWM_COMMANDS", "swap")
    return work


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_outside_a_checkout_nothing_is_read_from_one(away):
    assert paths.repo_root() is None  # not the checkout this package sits in
    assert paths.pstswm("openmpi") is None
    assert paths.results_dir() == away / "results"
    assert paths.find_pstswm() == (None, "pstswm on PATH")
    assert paths.pstrun(None) is None


def test_lookup_order_pstswm_build_env_checkout_path(away, tmp_path, monkeypatch):
    on_path = fake_pstswm(tmp_path / "onpath")
    monkeypatch.setenv("PATH", f"{on_path.parent}:/usr/bin:/bin")
    assert paths.find_pstswm() == (on_path, "PATH")
    checkout = tmp_path / "checkout"
    executable(checkout / "scripts" / "pstrun", PSTRUN)
    (checkout / "suites").mkdir()
    monkeypatch.chdir(checkout)
    # In a checkout that has no build yet, PATH still serves; --mpi names the build, which must exist.
    assert paths.find_pstswm() == (on_path, "PATH")
    built = fake_pstswm(checkout / "build" / "mpich")
    assert paths.find_pstswm("mpich") == (built, "the checkout")
    assert paths.find_pstswm("openmpi") == (checkout / "build" / "openmpi" / "pstswm", "the checkout")
    monkeypatch.setenv(paths.PSTSWM_VAR, "/opt/x/pstswm")
    assert paths.find_pstswm("mpich") == (Path("/opt/x/pstswm"), "$PSTSWM")
    assert paths.find_pstswm("mpich", build="b") == (Path("b/pstswm"), "--build")
    assert paths.find_pstswm("mpich", build="b", given="g/pstswm") == (Path("g/pstswm"), "--pstswm")
    # An SMPI build is never an installed one: $PSTSWM and PATH do not stand in for it.
    assert paths.find_pstswm("smpi") == (checkout / "build" / "smpi" / "pstswm", "the checkout")
    assert paths.pstrun(built) == checkout / "scripts" / "pstrun"


def test_installed_pstswm_brings_its_pstrun_suites_and_own_mpi(away, tmp_path, cli):
    p = prefix(tmp_path / "P")
    rc, out, err = cli("run", "mini", "--pstswm", p / "bin" / "pstswm")
    assert rc == 0, err
    (result,) = (away / "results").iterdir()
    assert result.name.endswith("-mini-installed")  # the fake names no MPI library
    manifest = json.loads((result / "manifest.json").read_text())
    assert manifest["suite_file"] == str(p / "share" / "pstswm" / "suites" / "mini.toml")
    assert [e["status"] for e in manifest["experiments"]] == ["done"]
    assert f"pstlab: wrote {result / 'report.md'} and {result / 'report.html'}" in out.splitlines()
    calls = (tmp_path / "pstrun.log").read_text().splitlines()
    assert calls and all(c.startswith("--launcher mpiexec -n ") for c in calls)  # no --mpi forced
    rc, _, err = cli("run", "mini", "--pstswm", p / "bin" / "pstswm", "--mpi", "mpich", "--no-report")
    assert rc == 0, err
    assert (tmp_path / "pstrun.log").read_text().splitlines()[-1].startswith("--mpi mpich --launcher mpiexec")
    (result,) = (away / "results").glob("*-mini-mpich")
    assert (result / "s.jsonl").is_file() and not (result / "report.md").exists()


def test_a_linked_pstswm_finds_the_prefix_it_links_to(away, tmp_path, monkeypatch, cli):
    p = prefix(tmp_path / "P", suites=("linked",))
    (tmp_path / "modbin").mkdir()
    (tmp_path / "modbin" / "pstswm").symlink_to(p / "bin" / "pstswm")
    monkeypatch.setenv("PATH", f"{tmp_path / 'modbin'}:/usr/bin:/bin")
    assert paths.pstrun(tmp_path / "modbin" / "pstswm") == p / "bin" / "pstrun"
    rc, out, err = cli("run", "linked", "--dry-run")
    assert rc == 0, err
    assert f"{p / 'bin' / 'pstrun'} --launcher mpiexec -n 2 {p / 'bin' / 'pstswm'} swap" in out


def test_share_variable_comes_first_and_unknown_names_list_where_and_what(away, tmp_path, monkeypatch, cli):
    p = prefix(tmp_path / "P", suites=("mini", "other"), platforms=("t3e",))
    share = tmp_path / "share"
    (share / "suites").mkdir(parents=True)
    (share / "suites" / "mini.toml").write_text(SUITE)
    monkeypatch.setenv(paths.SHARE_VAR, str(share))
    assert paths.locate("suites", "mini", p / "bin" / "pstswm") == share / "suites" / "mini.toml"
    assert paths.locate("suites", "other", p / "bin" / "pstswm") == p / "share" / "pstswm" / "suites" / "other.toml"
    rc, _, err = cli("run", "nosuch", "--pstswm", p / "bin" / "pstswm")
    line = one_line(err)
    assert rc == 2
    assert line.startswith("pstlab run: unknown suite 'nosuch' (available: mini, other; looked in ")
    assert f"{share / 'suites'}, {p / 'share' / 'pstswm' / 'suites'};" in line
    monkeypatch.setenv("PATH", f"{p / 'bin'}:/usr/bin:/bin")
    rc, _, err = cli("predict", "--platform", "nosuch", "--dry-run")
    assert rc == 2
    assert one_line(err).startswith("pstlab predict: unknown platform 'nosuch' (available: t3e; looked in ")


def test_no_suites_anywhere_says_so(away, cli, tmp_path):
    executable(tmp_path / "bare" / "pstrun", PSTRUN)  # a pstswm with its pstrun, but no share/
    rc, _, err = cli("run", "quick", "--pstswm", fake_pstswm(tmp_path / "bare"))
    assert rc == 2
    assert "unknown suite 'quick' (available: none; looked in nowhere that exists: " in one_line(err)


@pytest.mark.parametrize(
    ("program", "message"),
    [
        ("/bin/true", "is not pstswm: '--version' answered 'true (GNU coreutils)"),
        ("silent", "is not pstswm: '--version' answered '' (exit 0)"),
        ("/bin/ls", "is not pstswm: '--version' answered 'ls (GNU coreutils)"),
        ("missing", "does not exist"),
        ("plain", "is not an executable file"),
    ],
)
def test_a_wrong_pstswm_is_refused_in_one_line(away, cli, program, message):
    (away / "plain").write_text("#!/bin/sh\n")
    executable(away / "silent", "#!/bin/sh\n")
    prefix(away.parent / "P")
    rc, out, err = cli("run", away.parent / "P" / "share" / "pstswm" / "suites" / "mini.toml", "--pstswm", program)
    assert rc == 2 and not out
    assert message in one_line(err)
    assert not (away / "results").exists()


def test_a_wrong_pstswm_is_named_before_a_suite_is_looked_up_by_name(away, cli):
    # The suites are looked up beside the pstswm: a wrong one must be named, not "unknown suite".
    rc, _, err = cli("run", "quick", "--pstswm", "/bin/ls")
    assert rc == 2
    assert "/bin/ls (from --pstswm) is not pstswm" in one_line(err)


def test_a_wrong_pstswm_in_the_environment_is_named(away, cli, monkeypatch, tmp_path):
    monkeypatch.setenv(paths.PSTSWM_VAR, "/bin/false")
    rc, _, err = cli("run", prefix(tmp_path / "P") / "share" / "pstswm" / "suites" / "mini.toml")
    assert rc == 2
    line = one_line(err)
    assert line.startswith("pstlab run: /bin/false (from $PSTSWM) is not pstswm: '--version' answered 'false (GNU")
    assert line.endswith("(exit 1)")


def test_no_pstswm_at_all(away, cli, tmp_path):
    prefix(tmp_path / "P")
    rc, _, err = cli("run", tmp_path / "P" / "share" / "pstswm" / "suites" / "mini.toml")
    assert rc == 2
    assert one_line(err) == "pstlab run: no pstswm found (looked at pstswm on PATH): give --pstswm PATH or set $PSTSWM"


def test_version_names_the_pstswm_found_or_none(away, tmp_path, monkeypatch, capsys):
    from pstlab.cli import main

    def version() -> list[str]:
        with pytest.raises(SystemExit) as done:
            main(["--version"])
        assert done.value.code == 0
        return capsys.readouterr().out.splitlines()

    import pstlab

    assert version() == [
        f"pstlab {pstlab.__version__}",
        "pstswm: none found (looked at pstswm on PATH; give --pstswm PATH or set $PSTSWM)",
    ]
    p = prefix(tmp_path / "P")
    monkeypatch.setenv("PATH", f"{p / 'bin'}:/usr/bin:/bin")
    assert version()[1] == f"pstswm: {p / 'bin' / 'pstswm'} (from PATH): pstswm 0.0.0 (fake), record schema 1"
    monkeypatch.setenv(paths.PSTSWM_VAR, "/bin/false")
    assert version()[1].startswith("pstswm: /bin/false (from $PSTSWM) is not pstswm")


def test_the_mpi_flavour_from_the_version_text(away, tmp_path, cli):
    from pstlab.run import probe

    assert probe.flavour("pstswm 1.0 (abc), record schema 2\nMPI flavour: mpich\nMPI library: MPICH 4.0") == "mpich"
    assert probe.flavour("pstswm 1.0 (abc), record schema 2") is None
    p = prefix(tmp_path / "P")
    answer = '[ "$1" = --version ] && printf "pstswm 9.9 (fake)\\nMPI flavour: system\\n" && exit'
    executable(p / "bin" / "pstswm", f'#!/bin/sh\n{answer}\nexec {FAKE} "$@"\n')
    rc, _, err = cli("run", "mini", "--pstswm", p / "bin" / "pstswm")
    assert rc == 0, err
    assert [d.name.split("-", 2)[2] for d in (away / "results").iterdir()] == ["mini-system"]  # after the stamp
def test_calibrate_writes_here_outside_a_checkout(away):
    from pstlab.simulate import calibrate

    assert calibrate.default_out() == Path("this-machine.toml")


def test_the_resume_hint_names_the_pstswm_it_ran():
    from pstlab.run import run

    opts = run.Options("quick", pstswm="/p/bin/pstswm", launches=3)
    hint = ["quick", "--pstswm", "/p/bin/pstswm", "--out", "r", "--resume", "--launches", "3"]
    assert run._resume_args(opts, Path("r")) == hint
    hint = ["quick", "--mpi", "mpich", "--out", "r", "--resume"]
    assert run._resume_args(run.Options("quick", "mpich"), Path("r")) == hint


def test_a_report_refused_leaves_the_run_status(away, tmp_path, cli, monkeypatch):
    """pstlab run ends with pstlab report (a process of its own): here one that refuses the results."""
    from pstlab.run import run

    refuse = executable(tmp_path / "report", '#!/bin/sh\necho "pstlab report: $1: nothing to report" >&2\nexit 2\n')
    monkeypatch.setattr(run, "REPORT_COMMAND", [str(refuse)])
    rc, out, err = cli("run", "mini", "--pstswm", prefix(tmp_path / "P") / "bin" / "pstswm")
    (result,) = (away / "results").iterdir()
    assert rc == 0 and "pstlab: suite mini finished" in out
    assert one_line(err) == f"pstlab run: no report: {result}: nothing to report"
