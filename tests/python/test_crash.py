"""After pstlab dies without cleaning up (SIGKILL, the OOM killer): its launches die with it, a
resume takes the directory over saying so, stops what the dead owner left running and keeps a
launch that finished.  The whole chain with a real pstswm: tests/crash-resume.py (make test)."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

from pstlab.run import owner
from pstlab.run.run import run_suite
from test_run import exp, manifest, opts, suite

DEAD = {
    "pid": 2**22 + 7,
    "host": "gone-host",
    "started": "2026-01-01T00:00:00+00:00",
}  # above pid_max: never alive


def _crashed_run(fake, tmp_path) -> tuple[str, Path]:
    """A finished run of 'one' and 'two', made to look as if its pstlab died during 'two'."""
    s = suite(tmp_path, exp("one"), exp("two"))
    out = tmp_path / "res"
    run_suite(opts(fake, s, out), echo=lambda _: None)
    m = json.loads((out / "manifest.json").read_text())
    m["experiments"][1]["status"] = "running"
    (out / "manifest.json").write_text(json.dumps(m))
    (out / owner.LOCK).write_text(json.dumps(DEAD) + "\n")
    return s, out


def _wait_gone(proc: subprocess.Popen, timeout_s: float) -> bool:
    try:
        proc.wait(timeout=timeout_s)
        return True
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return False


def test_a_stale_lock_is_taken_over_and_what_its_owner_left_running_is_stopped(fake, tmp_path):
    s, out = _crashed_run(fake, tmp_path)
    (out / "two.jsonl").unlink()
    orphan = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"],
        env={**os.environ, **owner.launch_tags(out, "two.jsonl")},
        start_new_session=True,
    )
    lines = []
    run_suite(opts(fake, s, out, resume=True), echo=lines.append)
    assert (
        f"pstlab: taking over {out} from pstlab pid {DEAD['pid']} on gone-host (started {DEAD['started']}), "
        "which ended without releasing it" in lines
    )
    assert any(
        line.startswith(f"pstlab: stopping 1 process(es) of two.jsonl left running by pstlab pid {DEAD['pid']}")
        and "the launch runs again" in line
        for line in lines
    ), lines
    assert _wait_gone(orphan, 10), "the dead owner's launch still runs"
    assert [e["status"] for e in manifest(out).values()] == ["done", "done"]
    assert (out / owner.LOCK).read_text() == ""  # released cleanly: nothing for the next run to take over


def test_a_launch_that_finished_before_its_pstlab_died_is_kept(fake, tmp_path):
    s, out = _crashed_run(fake, tmp_path)
    attempt = Path(".partial") / "two.1.killed" / "two.jsonl"
    (out / attempt).parent.mkdir(parents=True)
    (out / "two.jsonl").replace(out / attempt)  # pstswm committed it; pstlab died before moving it
    m = json.loads((out / "manifest.json").read_text())
    m["experiments"][1]["partial"] = str(attempt)
    (out / "manifest.json").write_text(json.dumps(m))
    before = len(fake.calls("swap"))
    lines = []
    run_suite(opts(fake, s, out, resume=True), echo=lines.append)
    assert "pstlab: two.jsonl: finished by the pstlab that ended during it; its records are kept" in lines
    assert fake.calls("swap")[before:] == [] and manifest(out)["two"]["status"] == "done"


def test_a_torn_file_of_a_killed_launch_is_not_kept(fake, tmp_path):
    s, out = _crashed_run(fake, tmp_path)
    text = (out / "two.jsonl").read_text()
    (out / "two.jsonl").write_text(text[:-20])  # cut mid-record
    before = len(fake.calls("swap"))
    run_suite(opts(fake, s, out, resume=True), echo=lambda _: None)
    assert len(fake.calls("swap")[before:]) == 1 and (out / "two.jsonl").read_text().endswith("\n")


def test_a_launch_dies_with_the_pstlab_that_started_it(tmp_path):
    """pstlab killed by SIGKILL: its launch gets SIGTERM from the kernel at once."""
    tag = uuid.uuid4().hex
    script = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from pstlab.run import launch
        sleeper = [sys.executable, "-c", "import time; time.sleep(60)"]
        out, err = Path({str(tmp_path / "o")!r}), Path({str(tmp_path / "e")!r})
        launch.run(sleeper, out, err, 120, {{"CRASH_TEST_TAG": {tag!r}}})
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script])
    needle = f"CRASH_TEST_TAG={tag}".encode()

    def tagged() -> list[int]:
        found = []
        for environ in Path("/proc").glob("[0-9]*/environ"):
            try:
                if needle in environ.read_bytes().split(b"\0"):
                    found.append(int(environ.parent.name))
            except OSError:
                continue
        return found

    deadline = time.monotonic() + 30
    while not tagged() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert tagged(), "the launch did not start"
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while tagged() and time.monotonic() < deadline:
        time.sleep(0.05)
    left = tagged()
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"the launch outlived its pstlab by 10 s: {left}"


def test_a_resume_where_the_killed_pstlab_had_started_no_launch_runs_the_suite(fake, tmp_path):
    s = suite(tmp_path, exp("one"))
    out = tmp_path / "res"
    out.mkdir()
    (out / owner.LOCK).write_text(json.dumps(DEAD) + "\n")  # killed after taking the directory, before its manifest
    lines = []
    run_suite(opts(fake, s, out, resume=True), echo=lines.append)
    assert "pstlab: the pstlab that ended here had started no launch: running the suite from the start" in lines
    assert manifest(out)["one"]["status"] == "done"
