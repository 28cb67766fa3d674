"""`pstlab reframe`: the reference table of pstswm's ReFrame library (packaging/reframe) for one
system or partition, from results directories of the library's suite (pstswm.toml).

Each figure (a point record of an experiment, named as the library names it) gets its measured
median over launches as the reference, and bounds from its own interval and the launch spread:
the lower bound is the lowest of the 95 % interval's low ends and of the launch values, the upper
the highest of the high ends and of the launch values, each widened by the tolerance; in µs.
Every figure is a positive time, so ReFrame's relative thresholds (value, lower, upper, unit)
express those absolute bounds exactly; the table keeps the absolute bounds beside them.
docs/howto-reframe.md explains the table and its use."""

import json
import math
import re
import statistics
from pathlib import Path

from pstlab.core.errors import PstlabError
from pstlab.io import manifest, records

# The library's experiments (their names in pstswm.toml are their benches') and how a point
# record names its figure: the same table as the library's (pstswm_checks.FIGURES), which
# tests/python/test_reframe_refs.py holds them to.
FIGURES = {
    "swap": "{protocol} {bytes}B cache {cache}",
    "pingpong": "{mode} {direction} {bytes}B",
    "coll": "{op} {bytes}B on {comm_size}",
    "match": "{algorithm} {queue} {order} {wildcard} n={n} length={length}",
    "model": "case {case} T{trunc}L{levels} grid {grid} step",
}
UNIT = "us"
US_PER_S = 1e6
# A ReFrame system or system:partition name (what --system and ReFrame's -system take).
SYSTEM_NAME = re.compile(r"^[A-Za-z0-9_.-]+(:[A-Za-z0-9_.-]+)?$")
DEFAULT_TOLERANCE = 0.10


def reference_key(experiment: str, ranks: int, nodes: int) -> str:
    return f"{experiment} ranks={ranks} nodes={nodes}"


def experiment_of(rec: dict) -> str:
    """The experiment a record came from: its file's name without the launch suffix."""
    return records.LAUNCH_FILE.sub("", str(rec.get("_file", ""))).removesuffix(".jsonl")


def figure(rec: dict) -> tuple[str, float, float, float] | None:
    """(name, value, interval low, interval high) of a point record in µs, or None (not a figure)."""
    if rec.get("type") != "point" or rec.get("bench") not in FIGURES:
        return None
    value = records.number(rec, rec["stat"] if rec.get("stat") else "step_s")
    if value is None:
        return None
    low, high = records.number(rec, "ci_low"), records.number(rec, "ci_high")
    low, high = (value, value) if low is None or high is None else (low, high)
    return FIGURES[rec["bench"]].format(**rec), value * US_PER_S, low * US_PER_S, high * US_PER_S


def bounds(values: list[float], lows: list[float], highs: list[float], tolerance: float) -> dict:
    """One figure's entry: the median and the bounds of its interval and launch spread, widened."""
    ref = statistics.median(values)
    low = min(*lows, *values) * (1 - tolerance)
    high = max(*highs, *values) * (1 + tolerance)
    rel = lambda bound: round(bound / ref - 1, 6)  # noqa: E731
    return {
        "reference": [ref, max(-1.0, rel(max(low, 0.0))), rel(high), UNIT],
        "bounds_us": [max(low, 0.0), high],
        "launches": len(values),
    }


def _experiment_figures(recs: list[dict]) -> dict[str, tuple[list, list, list]]:
    """{figure: (values, interval lows, interval highs)}, one of each per launch."""
    out: dict[str, tuple[list, list, list]] = {}
    for rec in recs:
        if (fig := figure(rec)) is not None:
            name, value, low, high = fig
            for column, v in zip(out.setdefault(name, ([], [], [])), (value, low, high), strict=True):
                column.append(v)
    return out


