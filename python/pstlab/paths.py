"""Where the pstswm checkout is: suites/, scripts/pstrun, build/<mpi>/pstswm, results/."""

import os
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


def pstswm(mpi: str, build: str | None = None) -> Path:
    """The pstswm binary: BUILD/pstswm, default build/<mpi>/pstswm in the checkout."""
    build_dir = Path(build) if build else repo_root() / "build" / mpi
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
