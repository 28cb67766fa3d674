"""What the bench modules share: reading the JSON lines a bench script's launches leave in its folder."""

from __future__ import annotations

import json
from pathlib import Path


def records(path: str | Path) -> list[dict]:
    """Every record of one JSON-lines file."""
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def points(path: str | Path) -> list[dict]:
    """The point records of one JSON-lines file."""
    return [r for r in records(path) if r.get("type") == "point"]


def files(folder: str | Path, pattern: str) -> list[Path]:
    """The files of folder matching pattern, sorted by name."""
    return sorted(Path(folder).glob(pattern))
