"""manifest.json of a results directory: the suite, the MPI, the launcher and every experiment's
status (`pstlab run` writes it; the reports, resume and predict read it).  Read and checked here,
written here, atomically."""

import datetime
import json
from pathlib import Path

from pstlab.core import paths
from pstlab.core.errors import PstlabError

MANIFEST = "manifest.json"


def now() -> str:
    """A manifest's time stamp: UTC, to the second."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def check(manifest: object, path: Path) -> dict:
    """A manifest.json's content, or PstlabError naming the file and what is wrong."""
    if not isinstance(manifest, dict):
        raise PstlabError(f"{path}: malformed manifest (expected a JSON object, got {type(manifest).__name__})")
    experiments = manifest.get("experiments", [])
    if not isinstance(experiments, list):
        raise PstlabError(f"{path}: malformed manifest ('experiments' must be a list)")
    for i, entry in enumerate(experiments):
        if not isinstance(entry, dict):
            raise PstlabError(f"{path}: malformed manifest (experiment {i} is not an object)")
        for key, kind in (("name", str), ("file", str), ("status", str), ("launch", int), ("args", list)):
            if key in entry and not isinstance(entry[key], kind) or (key == "name" and key not in entry):
                what = f"experiment {i}: '{key}' missing or not a {kind.__name__}"
                raise PstlabError(f"{path}: malformed manifest ({what})")
    return manifest


def read(directory: Path) -> dict | None:
    """The checked manifest of a results directory; None when it has none."""
    path = directory / MANIFEST
    if not path.is_file():
        return None
    try:
        return check(json.loads(path.read_text(encoding="utf-8")), path)
    except json.JSONDecodeError as e:
        raise PstlabError(f"{path}:{e.lineno}: malformed manifest ({e.msg})") from None
    except (RecursionError, UnicodeDecodeError):
        raise PstlabError(f"{path}: malformed manifest (not UTF-8 JSON, or nested too deeply)") from None
    except OSError as e:
        raise PstlabError(f"{path}: cannot read: {e.strerror}") from None


def write(directory: Path, manifest: dict) -> None:
    """Replace manifest.json atomically (an interruption never leaves half a manifest), stamped."""
    manifest["updated"] = now()
    paths.write_atomic(directory / MANIFEST, json.dumps(manifest, indent=2) + "\n")
