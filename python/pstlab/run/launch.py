"""Start pstswm through pstrun (run-as-root, oversubscription, srun, templates): the pstrun
installed beside pstswm, else the checkout's scripts/pstrun (paths.pstrun).

Commands are argv lists, never shell strings: an argument with a space or a quote reaches pstswm
as it is.  Every launch is its own process group with a token in its environment, so a timeout or
Ctrl-C ends the launcher and all its ranks (also ranks outside that group), and nothing else.
A launch is also tied to the pstlab that started it: the kernel sends the launcher SIGTERM when
that pstlab dies, even by SIGKILL (PR_SET_PDEATHSIG), and mpiexec or srun then take their
ranks down, so no orphan goes on writing into the results.
"""

import argparse
import contextlib
import ctypes
import itertools
import os
import re
import signal
import subprocess
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pstlab.core import paths
from pstlab.core.errors import PstlabError
from pstlab.run import probe

LAUNCHERS = ("mpiexec", "srun")
GRACE_S = 5.0
# Every launch's environment carries a token of its own, so that after a timeout the ranks can be
# found and ended even where the launcher moved them out of its process group.
TOKEN_VAR = "PSTLAB_RUN_TOKEN"  # noqa: S105 (a process tag, not a secret)
PR_SET_PDEATHSIG = 1  # <sys/prctl.h>


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


def problem_of(args: list[str] | tuple[str, ...]) -> str | None:
    """'T42L16' from a model or kernel command line's --trunc and --levels; None without both."""
    named = dict(itertools.pairwise(args))
    trunc, levels = named.get("--trunc"), named.get("--levels")
    return f"T{trunc}L{levels}" if trunc and levels else None


def nodes_of(launcher: str) -> int:
    """The nodes a launcher template asks for ('srun -N 2 -n {n}': 2); 1 when it names none."""
    m = re.search(r"(?:^|\s)(?:-N\s*|--nodes[=\s])(\d+)(?:\s|$)", launcher)
    return int(m.group(1)) if m else 1


def add_options(p: argparse.ArgumentParser) -> None:
    """The command-line options that choose the pstswm and how it is launched (pstlab run, tune)."""
    p.add_argument(
        "--mpi",
        help=f"which MPI build to use: {', '.join(paths.MPIS)} (default: an installed pstswm's own, " "else openmpi)",
    )
    p.add_argument(
        "--launcher",
        default="mpiexec",
        help="mpiexec (default), srun, or a template with {n} for the rank count, e.g. 'srun --mpi=pmix -n {n}'",
    )
    p.add_argument("--build", metavar="DIR", help="the pstswm build directory (default build/<mpi> in the checkout)")
    p.add_argument(
        "--pstswm",
        metavar="PATH",
        help=f"the pstswm executable (overrides --build; default ${paths.PSTSWM_VAR}, then build/<mpi> when run "
        "in a pstswm checkout, then pstswm on PATH)",
    )


