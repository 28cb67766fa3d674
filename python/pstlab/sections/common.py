"""What every bench section shares: the compare metric type and small grouping helpers."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pstlab.grouping import group_by, sort_key  # noqa: F401 (the sections use them from here)
from pstlab.records import number

Key = tuple


@dataclass(frozen=True)
class Metric:
    """One comparable quantity of a bench, keyed by the fields that identify a measurement.

    extract(records) -> {key: (value, detail)}; detail is shown beside the value (e.g. the
    protocol that achieved it).  compare joins A and B on the key.
    """

    title: str
    key_columns: tuple[str, ...]
    value_label: str
    fmt: Callable[[float | None], str]
    higher_is_better: bool
    extract: Callable[[object], dict[Key, tuple[float, str]]]
    note: str = ""


def varying(records: list[dict], keys: Iterable[str]) -> list[str]:
    """The keys whose value differs between records (worth a column)."""
    return [k for k in keys if len({str(r.get(k)) for r in records}) > 1]


def best(records: Iterable[dict], stat: str = "t_min") -> dict | None:
    """The record with the smallest finite `stat`."""
    finite = [r for r in records if number(r, stat) is not None]
    return min(finite, key=lambda r: number(r, stat)) if finite else None


def grid_ranks(grid: str | None) -> int | None:
    """'4x8' -> 32."""
    try:
        px, py = str(grid).lower().split("x")
        return int(px) * int(py)
    except (ValueError, AttributeError):
        return None


MAX_LINE = 120  # characters of a terminal summary line or a report table cell


def joined(head: str, parts: list[str], tail: str = "", sep: str = ", ") -> str:
    """head + parts joined by sep + tail, as many parts as fit in MAX_LINE, then how many more."""
    for shown in range(len(parts), -1, -1):
        more = f"{sep}+{len(parts) - shown} more" if shown < len(parts) else ""
        line = head + sep.join(parts[:shown]) + more + tail
        if len(line) <= MAX_LINE or shown == 0:
            return line
    return head + tail


def with_mark(line: str, mark: str) -> str:
    return f"{line} {mark}" if mark else line