def _shape(recs: list[dict], where: str) -> tuple[int, int]:
    """(ranks, nodes) of an experiment's run headers, the same in every launch."""
    shapes = {(h.get("ranks"), h.get("nodes")) for h in recs if h.get("type") == "header"}
    if len(shapes) != 1 or not all(isinstance(v, int) for v in next(iter(shapes))):
        raise PstlabError(f"{where}: expected one ranks and nodes in the run headers, found {sorted(shapes)}")
    return next(iter(shapes))


def table_of(results: Path, tolerance: float) -> dict[str, dict]:
    """{reference key: {figure: entry}} of one results directory; every library experiment needed."""
    if results.is_file() or (results.is_dir() and manifest.read(results) is None):
        raise PstlabError(f"{results}: not a results directory of pstlab run (no manifest.json)")
    rs = records.load(results)
    by_experiment: dict[str, list[dict]] = {}
    for rec in rs.records:
        by_experiment.setdefault(experiment_of(rec), []).append(rec)
    out = {}
    for experiment in FIGURES:
        recs = by_experiment.get(experiment, [])
        figures = _experiment_figures(recs)
        if not figures:
            raise PstlabError(
                f"{results}: no point records of the library's experiment '{experiment}' "
                f"({experiment}.jsonl): run the library's suite, share/pstswm/reframe/pstswm.toml"
            )
        ranks, nodes = _shape(recs, f"{results}/{experiment}")
        entries = {name: bounds(*columns, tolerance) for name, columns in sorted(figures.items())}
        out[reference_key(experiment, ranks, nodes)] = entries
    return out


def tolerance_of(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or not 0 <= value < 1000:
        raise PstlabError(f"--tolerance {text!r}: expected a number, a fraction of the bounds such as 0.1 (0 or more)")
    return value


def system_of(text: str) -> str:
    if not SYSTEM_NAME.match(text):
        raise PstlabError(
            f"--system {text!r}: expected a ReFrame system or system:partition name (letters, digits, _ . -)"
        )
    return text


def build(results: list[str], system: str, tolerance: float) -> dict:
    """The whole table: its system, where it comes from, and the references of every directory."""
    references: dict[str, dict] = {}
    for directory in results:
        for key, entries in table_of(Path(directory), tolerance).items():
            if key in references:
                raise PstlabError(f"{directory}: a second set of references for '{key}' (one directory per shape)")
            references[key] = entries
    return {
        "system": system,
        "tolerance": tolerance,
        "results": [str(Path(d).resolve()) for d in results],
        "created": manifest.now(),
        "references": references,
    }


def add_parser(sub, name: str, summary: str) -> None:
    p = sub.add_parser(
        name,
        help=summary,
        description="Write the reference table of pstswm's ReFrame library for one system or partition: each figure's "
        "reference is its median over launches, its bounds its 95 %% interval and launch spread, widened by the "
        "tolerance (docs/howto-reframe.md).",
    )
    p.add_argument("results", nargs="+", help="results directories of the library's suite (one per ranks and nodes)")
    p.add_argument("--system", required=True, help="the ReFrame system or system:partition the table is for")
    p.add_argument(
        "--tolerance",
        default=str(DEFAULT_TOLERANCE),
        help=f"widen every bound by this fraction (default {DEFAULT_TOLERANCE})",
    )
    p.add_argument("--out", required=True, help="the table to write (JSON; PSTSWM_REFERENCES names it to the library)")


def command(args) -> int:
    table = build(args.results, system_of(args.system), tolerance_of(args.tolerance))
    out = Path(args.out)
    partial = out.with_name(out.name + ".partial")
    try:
        partial.write_text(json.dumps(table, indent=1) + "\n")
        partial.replace(out)
    except OSError as e:
        raise PstlabError(f"{out}: cannot write: {e.strerror}") from None
    figures = sum(len(entries) for entries in table["references"].values())
    print(f"pstlab reframe: {figures} references of {len(table['references'])} tests for {args.system} in {out}")
    return 0
