"""pstlab on damaged input and in a hostile environment: every defect here gave a traceback, a
wrong resume or a leftover process before it was fixed."""

import json
import os
import signal
import socket
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from conftest import FIXTURES
from pstlab.core.errors import PstlabError
from pstlab.run import launch
from pstlab.run.owner import owned
from pstlab.run.run import run_suite
from test_run import exp, manifest, opts, suite


@pytest.mark.parametrize("content", ["[1]", '"x"', "3", "null"])
def test_a_manifest_that_is_not_an_object_is_refused_with_its_name(cli, fake, tmp_path, content):
    res = tmp_path / "res"
    res.mkdir()
    (res / "manifest.json").write_text(content)
    (res / "a.jsonl").write_text((FIXTURES / "openmpi" / "swap-protocols.jsonl").read_text())
    rc, _, err = cli("summary", res)
    assert rc == 2 and f"{res / 'manifest.json'}: malformed manifest (expected a JSON object" in err
    with pytest.raises(PstlabError, match="malformed manifest"):
        run_suite(opts(fake, suite(tmp_path, exp("one")), res, resume=True), echo=lambda _: None)


def test_a_manifest_entry_without_a_name_is_refused(cli, tmp_path):
    res = tmp_path / "res"
    res.mkdir()
    (res / "manifest.json").write_text(json.dumps({"suite": "t", "experiments": [{"file": "a.jsonl"}]}))
    (res / "a.jsonl").write_text((FIXTURES / "openmpi" / "swap-protocols.jsonl").read_text())
    rc, _, err = cli("report", res, "--out", tmp_path / "rep")
    assert rc == 2 and "experiment 0: 'name' missing or not a str" in err


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"bench": "swap", "type": "point", "run_id": "r", "t_min": 1}', "required field 'bytes' missing"),
        ('{"bench": "swap", "type": "point", "run_id": "r", "bytes": null}',
         "field 'bytes' is null, which pstswm never"),
        ('{"bench": "swap", "type": "summary", "summary": 3, "run_id": "r"}',
         "field 'summary' must be of type string"),
        ("[" * 100_000, "nested too deeply"),
        ('{"bench": "coll", "type": "point", "run_id": "r", "bytes": "8"}', "field 'bytes' must be a number"),
    ],
)
def test_damaged_records_name_file_and_line(cli, tmp_path, line, reason):
    res = tmp_path / "res"
    res.mkdir()
    (res / "a.jsonl").write_text('{"bench": "swap", "type": "header", "run_id": "r"}\n' + line + "\n")
    for command in (["summary", res], ["report", res, "--out", tmp_path / "rep"]):
        rc, _, err = cli(*command)
        assert rc == 2 and f"{res / 'a.jsonl'}:2: malformed record ({reason}" in err


def test_a_current_record_is_checked_against_the_whole_schema(cli, tmp_path):
    """A record of the current schema version lacking a field the schema requires, or with one of
    the wrong type, is refused naming its file, line and field, whichever command reads it."""
    lines = (FIXTURES / "current" / "openmpi" / "swap-protocols.jsonl").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"type":"point"' in line)
    for change, reason in ((lambda r: r.pop("round_s"), "required field 'round_s' missing"),
                           (lambda r: r.update(rounds="10"), "field 'rounds' must be a number, got \"10\"")):
        rec = json.loads(lines[at])
        change(rec)
        res = tmp_path / f"res{len(reason)}"
        res.mkdir()
        (res / "a.jsonl").write_text("\n".join([*lines[:at], json.dumps(rec), *lines[at + 1:]]) + "\n")
        for command in (["summary", res], ["compare", res, FIXTURES / "current" / "openmpi"], ["repro", res, res]):
            rc, _, err = cli(*command)
            assert rc == 2 and f"{res / 'a.jsonl'}:{at + 1}: malformed record ({reason}" in err, (command, err)


