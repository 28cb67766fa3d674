"""Start pstswm through scripts/pstrun (run-as-root, oversubscription, srun, templates).

Commands are argv lists, never shell strings: an argument with a space or a quote reaches pstswm
as it is.  Every launch is its own process group, so a timeout or Ctrl-C ends the launcher and
all its ranks, and nothing else.
"""

import os
import re
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from pstlab import paths
from pstlab.errors import PstlabError

LAUNCHERS = ("mpiexec", "srun")
GRACE_S = 5.0


def check_mpi(mpi: str) -> str:
    if mpi not in paths.MPIS:
        raise PstlabError(f"--mpi: unknown MPI '{mpi}' (allowed: {', '.join(paths.MPIS)})")
    return mpi


def check_launcher(launcher: str) -> str:
    if launcher in LAUNCHERS or "{n}" in launcher:
        return launcher
    raise PstlabError(
        f"--launcher: '{launcher}' is not mpiexec, srun or a template containing {{n}} "
        f"(e.g. 'srun --mpi=pmix -n {{n}}')"
    )


@dataclass(frozen=True)
class Launch:
    """How to start pstswm here: which MPI build, which launcher."""

    mpi: str
    launcher: str
    pstswm: Path
    pstrun: Path

    @classmethod
    def create(cls, mpi: str, launcher: str, build: str | None = None, pstswm: str | None = None) -> "Launch":
        check_mpi(mpi)
        check_launcher(launcher)
        binary = Path(pstswm) if pstswm else paths.pstswm(mpi, build)
        if not binary.is_file():
            raise PstlabError(
                f"pstswm not found at {binary}: build it (make build MPI={mpi}) or point --build/--pstswm at it"
            )
        runner = paths.pstrun()
        if not runner.is_file():
            raise PstlabError(f"launcher wrapper not found at {runner} (set PSTSWM_ROOT to the pstswm checkout)")
        return cls(mpi, launcher, binary.resolve(), runner)

    def argv(self, ranks: int, args: list[str] | tuple[str, ...]) -> list[str]:
        return [
            str(self.pstrun),
            "--mpi",
            self.mpi,
            "--launcher",
            self.launcher,
            "-n",
            str(ranks),
            str(self.pstswm),
            *args,
        ]

    def command(self, ranks: int, subcommand: str, args: list[str] | tuple[str, ...]) -> list[str]:
        """argv of `pstswm SUBCOMMAND ARGS...` on `ranks` ranks."""
        return self.argv(ranks, [subcommand, *args])

    def subcommands(self) -> set[str]:
        """The subcommands this pstswm build has (from `pstswm --help`)."""
        argv = self.argv(1, ["--help"])
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
        except subprocess.TimeoutExpired:
            raise PstlabError(f"'{' '.join(argv)}' did not finish in 120 s") from None
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
            raise PstlabError(f"cannot run '{' '.join(argv)}' (exit {done.returncode}): {' / '.join(tail)}")
        return set(re.findall(r"^  (\S+)\s{2,}\S", done.stdout, flags=re.MULTILINE))


@dataclass(frozen=True)
class Outcome:
    returncode: int
    elapsed_s: float
    timed_out: bool


def _stop(proc: subprocess.Popen) -> None:
    """End the launch's process group (the launcher and its ranks): TERM, then KILL after a grace period."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=GRACE_S)
            return
        except subprocess.TimeoutExpired:
            continue


def run(argv: list[str], stdout: Path, stderr: Path, timeout_s: float) -> Outcome:
    """Run argv with output to files; stop it after timeout_s.  Ctrl-C stops it too, then propagates."""
    start = time.monotonic()
    with stdout.open("wb") as out, stderr.open("wb") as err:
        proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            rc = proc.wait(timeout=timeout_s)
            return Outcome(rc, time.monotonic() - start, False)
        except subprocess.TimeoutExpired:
            _stop(proc)
            return Outcome(proc.returncode if proc.returncode is not None else -9, time.monotonic() - start, True)
        except BaseException:
            _stop(proc)
            raise