@dataclass(frozen=True)
class Launch:
    """How to start pstswm here: which MPI build, which launcher."""

    mpi: str  # the MPI, as manifests and results directories name it
    launcher: str
    pstswm: Path
    pstrun: Path
    # A simulated platform (the SMPI build, docs/predict.md) and this host's MFlop/s per problem,
    # which scale measured compute time to the platform's rate for that problem.
    platform: Path | None = None
    host_mflops: tuple[tuple[str, float], ...] = ()
    # False: pstrun is the one installed with this pstswm and knows its MPI, so it gets no --mpi.
    mpi_option: bool = True

    @classmethod
    def create(
        cls,
        mpi: str | None,
        launcher: str,
        build: str | None = None,
        pstswm: str | None = None,
        platform: Path | None = None,
        host_mflops: dict[str, float] | None = None,
    ) -> "Launch":
        """mpi None: the installed pstrun's own MPI for an installed pstswm, else openmpi."""
        simulated = platform is not None and mpi == "smpi"  # the SMPI build runs only on a platform
        if mpi is not None and not simulated:
            check_mpi(mpi)
        check_launcher(launcher)
        binary, how = paths.find_pstswm(mpi, build, pstswm)
        if binary is None:
            raise PstlabError(f"no pstswm found (looked at {how}): give --pstswm PATH or set ${paths.PSTSWM_VAR}")
        if how in ("--build", "the checkout") and not binary.is_file():
            raise PstlabError(
                f"pstswm not found at {binary}: build it (make build MPI={mpi or paths.DEFAULT_MPI}) "
                "or point --build/--pstswm at it"
            )
        # An SMPI program runs only under smpirun: no singleton to ask.
        version = "" if simulated else probe.version(binary, how)
        runner = paths.pstrun(binary)
        if runner is None:
            raise PstlabError(f"no pstrun beside {binary}, in a pstswm checkout or on PATH: pstrun starts pstswm")
        own = mpi is None and runner == paths.installed_pstrun(binary)
        label = (probe.flavour(version) or "installed") if own else (mpi or paths.DEFAULT_MPI)
        rates = tuple(sorted((host_mflops or {}).items()))
        return cls(label, launcher, binary.resolve(), runner, platform, rates, mpi_option=not own)

    def _simulation(self, args: list[str] | tuple[str, ...]) -> list[str]:
        """pstrun's platform options: the platform, and the compute rate of the problem args run."""
        if self.platform is None:
            return []
        rate = dict(self.host_mflops).get(problem_of(args))
        scaled = ["--problem", problem_of(args), "--host-mflops", f"{rate:.6g}"] if rate else []
        return ["--platform", str(self.platform), *scaled]

    def argv(self, ranks: int, args: list[str] | tuple[str, ...]) -> list[str]:
        return [
            str(self.pstrun),
            *(["--mpi", self.mpi] if self.mpi_option else []),
            "--launcher",
            self.launcher,
            *self._simulation(args),
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
        argv = self.argv(1, ["-h" if self.platform else "--help"])  # smpirun answers --help itself
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


def _ranks_with_token(token: str) -> list[int]:
    """Processes whose environment carries this launch's token (the ranks, wherever the launcher
    put them: another process group, another session)."""
    needle = f"{TOKEN_VAR}={token}".encode()
    pids = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if needle in environ.read_bytes().split(b"\0"):
                pids.append(int(environ.parent.name))
        except (OSError, ValueError):
            continue  # gone, or not ours to read
    return [p for p in pids if p != os.getpid()]


def _kill_stragglers(token: str) -> None:
    """SIGKILL every process of the launch still alive after its process group was stopped."""
    deadline = time.monotonic() + GRACE_S
    while (pids := _ranks_with_token(token)) and time.monotonic() < deadline:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)


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


def _dies_with(parent_pid: int) -> Callable[[], None]:
    """A preexec_fn: the child gets SIGTERM when the process (thread) that forked it dies."""
    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before the fork, not in the child

    def tie() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent_pid:  # the parent died before the tie was made
            os._exit(128 + signal.SIGTERM)

    return tie


def run(argv: list[str], stdout: Path, stderr: Path, timeout_s: float, tags: dict[str, str] | None = None) -> Outcome:
    """Run argv with output to files, tags added to its environment; stop it after timeout_s.
    Ctrl-C stops it too, then propagates; it gets SIGTERM when this pstlab dies."""
    start = time.monotonic()
    token = uuid.uuid4().hex
    env = {**os.environ, **(tags or {}), TOKEN_VAR: token}
    with stdout.open("wb") as out, stderr.open("wb") as err:
        proc = subprocess.Popen(
            argv,
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            env=env,
            preexec_fn=_dies_with(os.getpid()),  # noqa: PLW1509 (pstlab forks from its one thread)
        )
        try:
            rc = proc.wait(timeout=timeout_s)
            return Outcome(rc, time.monotonic() - start, False)
        except subprocess.TimeoutExpired:
            _stop(proc)
            _kill_stragglers(token)
            return Outcome(proc.returncode if proc.returncode is not None else -9, time.monotonic() - start, True)
        except BaseException:
            _stop(proc)
            _kill_stragglers(token)
            raise
