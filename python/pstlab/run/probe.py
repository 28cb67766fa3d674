"""Ask an executable whether it is pstswm: `PROGRAM --version`, run directly as an MPI singleton
(no launcher), must print a first line starting "pstswm "."""

import os
import re
import subprocess
from pathlib import Path

from pstlab.core.errors import PstlabError

TIMEOUT_S = 30.0
FLAVOUR = re.compile(r"^MPI flavour: ([A-Za-z0-9._-]+)$", re.MULTILINE)  # as pstswm --version prints it


def _environment() -> dict[str, str]:
    """Open MPI refuses to start as root unless told twice; a singleton is no exception."""
    if os.geteuid() != 0:
        return dict(os.environ)
    return {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def version(binary: Path, how: str = "--pstswm") -> str:
    """The whole `binary --version` output; PstlabError (exit 2) when binary is no executable file,
    does not answer in time, or is another program."""
    if not binary.is_file() or not os.access(binary, os.X_OK):
        state = "is not an executable file" if binary.exists() else "does not exist"
        raise PstlabError(f"pstswm {binary} (from {how}) {state}")
    try:
        done = subprocess.run(
            [str(binary.absolute()), "--version"],  # a bare name would be looked up on PATH
            capture_output=True,
            text=True,
            errors="replace",
            stdin=subprocess.DEVNULL,
            timeout=TIMEOUT_S,
            env=_environment(),
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise PstlabError(f"pstswm {binary} (from {how}): '--version' did not answer in {TIMEOUT_S:g} s") from None
    except OSError as e:
        raise PstlabError(f"pstswm {binary} (from {how}) cannot run: {e.strerror}") from None
    first = done.stdout.lstrip().partition("\n")[0]
    if done.returncode != 0 or not first.startswith("pstswm "):
        said = first or done.stderr.strip().partition("\n")[0]
        raise PstlabError(
            f"{binary} (from {how}) is not pstswm: '--version' answered {said[:80]!r} (exit {done.returncode})"
        )
    return done.stdout


def flavour(version_text: str) -> str | None:
    """The MPI the pstswm was built for (openmpi, mpich, system, as --mpi names them), from its
    'MPI flavour:' line; None when the version text has none."""
    m = FLAVOUR.search(version_text)
    return m.group(1) if m else None
