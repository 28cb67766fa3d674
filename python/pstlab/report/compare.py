"""`pstlab compare A B`: two result sets side by side (e.g. Open MPI vs MPICH, or two machines).

Each metric is a value per key (a message size, a protocol, a kernel configuration) per launch.
B/A is the ratio of the geometric means over launches, and its interval comes from Welch's t on
the logarithms: the launch is the unit of replication, so the variation between launches (job
placement, host load, allocator state) counts.  One launch per side gives a ratio and no interval.
The p-values of every compared value are adjusted together (Holm), so a report of hundreds of
values does not call some of them different by chance, and each interval shown is at the level
Holm's step-down tested it at, so it excludes 1 exactly when its row is called different.

`--fail-above PCT` asks another question of other numbers: is B shown to be slower than A by more
than PCT?  It takes each launch's medians (t_med, not the t_min the tables show: a minimum over
hundreds of samples has no usable interval), tests per row "slowdown > PCT" one-sided, Holm over
the rows gated, and fails only where the lower end of the adjusted interval is above 1 + PCT.  A
row with fewer than three launches on a side is not gated, and the gate says so.
"""

import datetime
import math
from dataclasses import dataclass
from pathlib import Path

from pstlab import __version__
from pstlab.analysis.metric_rows import Row, all_rows, per_launch
from pstlab.benches.common import Metric
from pstlab.benches.registry import BENCHES
from pstlab.core import paths
from pstlab.core.errors import PstlabError
from pstlab.core.grouping import sort_key
from pstlab.core.units import fmt_bytes, fmt_ratio
from pstlab.io import placement
from pstlab.io.records import RecordSet, load, number
from pstlab.report import doc
from pstlab.report.doc import Section, Table, Text
from pstlab.report.sections.registry import REPORTED
from pstlab.stats import stats
from pstlab.stats.ratios import CONFIDENCE, LogRatio, holm_levels, log_ratio

MIN_GATE_LAUNCHES = 3  # fewer, and Welch's interval is too wide or too fragile to gate a CI on


class GateFailed(PstlabError):
    """`--fail-above`: B is significantly slower than allowed somewhere."""

    exit_code = 1


def _key_cell(column: str, value) -> str:
    if value is None:
        return "–"
    return fmt_bytes(value) if column == "bytes" and isinstance(value, int | float) else str(value)


