"""Per-record-set memory for the costly analyses (the paired verdicts): the box, the answers, the bench
sections and the terminal summary all read the same verdicts of one record set, computed once."""

import functools
import weakref
from collections.abc import Callable
from typing import TypeVar

from pstlab.io.records import RecordSet

T = TypeVar("T")


def per_record_set(fn: Callable[[RecordSet], T]) -> Callable[[RecordSet], T]:
    """fn(rs) once per record set (and its record count: a set that grew is analysed again); the entry
    goes when the record set does, so an id reused by a later object never returns a stale answer."""
    cache: dict[tuple[int, int], T] = {}

    @functools.wraps(fn)
    def wrapper(rs: RecordSet) -> T:
        key = (id(rs), len(rs.records))
        if key not in cache:
            cache[key] = fn(rs)
            weakref.finalize(rs, cache.pop, key, None)
        return cache[key]

    return wrapper
