"""What every bench section shares: the compare metric type and small grouping helpers."""

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

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


def group_by(records: Iterable[dict], *keys: str) -> dict[tuple, list[dict]]:
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in records:
        groups[tuple(r.get(k) for k in keys)].append(r)
    return dict(groups)


def varying(records: list[dict], keys: Iterable[str]) -> list[str]:
    """The keys whose value differs between records (worth a column)."""
    return [k for k in keys if len({str(r.get(k)) for r in records}) > 1]


def best(records: Iterable[dict], stat: str = "t_min") -> dict | None:
    """The record with the smallest finite `stat`."""
    finite = [r for r in records if number(r, stat) is not None]
    return min(finite, key=lambda r: number(r, stat)) if finite else None


def sort_key(value) -> tuple:
    """Sort numbers numerically, strings naturally ('1,10' after '1,9'), None last."""
    if value is None:
        return (2, ())
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (0, (value,))
    parts = []
    for token in str(value).replace(",", " , ").replace("x", " x ").split():
        parts.append((0, int(token), "") if token.isdigit() else (1, 0, token))
    return (1, tuple(parts))


def grid_ranks(grid: str | None) -> int | None:
    """'4x8' -> 32."""
    try:
        px, py = str(grid).lower().split("x")
        return int(px) * int(py)
    except (ValueError, AttributeError):
        return None
