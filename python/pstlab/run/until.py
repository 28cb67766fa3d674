"""`pstlab run SUITE --until DURATION`: spend a wall-clock budget on the widest ties, launch by launch.

After the suite's own launches, one more launch at a time goes to the repeated kernel or swap
experiment whose wide ties (analysis/narrowing.py) are widest among those that more launches can
still narrow, while the time left covers its launch at the median of its earlier ones.  It stops
early when no wide tie can be narrowed: every one equal within the margin at the precision reached,
or beyond any run.  The budget counts every launch's elapsed_s in the manifest, so an interrupted
run resumed with --resume --until spends only what is left, and its added launches (marked
"added": "until" in the manifest) are kept and finished like the suite's own.
"""

import re
import statistics
from pathlib import Path

from pstlab.analysis import narrowing
from pstlab.benches.registry import BENCHES
from pstlab.core.errors import PstlabError
from pstlab.io.records import RecordSet, load_file
from pstlab.run import suites
from pstlab.run.plan import record_file

ADDED = "until"
VERDICT_BENCHES = {b.BENCH: b for b in BENCHES if b.BENCH in ("kernel", "swap")}
_UNITS_S = {"h": 3600, "m": 60, "s": 1}
_DURATION = re.compile(r"(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s?)?")


def parse_duration(text: str) -> float:
    """'300', '300s', '5m', '1h30m', '2.5m' -> seconds; PstlabError for anything else or <= 0."""
    found = _DURATION.fullmatch(text.strip())
    if not text.strip() or found is None or not any(found.groups()):
        raise PstlabError(f"--until {text!r}: not a duration (give e.g. 300, 90s, 5m or 1h30m)")
    seconds = sum(float(v) * unit for v, unit in zip(found.groups(), _UNITS_S.values(), strict=True) if v)
    if seconds <= 0:
        raise PstlabError(f"--until {text!r}: the budget must be more than zero")
    return seconds


def adaptive(suite: suites.Suite) -> list[suites.Experiment]:
    """The experiments --until may add launches to: repeated, with kernel or swap verdicts."""
    found = [e for e in suite.experiments if e.launches > 1 and e.subcommand in VERDICT_BENCHES]
    if not found:
        raise PstlabError(
            f"--until: suite '{suite.name}' has no experiment with several launches of kernel or swap "
            "verdicts to add launches to"
        )
    return found


def spent_s(manifest: dict) -> float:
    return sum(float(e.get("elapsed_s") or 0) for e in manifest["experiments"])


def _entries(manifest: dict, name: str) -> list[dict]:
    return [e for e in manifest["experiments"] if e["name"] == name]


def _score(directory: Path, manifest: dict, exp: suites.Experiment) -> float:
    """The summed width of exp's wide ties that more launches can narrow (0: none)."""
    files = [directory / e["file"] for e in _entries(manifest, exp.name) if e.get("status") == "done"]
    records = [r for f in files if f.is_file() for r in load_file(f)]
    cases = VERDICT_BENCHES[exp.subcommand].verdict_cases(RecordSet(directory, records, manifest))
    return sum(t.share for t in narrowing.wide_ties(cases) if t.more)


def next_launch(directory: Path, manifest: dict, candidates: list[suites.Experiment]) -> suites.Experiment | None:
    """The experiment whose narrowable ties are widest, or None when none can be narrowed."""
    scores = {e.name: _score(directory, manifest, e) for e in candidates}
    best = max(candidates, key=lambda e: scores[e.name])
    return best if scores[best.name] > 0 else None


def launch_estimate_s(manifest: dict, name: str) -> float:
    return statistics.median(float(e["elapsed_s"]) for e in _entries(manifest, name) if e.get("elapsed_s"))


def add_launch(manifest: dict, exp: suites.Experiment) -> dict:
    """A new pending launch of exp at the end of the manifest, marked as --until's."""
    k = max(e.get("launch", 1) for e in _entries(manifest, exp.name)) + 1
    entry = {
        "name": exp.name,
        "launch": k,
        "file": record_file(exp.name, k, k),
        "subcommand": exp.subcommand,
        "ranks": exp.ranks,
        "args": exp.launch_args(k),
        "digest": exp.digest,
        "status": "pending",
        "added": ADDED,
    }
    manifest["experiments"].append(entry)
    return entry


def spend(session, suite: suites.Suite, budget_s: float) -> None:
    """Add launches while the budget lasts and a wide tie can still be narrowed (session: run._Session)."""
    candidates = adaptive(suite)
    session.manifest["until_s"] = budget_s
    while True:
        left = budget_s - spent_s(session.manifest)
        exp = next_launch(session.directory, session.manifest, candidates)
        if exp is None:
            session.echo("pstlab: --until: no wide tie left that more launches would narrow; stopping early")
            return
        estimate = launch_estimate_s(session.manifest, exp.name)
        if estimate > left:
            session.echo(
                f"pstlab: --until: {left:.0f} s of the budget left, a launch of {exp.name} takes ~{estimate:.0f} s"
            )
            return
        entry = add_launch(session.manifest, exp)
        session.save()
        session.step(len(session.jobs), entry)
