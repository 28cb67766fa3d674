"""Where pstlab finds pstswm, pstrun, the suites and platforms, and where it writes results.

Installed (P/bin/pstswm from `cmake --install`, or a module): P/bin/pstrun beside it, the suites
and platforms in P/share/pstswm, results under the current directory.  Run from inside a pstswm
checkout (or with $PSTSWM_ROOT): the checkout's build/<mpi>/pstswm, scripts/pstrun, suites/,
platforms/ and results/.  Outside a checkout nothing here reads one.
"""

import os
import shutil
import subprocess
from pathlib import Path

from pstlab.core.errors import PstlabError

MPIS = ("openmpi", "mpich", "system")
DEFAULT_MPI = "openmpi"  # the checkout's default build, as `make run`
ROOT_VAR = "PSTSWM_ROOT"  # a checkout to use wherever pstlab runs (the tests set it)
PSTSWM_VAR = "PSTSWM"  # the pstswm executable, when not given by --pstswm
SHARE_VAR = "PSTSWM_SHARE"  # a share/pstswm directory (suites/, platforms/) to look in first


def _is_root(path: Path) -> bool:
    return (path / "scripts" / "pstrun").is_file() and (path / "suites").is_dir()


def repo_root() -> Path | None:
    """$PSTSWM_ROOT, else the pstswm checkout holding the current directory; None outside one."""
    if env := os.environ.get(ROOT_VAR):
        return Path(env).resolve()
    here = Path.cwd().resolve()
    return next((c for c in (here, *here.parents) if _is_root(c)), None)


def default_build(mpi: str) -> str:
    """build/<mpi>, and for smpi with an smpicc on PATH other than Debian's (a SimGrid from
    scripts/install-simgrid.sh) build/smpi-<its version>, as scripts/dev/build.sh names it: a binary
    only runs under the smpirun of the SimGrid it was built with."""
    smpicc = shutil.which("smpicc") if mpi == "smpi" else None
    if smpicc and Path(smpicc).resolve() != Path("/usr/bin/smpicc").resolve():
        version = subprocess.run([smpicc, "-version"], capture_output=True, text=True, check=False).stdout
        return f"smpi-{version.strip().removeprefix('SimGrid version ')}"
    return mpi


def pstswm(mpi: str, build: str | None = None) -> Path | None:
    """A build's pstswm: BUILD/pstswm, else build/<mpi>/pstswm of the checkout (default_build);
    None outside a checkout."""
    if build:
        return Path(build) / "pstswm"
    root = repo_root()
    return root / "build" / default_build(mpi) / "pstswm" if root else None


def find_pstswm(mpi: str | None = None, build: str | None = None, given: str | None = None) -> tuple[Path | None, str]:
    """The pstswm to run and how it was found: --pstswm, --build DIR, $PSTSWM, the checkout's
    build/<mpi> (when run from a checkout: there if built, or when --mpi names the build), then
    `pstswm` on PATH.  The first one named wins even if it is broken, so a mistake is reported,
    not silently replaced.  (None, where it looked) when there is none."""
    if given:
        return Path(given), "--pstswm"
    if build or mpi == "smpi":  # an SMPI build is never installed: --build DIR or the checkout's
        if (found := pstswm(mpi or DEFAULT_MPI, build)) is None:
            return None, "a checkout's SMPI build (run from the checkout, or give --build DIR)"
        return found, "--build" if build else "the checkout"
    if env := os.environ.get(PSTSWM_VAR):
        return Path(env), f"${PSTSWM_VAR}"
    looked = []
    if (in_checkout := pstswm(mpi or DEFAULT_MPI)) is not None:
        if mpi or in_checkout.is_file():
            return in_checkout, "the checkout"
        looked.append(str(in_checkout))
    if on_path := shutil.which("pstswm"):
        return Path(on_path).absolute(), "PATH"
    return None, " and ".join([*looked, "pstswm on PATH"])


def _homes(binary: Path) -> list[Path]:
    """The directories of binary as named and with its symlinks resolved (a module's bin/ may
    link to the real prefix), each once."""
    named = binary.absolute().parent
    return list(dict.fromkeys([named, binary.resolve().parent]))


def installed_pstrun(binary: Path) -> Path | None:
    """The pstrun installed beside binary (P/bin/pstrun for P/bin/pstswm), or None."""
    return next((d / "pstrun" for d in _homes(binary) if (d / "pstrun").is_file()), None)


def pstrun(binary: Path | None) -> Path | None:
    """The launcher wrapper for binary: the one installed beside it, else the checkout's
    scripts/pstrun, else `pstrun` on PATH; None when there is none."""
    if binary is not None and (beside := installed_pstrun(binary)):
        return beside
    root = repo_root()
    if root and (root / "scripts" / "pstrun").is_file():
        return root / "scripts" / "pstrun"
    on_path = shutil.which("pstrun")
    return Path(on_path).absolute() if on_path else None


def data_dirs(kind: str, binary: Path | None = None) -> list[Path]:
    """Where suites or platforms (kind) are looked up by name, first first: $PSTSWM_SHARE/kind,
    the share directory of binary (P/share/pstswm/kind for P/bin/pstswm), the checkout's kind/,
    then that of a pstswm named by $PSTSWM or on PATH.  Every candidate, existing or not."""
    dirs = [Path(env) / kind] if (env := os.environ.get(SHARE_VAR)) else []
    dirs += [d.parent / "share" / "pstswm" / kind for d in _homes(binary)] if binary else []
    if root := repo_root():
        dirs.append(root / kind)
    others = [b for b in (os.environ.get(PSTSWM_VAR), shutil.which("pstswm")) if b]
    dirs += [d.parent / "share" / "pstswm" / kind for b in others for d in _homes(Path(b))]
    return list(dict.fromkeys(dirs))


def locate(kind: str, name: str, binary: Path | None = None) -> Path:
    """A suite or platform (kind: "suites", "platforms") by path to a .toml file, or by name in
    data_dirs.  An unknown name is refused with where pstlab looked and the names there."""
    what = kind.removesuffix("s")
    candidate = Path(name)
    if candidate.suffix == ".toml" or "/" in name:
        if candidate.is_file():
            return candidate
        raise PstlabError(f"{what} file {name}: no such file")
    dirs = data_dirs(kind, binary)
    for d in dirs:
        if (d / f"{name}.toml").is_file():
            return d / f"{name}.toml"
    existing = [d for d in dirs if d.is_dir()]
    names = sorted({p.stem for d in existing for p in d.glob("*.toml")})
    looked = ", ".join(map(str, existing)) or (
        f"nowhere that exists: {', '.join(map(str, dirs)) or 'no pstswm, no checkout'}; set ${SHARE_VAR}"
    )
    raise PstlabError(
        f"unknown {what} '{name}' (available: {', '.join(names) or 'none'}; looked in {looked}; "
        "or give the path of a .toml file)"
    )


def results_dir() -> Path:
    """results/ of the checkout when run from one, else of the current directory."""
    return (repo_root() or Path.cwd()) / "results"


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write a file whole or not at all: into a temporary beside it, then renamed over it, so a
    reader (or an interrupted pstlab) never sees half a report, preset or manifest."""
    tmp = path.with_name(f".{path.name}.tmp")
    if isinstance(data, str):
        tmp.write_text(data, encoding="utf-8")
    else:
        tmp.write_bytes(data)
    tmp.replace(path)
