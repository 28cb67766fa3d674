"""`pstlab run --until`: a wall-clock budget spent launch by launch on the widest ties (fake pstswm)."""

import json
import os
import signal
import subprocess
import sys
import time
import types

import pytest

from conftest import FIXTURES
from pstlab.core.errors import PstlabError
from pstlab.run import until
from pstlab.run.run import run_suite
from test_run import exp, opts, suite

SWAP = FIXTURES / "current" / "openmpi" / "swap-protocols.jsonl"  # real rounds of 4 protocols x 8 sizes


def repeated(tmp_path, jitter: float, *extra: str) -> str:
    args = ["--copy", str(SWAP), "--relaunch", str(jitter), *extra]
    return suite(tmp_path, exp("sw", args=args, extra="launches = 3\n"))


def entries(out) -> list[dict]:
    return json.loads((out / "manifest.json").read_text())["experiments"]


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("300", 300), ("90s", 90), ("5m", 300), ("1h30m", 5400), ("2.5m", 150)],
)
def test_durations(text, seconds):
    assert until.parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["soon", "5x", "", "0", "0s", "-5m", "m"])
def test_a_budget_that_is_not_a_positive_duration_exits_2_with_one_line(cli, text):
    rc, out, err = cli("run", "quick", f"--until={text}", "--dry-run")
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1 and "--until" in err


def test_until_with_nothing_adaptive_is_refused_before_anything_runs(fake, tmp_path, cli):
    s = suite(tmp_path, exp("once", args=["--copy", str(SWAP)]))
    rc, _, err = cli(
        "run",
        s,
        "--launcher",
        fake.launcher,
        "--pstswm",
        fake.path,
        "--out",
        tmp_path / "r",
        "--until",
        "5m",
    )
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "has no experiment with several launches" in err
    assert fake.calls("swap") == []


def test_launches_that_all_agree_leave_nothing_to_narrow_and_it_stops_early(fake, tmp_path):
    lines = []
    run_suite(
        opts(fake, repeated(tmp_path, 0.0), tmp_path / "r", until_s=3600),
        echo=lines.append,
    )
    assert [e["launch"] for e in entries(tmp_path / "r")] == [1, 2, 3]
    assert any("stopping early" in line for line in lines)


def test_noisy_launches_get_more_launches_while_the_budget_lasts(fake, tmp_path):
    """Launches 5 % apart at random: the ties stay wide and narrowable, so launches are added until
    the time left no longer covers one (a budget of about ten fake launches)."""
    out = tmp_path / "r"
    run_suite(opts(fake, repeated(tmp_path, 0.05), out, until_s=1), echo=lambda _: None)
    per_launch = until.launch_estimate_s(json.loads((out / "manifest.json").read_text()), "sw")
    budget = until.spent_s(json.loads((out / "manifest.json").read_text())) + 10 * per_launch
    lines = []
    run_suite(
        opts(fake, repeated(tmp_path, 0.05), out, resume=True, until_s=budget),
        echo=lines.append,
    )
    added = [e for e in entries(out) if e.get("added") == until.ADDED]
    assert added and all(e["status"] == "done" and (out / e["file"]).is_file() for e in added)
    assert [e["launch"] for e in added] == list(range(4, 4 + len(added)))
    assert any("of the budget left" in line for line in lines)


def test_an_interrupted_budgeted_run_resumes_without_losing_a_launch(fake, tmp_path):
    s = repeated(tmp_path, 0.05, "--sleep-past-launch", "3")
    out = tmp_path / "r"
    cmd = [
        sys.executable,
        "-m",
        "pstlab",
        "run",
        s,
        "--launcher",
        fake.launcher,
        "--pstswm",
        str(fake.path),
    ]
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # as test_run's interruption test
    try:
        proc = subprocess.Popen(
            [*cmd, "--out", str(out), "--until", "1h"],
            stderr=subprocess.PIPE,
            text=True,
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    deadline = time.monotonic() + 60
    while not any("4" in c[c.index("--seed") + 1] for c in fake.calls("swap")) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "--resume --until 3600s" in err
    assert [(e["launch"], e["status"]) for e in entries(out)] == [
        (1, "done"),
        (2, "done"),
        (3, "done"),
        (4, "pending"),
    ]
    before = len(fake.calls("swap"))
    os.environ["FAKE_PSTSWM_NO_SLEEP"] = "1"
    try:  # resumed with a budget that covers the interrupted launch only
        spent = until.spent_s(json.loads((out / "manifest.json").read_text()))
        run_suite(opts(fake, s, out, resume=True, until_s=spent + 1e-3), echo=lambda _: None)
    finally:
        del os.environ["FAKE_PSTSWM_NO_SLEEP"]
    resumed = [c[c.index("--seed") + 1] for c in fake.calls("swap")[before:]]
    assert resumed == ["4"]  # the kept launches are not run again; the interrupted one is
    assert [(e["launch"], e["status"]) for e in entries(out)][:4] == [(k, "done") for k in (1, 2, 3, 4)]


def test_nothing_adaptive_is_a_pstlab_error():
    with pytest.raises(PstlabError, match="has no experiment with several launches"):
        until.adaptive(types.SimpleNamespace(name="s", experiments=[]))
