"""Suite files: the shipped ones load; bad ones give one clear message."""

import re
import subprocess

import pytest

from conftest import real_pstswm
from pstlab.core.errors import PstlabError
from pstlab.run import suites

SUBCOMMANDS = {"swap", "pingpong", "coll", "match", "kernel", "model"}


@pytest.mark.parametrize("name", ["quick", "paper", "full"])
def test_shipped_suites_load(name):
    suite = suites.load(name)
    assert suite.name == name and suite.description
    assert {e.subcommand for e in suite.experiments} <= SUBCOMMANDS
    assert len({e.name for e in suite.experiments}) == len(suite.experiments)


def test_quick_covers_every_benchmark_and_fits_in_a_few_minutes():
    quick = suites.load("quick")
    assert {e.subcommand for e in quick.experiments} == SUBCOMMANDS
    # every launch counts; the estimates are measured times on this 2-core machine
    assert sum(e.estimate_s * e.launches for e in quick.experiments) <= 240
    # verdicts need 10 rounds at least
    for e in quick.experiments:
        if e.subcommand in suites.IN_ROUNDS:
            assert int(e.option("--reps")) >= 10, e.name
    assert max(e.ranks for e in quick.experiments) <= 4


def test_paper_has_the_seeds_experiments():
    args = {e.name: " ".join(e.args) for e in suites.load("paper").experiments}
    assert any("--volume 2M" in a for a in args.values())  # Worley 2000
    assert any("1,10,20,30,40,50,60,70,80,90" in a and "1000000" in a for a in args.values())  # Song 2013
    assert any("--preset gen" in a for a in args.values()) and any("--preset coll" in a for a in args.values())


def write(tmp_path, text):
    path = tmp_path / "s.toml"
    path.write_text(text)
    return str(path)


EXP = '[[experiment]]\nname = "a"\nsubcommand = "swap"\nranks = 2\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("description = 'x'\n", "no \\[\\[experiment\\]\\] entries"),
        ("descrption = 'x'\n" + EXP, "unknown key\\(s\\) descrption"),
        (EXP + "rank = 3\n", "unknown key\\(s\\) rank"),
        (EXP.replace("ranks = 2", "ranks = 0"), "ranks must be a positive integer"),
        (EXP.replace('"a"', '"a b"'), "must be letters, digits"),
        (EXP + 'args = "--reps 3"\n', "args must be a list of strings"),
        (EXP + 'args = ["--out", "x"]\n', "must not contain --out"),
        (EXP + "timeout_s = -1\n", "timeout_s must be a positive number"),
        (EXP + EXP, "names must be unique: a"),
        ("[[experiment]\n", "not valid TOML"),
        ('[[experiment]]\nname = "a"\nranks = 2\n', "missing 'subcommand'"),
    ],
)
def test_bad_suites(tmp_path, text, message):
    with pytest.raises(PstlabError, match=message):
        suites.load(write(tmp_path, text))


def test_suite_defaults_and_digest(tmp_path):
    suite = suites.load(write(tmp_path, EXP + 'args = ["--reps", "3"]\n'))
    exp = suite.experiments[0]
    assert exp.timeout_s == suites.DEFAULT_TIMEOUT_S and exp.estimate_s is None
    other = suites.load(write(tmp_path, EXP + 'args = ["--reps", "4"]\n')).experiments[0]
    assert exp.digest != other.digest


def test_unknown_suite(cli):
    available = "(available: full, paper, predict, predict-sensitivity, quick"
    with pytest.raises(PstlabError, match=re.escape(f"unknown suite 'nosuch' {available}")):
        suites.load("nosuch")
    rc, _, err = cli("run", "nosuch")
    assert rc == 2
    assert err.startswith(f"pstlab run: unknown suite 'nosuch' {available}")
    rc, _, err = cli("run", "missing/file.toml")
    assert rc == 2 and "suite file missing/file.toml: no such file" in err


@pytest.fixture(scope="module")
def options() -> dict[str, set[str]]:
    """{subcommand: the options its --help lists} of the real pstswm."""
    binary, _ = real_pstswm()
    out = {}
    for sub in SUBCOMMANDS:
        text = subprocess.run([binary, sub, "--help"], capture_output=True, text=True, check=True).stdout
        out[sub] = set(re.findall(r"^\s+(--[a-z0-9-]+)", text, re.MULTILINE))
    return out


@pytest.mark.mpi
@pytest.mark.skipif(real_pstswm() is None, reason="no pstswm: set PSTSWM_BUILD=build/<mpi> and PSTSWM_MPI=<mpi>")
@pytest.mark.parametrize("name", ["quick", "paper", "full"])
def test_shipped_suites_use_options_the_built_pstswm_accepts(name, options):
    """Every --option of a suite line is one `pstswm SUB --help` lists (values are pstswm's to check)."""
    assert {"--trunc", "--levels", "--grid", "--protocols", "--reps"} <= options["kernel"]
    assert {"--grid", "--preset", "--fft", "--legendre", "--protocol", "--tuned"} <= options["model"]
    unknown = []
    for e in suites.load(name).experiments:
        unknown += [f"{e.name}: {a}" for a in e.args if a.startswith("--") and a not in options[e.subcommand]]
    assert not unknown


