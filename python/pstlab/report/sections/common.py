"""What every bench section shares: line limits, tie-set cells and the folded lists behind them."""

from pstlab.analysis import narrowing
from pstlab.core import tiesets
from pstlab.report.doc import Details, Text
from pstlab.stats import stats, verdicts

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


def full_lists(what: str, sets: list[tuple[str, str, list[str]]]) -> Details | None:
    """A folded section with every member of the tie sets a table names in short (more than MAX_INLINE):
    sets are (configuration, alternative or size, members), one line per configuration."""
    long = [(where, who, members) for where, who, members in sets if len(members) > tiesets.MAX_INLINE]
    if not long:
        return None
    by_where: dict[str, list[str]] = {}
    for where, who, members in long:
        by_where.setdefault(where, []).append(f"{who}: {tiesets.full(members)}")
    lines = "\n".join(f"- {where} — {'; '.join(sets_)}" for where, sets_ in by_where.items())
    return Details(f"Every member of the {len(long)} {what} named in short above", [Text(lines)])


def tie_cell(v: stats.Verdict, ordered: dict[str, bool] | None = None) -> str:
    """A verdict's best set as a readable name, best first (the members in order of their medians)."""
    return tiesets.name(best_first(v), list(v.medians), ordered)


def best_first(v: stats.Verdict) -> list[str]:
    return sorted(v.best_set, key=lambda a: (a != v.best, v.medians[a]))


def level_text(v: stats.Verdict) -> str:
    """The sensitivity class, or what an undetermined one spans ('moderate to high')."""
    lo, hi = v.level_ci
    if v.level == "undetermined" and "n/a" not in (lo, hi):
        return f"{lo} to {hi}"
    return v.level


SEPARATES = f"{narrowing.DIFFERENCE:.0%} separates at"
SEPARATES_NOTE = (
    f"{SEPARATES}: for a tie over launches, the launches at which a real {narrowing.DIFFERENCE:.0%} difference "
    "would leave it at the spread seen, and how many more; 'equal within the margin' when they are already run "
    "(docs/statistics.md)."
)


def separates_cell(c: verdicts.Case) -> str:
    """What it would take to narrow c's tie: '~12 launches (9 more)', 'equal within the margin', or '–'."""
    if c.launches < 2 or c.verdict.decided:
        return "–"
    needed = c.launches_to_separate(narrowing.DIFFERENCE)
    if needed is None:
        return "beyond any run"
    more = needed - c.launches
    return f"~{needed} launches ({more} more)" if more > 0 else "equal within the margin"
