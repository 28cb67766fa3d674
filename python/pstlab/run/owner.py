"""One owner per results directory, and what a resume finds after its owner died.

The owner holds an flock on <directory>/.lock and writes its pid, host and start time into it;
the kernel drops the flock when the owner dies however it dies (SIGKILL, the OOM killer), so a
held flock means a live owner, and a lock file that still names an owner but is free means one
that died without cleaning up.  Every launch carries the directory in its environment
(DIR_VAR), so the launches a dead owner left running are found in /proc wherever their
launcher put them (another process group or session, a slurmstepd of an emulated node).
"""

import contextlib
import fcntl
import json
import os
import signal
import socket
import time
from collections.abc import Callable
from pathlib import Path

from pstlab.core.errors import PstlabError
from pstlab.io.manifest import now

LOCK = ".lock"
DIR_VAR = "PSTLAB_RUN_DIR"  # the results directory a launch writes into
LAUNCH_VAR = "PSTLAB_RUN_LAUNCH"  # the manifest file name of the launch
STOP_GRACE_S = 5.0


def describe(owner: dict) -> str:
    return f"pstlab pid {owner.get('pid', '?')} on {owner.get('host', '?')} (started {owner.get('started', '?')})"


def _recorded_owner(text: str) -> dict | None:
    """The owner a lock file names; a bare pid (older pstlab) counts too; None when it names none."""
    text = text.strip()
    if not text:
        return None
    try:
        owner = json.loads(text)
    except json.JSONDecodeError:
        return {"pid": text}
    return owner if isinstance(owner, dict) else {"pid": text}


@contextlib.contextmanager
def owned(directory: Path, echo: Callable[[str], None]):
    """Own the results directory while the block runs: refuse (exit 2, one line) while another
    pstlab owns it, take over a stale lock of a dead one saying so, stop what it left running."""
    with (directory / LOCK).open("a+") as f:
        f.seek(0)
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _recorded_owner(f.read()) or {}
            raise PstlabError(
                f"{directory} is in use by {describe(holder)}: wait for it to finish or stop it"
            ) from None
        if (dead := _recorded_owner(f.read())) is not None:
            echo(f"pstlab: taking over {directory} from {describe(dead)}, which ended without releasing it")
            stop_orphans(directory, dead, echo)
        f.seek(0)
        f.truncate()
        f.write(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "started": now()}) + "\n")
        f.flush()
        try:
            yield
        finally:
            f.truncate(0)  # released cleanly: the next owner has nothing to take over
            fcntl.flock(f, fcntl.LOCK_UN)


def abandoned(directory: Path) -> bool:
    """Whether the lock still names an owner: one that runs, or one that died before releasing it."""
    try:
        return _recorded_owner((directory / LOCK).read_text(encoding="utf-8", errors="replace")) is not None
    except OSError:
        return False


def launch_tags(directory: Path, file: str) -> dict[str, str]:
    """The environment that ties a launch to its results directory (found by stop_orphans)."""
    return {DIR_VAR: str(directory.resolve()), LAUNCH_VAR: file}


def _environ(pid_dir: Path) -> dict[str, str]:
    try:
        raw = (pid_dir / "environ").read_bytes()
    except OSError:
        return {}  # gone, or not ours to read
    pairs = (item.split(b"=", 1) for item in raw.split(b"\0") if b"=" in item)
    return {k.decode(errors="replace"): v.decode(errors="replace") for k, v in pairs}


def orphans(directory: Path) -> dict[int, str]:
    """pid -> launch file of every process (not this one) that writes into directory."""
    target = str(directory.resolve())
    found = {}
    for pid_dir in Path("/proc").glob("[0-9]*"):
        env = _environ(pid_dir)
        if env.get(DIR_VAR) == target and int(pid_dir.name) != os.getpid():
            found[int(pid_dir.name)] = env.get(LAUNCH_VAR, "?")
    return found


def _signal_all(pids, sig: signal.Signals) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def stop_orphans(directory: Path, dead: dict, echo: Callable[[str], None]) -> None:
    """Stop the launches a dead owner left running: SIGTERM (pstswm keeps what it wrote, mpiexec
    and srun take their ranks down), SIGKILL for what is left after STOP_GRACE_S.  Stopped rather
    than waited for: nobody is left to judge their records, and a launch may run for minutes."""
    if not (found := orphans(directory)):
        return
    launches = ", ".join(sorted(set(found.values())))
    echo(
        f"pstlab: stopping {len(found)} process(es) of {launches} left running by {describe(dead)}: "
        "their owner is gone, so nobody would collect their records; the launch runs again"
    )
    _signal_all(found, signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE_S
    while (left := orphans(directory)) and time.monotonic() < deadline:
        time.sleep(0.1)
    deadline = time.monotonic() + STOP_GRACE_S
    while (left := orphans(directory)) and time.monotonic() < deadline:
        _signal_all(left, signal.SIGKILL)
        time.sleep(0.1)
    if left:
        raise PstlabError(
            f"{directory}: processes {', '.join(map(str, sorted(left)))} of {describe(dead)} survive SIGKILL"
        )