def _median(values: list[float]) -> float:
    s = sorted(values)
    return s[len(s) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2


def _interval(bounds: tuple[float, float] | None) -> str:
    return f"[{bounds[0]:.2f}, {bounds[1]:.2f}]" if bounds is not None else "–"


def counts(rows: list[Row]) -> dict[str, int]:
    out = {"A": 0, "B": 0, "≈": 0, "untested": 0, "–": 0}
    for r in rows:
        out[r.better()] += 1
    return out


def metric_table(rows: list[Row]) -> Table:
    metric = rows[0].metric
    details = any(r.detail_a or r.detail_b for r in rows)
    launches = max(len(r.a) for r in rows), max(len(r.b) for r in rows)
    body = []
    for r in rows:
        body.append(
            [
                *(_key_cell(c, v) for c, v in zip(metric.key_columns, r.key, strict=True)),
                metric.fmt(_median(r.a)),
                *([r.detail_a] if details else []),
                metric.fmt(_median(r.b)),
                *([r.detail_b] if details else []),
                fmt_ratio(r.test.ratio if r.test else None),
                _interval(r.interval()),
                f"{r.p_adjusted:.2g}" if r.p_adjusted is not None else "–",
                r.better(),
            ]
        )
    w = counts(rows)
    better = "higher" if metric.higher_is_better else "lower"
    columns = [
        *metric.key_columns,
        f"A {metric.value_label}",
        *(["A detail"] if details else []),
        f"B {metric.value_label}",
        *(["B detail"] if details else []),
        "B/A",
        "CI (Holm)",
        "p (Holm)",
        "better",
    ]
    note = (
        f"{better.capitalize()} is better. Values are medians over launches (A: up to {launches[0]}, B: up to "
        f"{launches[1]}); B/A is the ratio of geometric means over launches with Welch's interval at the level "
        f"Holm's step-down tested it at ({CONFIDENCE:.0%} over every value this comparison tests), and p is adjusted "
        "the same way. 'better' names a side only when the difference is significant (the interval excludes 1); "
        "≈: no significant difference; untested: one launch on a side (run "
        "`pstlab run SUITE --launches 3`); –: a value is not positive (no ratio to take). "
        f"B better in {w['B']}, A in {w['A']}, no significant difference in {w['≈']}, untested in "
        f"{w['untested']}, not comparable in {w['–']} of {len(rows)}. {metric.note}"
    )
    return Table(metric.title, columns, body, note.strip())


def sections(a: RecordSet, b: RecordSet, rows: dict[str, list[Row]]) -> list[Section]:
    out = []
    for bench, section in REPORTED:
        has_a, has_b = a.has(bench.BENCH), b.has(bench.BENCH)
        if not (has_a or has_b):
            continue
        sec = Section(section.TITLE)
        if not (has_a and has_b):
            sec.add(Text(f"Only {'A' if has_a else 'B'} has {bench.BENCH} records; nothing to compare."))
            out.append(sec)
            continue
        for metric in bench.METRICS:
            if metric.title in rows:
                sec.add(metric_table(rows[metric.title]))
        sec.add(*section.overlay([("A", a), ("B", b)]))
        out.append(sec)
    return out


def verdicts(rows: dict[str, list[Row]]) -> list[str]:
    """One line per compared quantity: who is significantly better how often (for the terminal)."""
    lines = []
    for title, rs in rows.items():
        w = counts(rs)
        line = f"{title}: B better in {w['B']}, A in {w['A']}, no significant difference in {w['≈']}"
        line += f", untested in {w['untested']}" if w["untested"] else ""
        lines.append(line + (f", not comparable in {w['–']}" if w["–"] else ""))
    return lines


@dataclass
class GateRow:
    """One value the gate judges: a metric's selection over each launch's medians, A and B."""

    metric: Metric
    key: tuple
    a: list[float]  # one value per launch
    b: list[float]
    test: LogRatio | None = None  # B/A; None when not gated
    p: float | None = None  # one-sided: the chance of a slowdown this large if it were at most the allowance
    level: float | None = None  # the tail of a two-sided interval Holm's step-down tested it at

    def where(self) -> str:
        key = ", ".join(_key_cell(c, v) for c, v in zip(self.metric.key_columns, self.key, strict=True))
        return f"{self.metric.title} [{key}]"

    def _log_worse(self) -> float:
        """ln of how many times worse B is: B/A where lower is better, A/B where higher is."""
        log_ratio_ = math.log(self.test.ratio)
        return -log_ratio_ if self.metric.higher_is_better else log_ratio_

    def worse_interval(self) -> tuple[float, float]:
        """The worse factor's two-sided interval with the row's Holm level in each tail (95 % for a
        single row): its lower end is above 1 + PCT exactly when the row fails."""
        half = stats.t_quantile(self.level, self.test.df) * self.test.se if self.test.se else 0.0
        return math.exp(self._log_worse() - half), math.exp(self._log_worse() + half)

    @property
    def fails(self) -> bool:
        return self.p is not None and self.p < self.level


def _medians_for_minima(rs: RecordSet) -> RecordSet:
    """rs with each point's t_min replaced by its t_med.  The metrics select and show t_min, the
    papers' statistic; the gate asks them for the same selection made over medians instead."""
    records = [
        dict(r, t_min=r["t_med"]) if r["type"] == "point" and number(r, "t_med") is not None else r for r in rs.records
    ]
    return RecordSet(rs.path, records, rs.manifest)


def gate_rows(a: RecordSet, b: RecordSet, fail_above_pct: float) -> list[GateRow]:
    """Every value both sides have, from per-launch medians; those with MIN_GATE_LAUNCHES launches a
    side and a ratio tested one-sided for 'B worse by more than PCT', Holm over the tested ones."""
    ma, mb = _medians_for_minima(a), _medians_for_minima(b)
    rows = []
    for bench in BENCHES:
        if not (a.has(bench.BENCH) and b.has(bench.BENCH)):
            continue
        for metric in bench.METRICS:
            va, vb = per_launch(metric, ma), per_launch(metric, mb)
            for k in sorted(set(va) & set(vb), key=lambda k: [sort_key(x) for x in k]):
                rows.append(GateRow(metric, k, va[k][0], vb[k][0]))
    bound = math.log1p(fail_above_pct / 100)
    tested = []
    for r in rows:
        if min(len(r.a), len(r.b)) < MIN_GATE_LAUNCHES or (t := log_ratio(r.a, r.b)) is None:
            continue
        r.test = t
        excess = r._log_worse() - bound
        r.p = stats.t_tail(excess / t.se, t.df) if t.se else (0.0 if excess > 0 else 1.0)
        tested.append(r)
    # The lower end of a two-sided interval is a one-sided test at half its level.
    for r, level in zip(tested, holm_levels([r.p for r in tested], (1 - CONFIDENCE) / 2), strict=True):
        r.level = level
    return rows


def gate(a: RecordSet, b: RecordSet, fail_above_pct: float) -> list[GateRow]:
    """The gate's rows; refuses when not one of them has the launches to be gated."""
    rows = gate_rows(a, b, fail_above_pct)
    if not any(r.test is not None for r in rows):
        na, nb = len(a.launches()), len(b.launches())
        raise PstlabError(
            f"--fail-above needs {MIN_GATE_LAUNCHES} or more launches on each side (A has {na}, B has {nb}) of at "
            f"least one compared value: run each with `pstlab run SUITE --launches {MIN_GATE_LAUNCHES}`"
        )
    return rows


def gate_lines(rows: list[GateRow], fail_above_pct: float) -> tuple[list[str], list[str], list[str]]:
    """(summary, one line per failure, one line per value not gated)."""
    tested = [r for r in rows if r.test is not None]
    failures = []
    for r in (r for r in tested if r.fails):
        lo, hi = r.worse_interval()
        which = "A/B" if r.metric.higher_is_better else "B/A"
        failures.append(
            f"{r.where()}: B worse by {math.exp(r._log_worse()) - 1:.1%} ({which} of per-launch medians "
            f"{math.exp(r._log_worse()):.3f}, Holm-adjusted interval [{lo:.3f}, {hi:.3f}], lower end above "
            f"{1 + fail_above_pct / 100:.3f})"
        )
    skipped = [
        f"{r.where()}: " + ("a value is not positive" if min(len(r.a), len(r.b)) >= MIN_GATE_LAUNCHES else
                            f"A has {len(r.a)}, B has {len(r.b)} launches")
        for r in rows
        if r.test is None
    ]  # fmt: skip
    summary = (
        f"Gate (--fail-above {fail_above_pct:g}): {len(failures)} of {len(tested)} values show B slower than A by more "
        f"than {fail_above_pct:g} % (per-launch medians, Holm)"
    )
    if skipped:
        summary += f"; {len(skipped)} not gated"
    return [summary], failures, skipped


def default_out(a: Path, b: Path) -> Path:
    return paths.results_dir() / f"compare-{a.resolve().name}-vs-{b.resolve().name}"


def write(
    path_a: str | Path, path_b: str | Path, out: str | Path | None = None, fail_above_pct: float | None = None
) -> tuple[Path, Path, list[str]]:
    """Write compare.md/.html; return their paths and the terminal lines.  With fail_above_pct,
    raise GateFailed (exit 1) after writing when B is significantly worse than that anywhere."""
    a, b = load(path_a), load(path_b)
    if fail_above_pct is not None and not (math.isfinite(fail_above_pct) and fail_above_pct >= 0):
        raise PstlabError(f"--fail-above must be a percentage >= 0, got {fail_above_pct:g}")
    out_dir = Path(out) if out else default_out(Path(path_a), Path(path_b))
    out_dir.mkdir(parents=True, exist_ok=True)
    moved = placement.differ(a, b)
    if moved and fail_above_pct is not None:
        raise PstlabError(f"--fail-above will not gate: {moved}; a slowdown would be the placement's as much as B's")
    rows = all_rows(a, b)
    summary, failures, skipped = [], [], []
    if fail_above_pct is not None:
        summary, failures, skipped = gate_lines(gate(a, b, fail_above_pct), fail_above_pct)
    secs = sections(a, b, rows)
    title = f"pstswm comparison: {a.label()} vs {b.label()}"
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    intro = (
        f"A = `{a.path}` ({a.label()}, {len(a.launches())} launch(es)); B = `{b.path}` ({b.label()}, "
        f"{len(b.launches())} launch(es)). Generated by pstlab {__version__} on {now}. Ratios are B/A of the "
        "value shown; each table says whether higher or lower is better."
    )
    if moved:
        intro += f" **Warning: {moved}**: inside a node and across nodes the library takes other paths."
    if fail_above_pct is not None:
        how = (
            "Each value is taken once per launch from the launches' medians (t_med); B is shown slower than allowed "
            "where the lower end of its interval, adjusted by Holm's step-down over every value gated, is above "
            f"1 + {fail_above_pct:g} %. A value with fewer than {MIN_GATE_LAUNCHES} launches on a side, or without "
            "a ratio (a value not positive), is not gated."
        )
        gate_text = [Text(summary[0] + ". " + how)]
        gate_text += [Text("Failing:\n" + "\n".join(failures))] if failures else []
        gate_text += [Text("Not gated:\n" + "\n".join(skipped))] if skipped else []
        secs.insert(0, Section(f"Gate: is B slower than A by more than {fail_above_pct:g} %?", gate_text))
    doc.write_figures(secs, out_dir / "plots")
    md_path, html_path = out_dir / "compare.md", out_dir / "compare.html"
    paths.write_atomic(md_path, doc.to_markdown(title, intro, secs, "plots"))
    paths.write_atomic(html_path, doc.to_html(title, intro, secs))
    lines = ([f"warning: {moved}"] if moved else []) + verdicts(rows) + summary + [f"  not gated: {s}" for s in skipped]
    if failures:
        raise GateFailed(
            f"{len(failures)} slowdown(s) shown above {fail_above_pct:g} % (report: {md_path}):\n  "
            + "\n  ".join(failures + [f"not gated: {s}" for s in skipped])
        )
    return md_path, html_path, lines


def add_parser(sub, name: str, summary: str) -> None:
    p = sub.add_parser(name, help=summary)
    p.add_argument("a", help="results directory A")
    p.add_argument("b", help="results directory B")
    p.add_argument("--out", metavar="DIR", help="where to write compare.md/.html (default results/compare-A-vs-B)")
    p.add_argument(
        "--fail-above",
        type=float,
        metavar="PCT",
        help="exit 1 when B is significantly (Holm-adjusted, 95 %%) worse than A by more than PCT %% anywhere; "
        "needs 3 or more launches on each side (pstlab run --launches 3), else exit 2",
    )


def command(args) -> int:
    md, html, lines = write(args.a, args.b, args.out, args.fail_above)
    print("\n".join(lines))
    print(f"pstlab: wrote {md} and {html}")
    return 0