def _tuned_suite(tmp_path, *experiments: tuple[str, str, str]) -> str:
    return write(
        tmp_path,
        "".join(
            f'[[experiment]]\nname = "{n}"\nsubcommand = "{sub}"\nranks = 4\n{extra}\n' for n, sub, extra in experiments
        ),
    )


KERNEL_2x2 = ("k", "kernel", 'args = ["--trunc", "42", "--levels", "16", "--grid", "2x2"]')
OPT_2x2 = ("m", "model", 'args = ["--trunc", "42", "--grid", "2x2"]\ntuned_from = "k"')


@pytest.mark.parametrize(
    ("experiments", "message"),
    [
        (
            [("m", "model", 'tuned_from = "nosuch"')],
            "experiment 1 (m): tuned_from 'nosuch' is no experiment of this suite; "
            "it must name an earlier kernel experiment",
        ),
        (
            [OPT_2x2, KERNEL_2x2],
            "experiment 1 (m): tuned_from 'k' comes later in the suite; it must name an earlier kernel experiment",
        ),
        (
            [("k", "swap", ""), OPT_2x2],
            "experiment 2 (m): tuned_from 'k' is a 'swap' experiment, not 'kernel'",
        ),
        (
            [KERNEL_2x2, ("m", "kernel", 'tuned_from = "k"')],
            "experiment 2 (m): tuned_from is for model experiments (they run --preset opt); this one is 'kernel'",
        ),
        (
            [KERNEL_2x2, ("m", "model", 'args = ["--grid", "4x2"]\ntuned_from = "k"')],
            "experiment 2 (m): --grid 4x2, but tuned_from 'k' runs the kernel with --grid 2x2; "
            "the opt preset must be tuned for the model's configuration",
        ),
        (
            [KERNEL_2x2, ("m", "model", 'args = ["--preset", "gen"]\ntuned_from = "k"')],
            "experiment 2 (m): with tuned_from, args must not contain --preset (pstlab adds --preset opt --tuned FILE)",
        ),
        (
            [KERNEL_2x2, ("m", "model", "tuned_from = 3")],
            "experiment 2 (m): tuned_from must be the name of an earlier kernel experiment",
        ),
    ],
)
def test_bad_tuned_from(tmp_path, cli, experiments, message):
    path = _tuned_suite(tmp_path, *experiments)
    with pytest.raises(PstlabError) as e:
        suites.load(path)
    assert str(e.value) == f"{path}: {message}"
    rc, _, err = cli("run", path, "--dry-run")
    assert rc == 2 and err == f"pstlab run: {path}: {message}\n"


def test_tuned_from_loads_and_is_part_of_the_digest(tmp_path):
    m = suites.load(_tuned_suite(tmp_path, KERNEL_2x2, OPT_2x2)).experiments[1]
    assert m.tuned_from == "k" and m.option("--grid") == "2x2" and m.option("--levels") is None
    plain = suites.load(_tuned_suite(tmp_path, KERNEL_2x2, ("m", "model", OPT_2x2[2].split("\n")[0]))).experiments[1]
    assert plain.tuned_from is None and plain.digest != m.digest


@pytest.mark.parametrize(("name", "kernel"), [("paper", "kernel-T42L16-2x2"), ("full", "kernel-T85L16-4x4")])
def test_shipped_suites_run_opt_tuned_from_their_kernel(name, kernel):
    experiments = {e.name: e for e in suites.load(name).experiments}
    opt = [e for e in experiments.values() if e.tuned_from]
    assert opt and all(e.tuned_from == kernel and e.subcommand == "model" for e in opt)
    for e in opt:
        twin = experiments[e.name.replace("-opt-", "-gen-")]  # the same run with the gen preset
        assert [a for a in twin.args if a not in ("--preset", "gen")] == list(e.args)
        for option in suites.TUNED_MATCH:
            assert e.option(option) == experiments[kernel].option(option) is not None


def test_budget_only_for_subcommands_in_rounds(tmp_path):
    def load(body):
        path = tmp_path / "s.toml"
        path.write_text('description = "x"\n[[experiment]]\nname = "e"\nranks = 2\n' + body)
        return suites.load(str(path))

    e = load('subcommand = "kernel"\nargs = ["--reps", "10"]\nbudget_s = 12.5\n').experiments[0]
    assert e.launch_args(2) == ["--reps", "10", "--adaptive", "--budget", "12.5", "--seed", "2"]
    assert load('subcommand = "model"\n').experiments[0].launch_args(3) == []  # model has no rounds, no seed
    with pytest.raises(PstlabError, match=r"budget_s is for subcommands that compare alternatives in rounds"):
        load('subcommand = "match"\nbudget_s = 5\n')
    with pytest.raises(PstlabError, match=r"with budget_s, args must not contain --budget"):
        load('subcommand = "swap"\nargs = ["--budget", "3"]\nbudget_s = 5\n')
    with pytest.raises(PstlabError, match=r"budget_s must be a positive number of seconds, got -1"):
        load('subcommand = "swap"\nbudget_s = -1\n')


def test_launches_must_be_a_positive_integer(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[[experiment]]\nname = "e"\nsubcommand = "swap"\nranks = 2\nlaunches = 0\n')
    with pytest.raises(PstlabError, match=r"launches must be a positive integer, got 0"):
        suites.load(str(path))
    path.write_text('[[experiment]]\nname = "e"\nsubcommand = "swap"\nranks = 2\nlaunches = 3\n')
    assert suites.load(str(path)).experiments[0].launches == 3
