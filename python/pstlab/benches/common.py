"""What every bench's facts share: the compare metric type and the record helpers (which keys vary,
the fastest record, a grid's rank count)."""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pstlab.io.records import number

Key = tuple


@dataclass(frozen=True)
class Metric:
    """One comparable quantity of a bench, keyed by the fields that identify a measurement.

    extract(records) -> {key: (value, detail)}; detail is shown beside the value (e.g. the
    protocol that achieved it), fmt (a pstlab.core.units formatter) shows the value.  compare
    joins A and B on the key.
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
