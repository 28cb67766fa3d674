"""Read pstswm's JSON Lines records (the record format: docs/running.md, Output format) and check them.

Every line is one JSON object with at least `bench`, `type` (header, point, summary, or a bench's
own kind such as the model's per-step "diag") and `run_id`; statistics, when present, are numbers
(or null for a non-finite value).  Readers use the fields they know and ignore the
rest, so a newer pstswm that adds fields still reports.  A malformed line is an error that names
its file and line: pstswm writes a line whole or not at all, so a broken line means a damaged or
foreign file and silently skipping it would hide that.
"""

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from pstlab.core.errors import PstlabError
from pstlab.io import manifest, schema

TIME_FIELDS = ("t_min", "t_med", "t_mean", "t_max")
# `pstlab run --launches N` writes launch k of an experiment to <experiment>-L<k>.jsonl.
LAUNCH_FILE = re.compile(r"-L([0-9]+)\.jsonl$")


# The newest record schema this pstlab reads: its copy of pstswm's (pstlab.schema; docs/running.md, Output
# format).  Older versions are read (a header without `schema_version` is version 1, and the
# readers keep fallbacks for renamed fields); a newer one is refused, since a renamed field would
# be misread.
SCHEMA_VERSION = schema.load().version


def schema_version(header: dict) -> int:
    value = header.get("schema_version", 1)
    return value if isinstance(value, int) and not isinstance(value, bool) else 1


def launch_of(rec: dict) -> int:
    """The launch a record came from: k of an <experiment>-L<k>.jsonl file, else 1."""
    m = LAUNCH_FILE.search(str(rec.get("_file", "")))
    return int(m.group(1)) if m else 1


def _check(rec: object, version: int) -> str | None:
    """The reason a decoded line is not a record of schema `version` (its file's header), or None.

    Every record of a kind the schema knows is checked against it (pstlab.schema): each value's
    type, and for the current version every required field; null only where pstswm may write it
    (pstlab.schema.null_ok).  Fields and record kinds the schema does not know pass unchecked:
    readers ignore them, so a newer pstswm that adds some still reports."""
    if not isinstance(rec, dict):
        return f"expected a JSON object, got {type(rec).__name__}"
    for key in ("bench", "type", "run_id"):
        if not isinstance(rec.get(key), str) or not rec[key]:
            return f"missing or empty string field '{key}'"
    known = schema.load()
    if rec.get("summary") is not None and not isinstance(rec["summary"], str):
        return f"field 'summary' must be of type string, got {json.dumps(rec['summary'])[:40]}"
    if known.fields(rec) is None:  # a kind this pstlab does not know: its readers skip it
        return None
    problems = [p for p in known.problems(rec, version) if not p.endswith("is not in the schema")]
    since_v1 = schema.REQUIRED_SINCE_V1.get((rec["bench"], rec["type"]), ())
    problems += [f"required field '{name}' missing" for name in since_v1 if name not in rec and version < known.version]
    return "; ".join(problems[:3]) or None


def parse_line(text: str, where: str, version: int = 1) -> dict:
    """One record from one line of a file of schema `version`; `where` is 'file:line' for the
    error message."""
    try:
        rec = json.loads(text, parse_constant=lambda c: math.nan)
    except json.JSONDecodeError as e:
        raise PstlabError(f"{where}: malformed record (not JSON: {e.msg} at column {e.colno})") from None
    except RecursionError:
        raise PstlabError(f"{where}: malformed record (nested too deeply)") from None
    if isinstance(rec, dict) and rec.get("type") == "header":
        version = schema_version(rec)  # a header is read by its own schema version
    if reason := _check(rec, version):
        raise PstlabError(f"{where}: malformed record ({reason})")
    return rec


def load_file(path: Path) -> list[dict]:
    records = []
    version = 1  # until a header says otherwise: lines before any header are of an unknown, old schema
    try:
        with path.open(encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                if line.strip():
                    rec = parse_line(line, f"{path}:{lineno}", version)
                    if rec["type"] == "header" and schema_version(rec) > SCHEMA_VERSION:
                        raise PstlabError(
                            f"{path}:{lineno}: written by pstswm {rec.get('version', '?')} with record schema "
                            f"{schema_version(rec)}; this pstlab reads schemas up to {SCHEMA_VERSION}: use the "
                            "pstlab of that pstswm"
                        )
                    if rec["type"] == "header":
                        version = schema_version(rec)
                    rec["_file"] = path.name
                    records.append(rec)
    except UnicodeDecodeError:
        raise PstlabError(f"{path}: not a text file of JSON records") from None
    except OSError as e:
        raise PstlabError(f"{path}: cannot read: {e.strerror}") from None
    return records


def record_files(path: Path) -> list[Path]:
    """The record files of a results directory (its *.jsonl, not subdirectories), or the file itself."""
    if not path.exists():
        raise PstlabError(f"{path}: no such file or directory")
    if path.is_file():
        return [path]
    files = sorted(p for p in path.glob("*.jsonl") if p.is_file())
    if not files:
        raise PstlabError(f"{path}: no record files (*.jsonl) in this directory")
    return files


@dataclass
class RecordSet:
    """All records of one results directory (or one file)."""

    path: Path
    records: list[dict] = field(default_factory=list)
    manifest: dict | None = None

    def select(self, bench: str | None = None, type: str | None = None, **equal) -> list[dict]:
        """Records of a bench and type whose fields equal the given values."""
        return [
            r
            for r in self.records
            if (bench is None or r["bench"] == bench)
            and (type is None or r["type"] == type)
            and all(r.get(k) == v for k, v in equal.items())
        ]

    def points(self, bench: str) -> list[dict]:
        return self.select(bench, "point")

    def summaries(self, bench: str, kind: str | None = None) -> list[dict]:
        return [r for r in self.select(bench, "summary") if kind is None or r.get("summary") == kind]

    def headers(self) -> list[dict]:
        return self.select(type="header")

    def has(self, bench: str) -> bool:
        """True when the bench has measurements here (a header alone is not enough to report on)."""
        return any(r["bench"] == bench and r["type"] != "header" for r in self.records)

    def launches(self) -> list["RecordSet"]:
        """One record set per launch (files of launch k of every experiment), in launch order."""
        by_launch: dict[int, list[dict]] = {}
        for r in self.records:
            by_launch.setdefault(launch_of(r), []).append(r)
        return [RecordSet(self.path, by_launch[k], self.manifest) for k in sorted(by_launch)]

    def footers(self) -> list[dict]:
        return self.select(type="footer")

    def label(self) -> str:
        """A short name for this result set: the MPI it was built with, else the directory name."""
        builds = sorted({h.get("mpi_build") for h in self.headers() if h.get("mpi_build")})
        if self.manifest and self.manifest.get("mpi"):
            builds = [self.manifest["mpi"]]
        name = self.path.name if self.path.is_dir() else self.path.stem
        return f"{name} ({', '.join(builds)})" if builds and builds != [name] else name


def load(path: str | Path) -> RecordSet:
    """Records of a results directory or a single .jsonl file; the manifest if there is one."""
    path = Path(path)
    records: list[dict] = []
    for f in record_files(path):
        records.extend(load_file(f))
    return RecordSet(path, records, manifest.read(path) if path.is_dir() else None)


def number(rec: dict, key: str) -> float | None:
    """A finite numeric field, or None when absent, null or non-finite."""
    value = rec.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)
