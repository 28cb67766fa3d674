"""Where the pstswm checkout is: suites/, scripts/pstrun, build/<mpi>/pstswm, results/."""

import os
import shutil
import subprocess
from pathlib import Path

MPIS = ("openmpi", "mpich", "system")


def _is_root(path: Path) -> bool:
    return (path / "scripts" / "pstrun").is_file() and (path / "suites").is_dir()


def repo_root() -> Path:
    """$PSTSWM_ROOT, else the checkout holding the current directory, else the one holding this package."""
    if env := os.environ.get("PSTSWM_ROOT"):
        return Path(env).resolve()
    here = Path.cwd().resolve()
    for candidate in (here, *here.parents):
        if _is_root(candidate):
            return candidate
    package_checkout = Path(__file__).resolve().parents[2]
    return package_checkout if _is_root(package_checkout) else here


def suites_dir() -> Path:
    return repo_root() / "suites"


def pstrun() -> Path:
    return repo_root() / "scripts" / "pstrun"


def default_build(mpi: str) -> str:
    """build/<mpi>, and for smpi with an smpicc on PATH other than Debian's (a SimGrid from
    scripts/install-simgrid.sh) build/smpi-<its version>, as scripts/build.sh names it: a binary
    only runs under the smpirun of the SimGrid it was built with."""
    smpicc = shutil.which("smpicc") if mpi == "smpi" else None
    if smpicc and Path(smpicc).resolve() != Path("/usr/bin/smpicc").resolve():
        version = subprocess.run([smpicc, "-version"], capture_output=True, text=True, check=False).stdout
        return f"smpi-{version.strip().removeprefix('SimGrid version ')}"
    return mpi


def pstswm(mpi: str, build: str | None = None) -> Path:
    """The pstswm binary: BUILD/pstswm, default build/<mpi>/pstswm in the checkout (default_build)."""
    build_dir = Path(build) if build else repo_root() / "build" / default_build(mpi)
    return build_dir / "pstswm"


def results_dir() -> Path:
    return repo_root() / "results"


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write a file whole or not at all: into a temporary beside it, then renamed over it, so a
    reader (or an interrupted pstlab) never sees half a report, preset or manifest."""
    tmp = path.with_name(f".{path.name}.tmp")
    if isinstance(data, str):
        tmp.write_text(data, encoding="utf-8")
    else:
        tmp.write_bytes(data)
    tmp.replace(path)
