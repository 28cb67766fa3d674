"""Tie sets named so a person can read them: by what the members share, else a count and the first few.

A best set of 16 protocols joined by '≈' is unreadable in a table cell and useless in a terminal.
The names here say what the set is ("all 16 unordered protocols", "every 0,x and 2,x", "any but
logtrans (6 of 7)") and list at most MAX_INLINE members; the full list goes into a folded section
(`full`), so every member still appears somewhere.
"""

from collections.abc import Iterable

MAX_INLINE = 4  # members listed in a cell or a terminal line, whatever the separator
MAX_LEFT_OUT = 2  # "all N but X, Y" only while the excluded few are shorter to say than the members


def _prefix(alt: str) -> str | None:
    """'0,2+ov' -> '0': a protocol code's first digit (its family in pstswm's catalogue); None for names."""
    code = alt.split("+")[0]
    head, _, tail = code.partition(",")
    return head if head.isdigit() and tail.isdigit() else None


def _ordered(alt: str, ordered: dict[str, bool]) -> bool | None:
    return ordered.get(alt.split("+")[0])


def listed(members: list[str]) -> str:
    """At most MAX_INLINE names; beyond that the first three and how many more."""
    if len(members) <= MAX_INLINE:
        return " ≈ ".join(members)
    return f"{', '.join(members[:3])} and {len(members) - 3} more"


def _by_family(members: list[str], universe: list[str]) -> str | None:
    """'every 0,x and 2,x' when the members are exactly the alternatives of whole protocol families."""
    prefixes = {_prefix(a) for a in members}
    if None in prefixes or len(prefixes) > MAX_INLINE:
        return None
    whole = [a for a in universe if _prefix(a) in prefixes]
    if sorted(whole) != sorted(members) or len(whole) == len(universe):
        return None
    return "every " + " and ".join(f"{p},x" for p in sorted(prefixes)) + f" ({len(members)})"


def _by_class(members: list[str], universe: list[str], ordered: dict[str, bool]) -> str | None:
    """'all 16 unordered protocols', or '13 of the 22 unordered: 0,6, 0,2, 0,5 and 10 more'."""
    classes = {_ordered(a, ordered) for a in members}
    if len(classes) != 1 or None in classes:
        return None
    cls = "ordered" if classes.pop() else "unordered"
    of_class = [a for a in universe if _ordered(a, ordered) == (cls == "ordered")]
    if len(of_class) == len(members):
        return f"all {len(members)} {cls} protocols"
    return f"{len(members)} of the {len(of_class)} {cls}: {listed(members)}"


def name(members: Iterable[str], universe: Iterable[str] = (), ordered: dict[str, bool] | None = None) -> str:
    """A readable name for the tie set `members` (best first) among the alternatives `universe`.

    ordered: protocol code -> whether it is an ordered protocol (from the records' slugs), when known.
    """
    members, universe = list(members), list(universe) or list(members)
    if len(members) <= MAX_INLINE:
        return listed(members)
    if len(members) == len(universe):
        return f"all {len(members)}"
    left_out = [a for a in universe if a not in members]
    if len(left_out) <= MAX_LEFT_OUT:
        return f"any but {', '.join(left_out)} ({len(members)} of {len(universe)})"
    by_class = _by_class(members, universe, ordered or {})
    if by_class and by_class.startswith("all "):  # a whole class says most in fewest words
        return by_class
    return _by_family(members, universe) or by_class or listed(members)


def full(members: Iterable[str]) -> str:
    """Every member, for the folded section that backs a named set."""
    return ", ".join(members)


def catalogue(records: Iterable[dict]) -> dict[str, bool]:
    """Protocol code -> ordered?, from the slugs pstswm writes beside each code ('ordered.sendrecv')."""
    out = {}
    for r in records:
        slug, code = r.get("slug"), r.get("protocol")
        if isinstance(slug, str) and isinstance(code, str) and slug.split(".")[0] in ("ordered", "unordered"):
            out[code] = slug.startswith("ordered")
    return out