def test_a_pstlab_bug_is_an_internal_error_not_bad_input(cli, tmp_path, monkeypatch):
    """Any exception other than a refusal of the input is a bug: a traceback and exit 70, never
    exit 2 'bad records', so that the JSONL fuzzer cannot mistake it for the data's fault."""
    from pstlab.report import summary

    def broken(args):
        return {}["a field pstlab forgot"]

    monkeypatch.setattr(summary, "command", broken)
    rc, _, err = cli("summary", FIXTURES / "openmpi")
    assert rc == 70 and "Traceback" in err and "KeyError" in err
    assert "pstlab summary: internal error (a pstlab bug, not a fault of the records)" in err


def test_a_command_module_that_fails_to_import_is_an_internal_error(cli, monkeypatch):
    """The CLI imports a command's module only when that command runs: a module that fails to import
    (or to build its sub-parser) is the same bug, exit 70 with its traceback, not a bare crash."""
    from pstlab import cli as cli_module

    monkeypatch.setitem(cli_module.COMMANDS, "summary", ("pstlab.report.no_such_module", "a broken command"))
    rc, _, err = cli("summary", FIXTURES / "openmpi")
    assert rc == 70 and "ModuleNotFoundError" in err
    assert "pstlab summary: internal error (a pstlab bug, not a fault of the records)" in err


def test_resume_runs_again_an_experiment_whose_kept_file_was_cut(fake, tmp_path):
    s = suite(tmp_path, exp("one"), exp("two"))
    out = tmp_path / "res"
    run_suite(opts(fake, s, out), echo=lambda _: None)
    text = (out / "two.jsonl").read_text()
    (out / "two.jsonl").write_text(text[: len(text) - 20])  # cut mid-line
    m = json.loads((out / "manifest.json").read_text())
    m["experiments"][0]["status"] = "pending"  # an unfinished run, so that --resume has work
    (out / "manifest.json").write_text(json.dumps(m))
    lines = []
    run_suite(opts(fake, s, out, resume=True), echo=lines.append)
    assert any("two: its kept records are damaged" in line and "two.jsonl.invalid" in line for line in lines)
    # run again whole (the header names the attempt's own partial path, so only that differs)
    again = (out / "two.jsonl").read_text()
    assert (out / "two.jsonl.invalid").exists() and again.count("\n") == text.count("\n") and again.endswith("\n")
    assert all(e["status"] == "done" for e in manifest(out).values())


def test_a_failed_experiment_leaves_no_partial_file_of_pstswm(fake, tmp_path):
    s = suite(tmp_path, exp("bad", args=["--fail"]))
    with pytest.raises(PstlabError):
        run_suite(opts(fake, s, tmp_path / "res"), echo=lambda _: None)
    assert [p for p in (tmp_path / "res").rglob("*") if p.is_file() and p.name.endswith(".partial")] == []


def test_two_runs_never_write_one_directory(fake, tmp_path):
    s = suite(tmp_path, exp("one"))
    out = tmp_path / "res"
    run_suite(opts(fake, s, out), echo=lambda _: None)
    held, release = threading.Event(), threading.Event()

    def hold():
        with owned(out, echo=lambda _: None):
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(10)
    try:
        holder_named = f"{out} is in use by pstlab pid {os.getpid()} on {socket.gethostname()} \\(started "
        with pytest.raises(PstlabError, match=holder_named):
            run_suite(opts(fake, s, out, resume=True), echo=lambda _: None)
    finally:
        release.set()
        holder.join()
    run_suite(opts(fake, s, out, resume=True), echo=lambda _: None)  # free again


def test_a_timeout_ends_ranks_that_left_the_launchers_process_group(tmp_path):
    """A launcher whose rank moved to a session of its own and ignores SIGTERM: nothing of the
    launch may survive the timeout (found by the launch's environment token)."""
    pid_file = tmp_path / "rank.pid"
    rank = textwrap.dedent(f"""
        import os, signal, time
        os.setsid()
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        open({str(pid_file)!r}, "w").write(str(os.getpid()))
        time.sleep(60)
    """)
    launcher = f"import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', {rank!r}]); time.sleep(60)"
    outcome = launch.run([sys.executable, "-c", launcher], tmp_path / "o", tmp_path / "e", timeout_s=1.0)
    assert outcome.timed_out
    for _ in range(50):
        if pid_file.exists():
            break
        time.sleep(0.1)
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return
        if state == "Z":
            return
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    pytest.fail(f"the rank {pid} outlived the timeout")
