"""Grouping and natural ordering of records, shared by the verdicts, the bench facts and the report."""

from collections import defaultdict
from collections.abc import Iterable


def group_by(records: Iterable[dict], *keys: str) -> dict[tuple, list[dict]]:
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in records:
        groups[tuple(r.get(k) for k in keys)].append(r)
    return dict(groups)


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
