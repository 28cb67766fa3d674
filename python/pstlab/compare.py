"""`pstlab compare A B`: two result sets side by side (e.g. Open MPI vs MPICH, or two machines).

Each metric is a value per key (a message size, a protocol, a kernel configuration) per launch.
B/A is the ratio of the geometric means over launches, and its interval comes from Welch's t on
the logarithms: the launch is the unit of replication, so the variation between launches (job
placement, host load, allocator state) counts.  One launch per side gives a ratio and no interval.
The p-values of every compared value are adjusted together (Holm), so a report of hundreds of
values does not call some of them different by chance; `--fail-above` gates on the adjusted ones.
"""

import datetime
import math
from dataclasses import dataclass
from pathlib import Path

from scipy import stats as sps

from pstlab import __version__, doc, paths
from pstlab.doc import Section, Table, Text, fmt_bytes, fmt_ratio
from pstlab.errors import PstlabError
from pstlab.records import RecordSet, load
from pstlab.sections import BENCHES
from pstlab.sections.common import Metric, sort_key

CONFIDENCE = 0.95
MIN_GATE_LAUNCHES = 3  # fewer, and Welch's interval is too wide or too fragile to gate a CI on


class GateFailed(PstlabError):
    """`--fail-above`: B is significantly slower than allowed somewhere."""

    exit_code = 1


@dataclass(frozen=True)
class LogRatio:
    """B/A from per-launch values: the ratio of geometric means, its interval and raw p-value
    (None without at least two launches per side)."""

    ratio: float
    lo: float | None = None
    hi: float | None = None
    p: float | None = None


def log_ratio(a: list[float], b: list[float], conf: float = CONFIDENCE) -> LogRatio | None:
    """Welch's t on log values; None when a side has no positive value (no ratio to take)."""
    la = [math.log(x) for x in a if x > 0]
    lb = [math.log(x) for x in b if x > 0]
    if not la or not lb or len(la) < len(a) or len(lb) < len(b):
        return None
    ma, mb = sum(la) / len(la), sum(lb) / len(lb)
    diff = mb - ma
    if len(la) < 2 or len(lb) < 2:
        return LogRatio(math.exp(diff))
    va = sum((x - ma) ** 2 for x in la) / (len(la) - 1) / len(la)
    vb = sum((x - mb) ** 2 for x in lb) / (len(lb) - 1) / len(lb)
    se = math.sqrt(va + vb)
    if se == 0:  # identical launches on both sides: the difference is exact
        return LogRatio(math.exp(diff), math.exp(diff), math.exp(diff), 1.0 if diff == 0 else 0.0)
    df = (va + vb) ** 2 / ((va**2 / (len(la) - 1) if va else 0) + (vb**2 / (len(lb) - 1) if vb else 0))
    half = float(sps.t.ppf(0.5 + conf / 2, df)) * se
    p = float(2 * sps.t.sf(abs(diff) / se, df))
    return LogRatio(math.exp(diff), math.exp(diff - half), math.exp(diff + half), p)


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjustment: controls the family-wise error rate over all the p-values."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


@dataclass
class Row:
    metric: Metric
    key: tuple
    a: list[float]  # one value per launch
    b: list[float]
    detail_a: str
    detail_b: str
    test: LogRatio | None
    p_adjusted: float | None = None

    @property
    def significant(self) -> bool:
        return self.p_adjusted is not None and self.p_adjusted < 1 - CONFIDENCE

    def better(self) -> str:
        """'A' or 'B' only when the difference is significant; '≈' when tested and not; 'untested'
        with one launch on a side; '–' when there is no ratio to take."""
        if self.test is None:
            return "–"
        if self.test.p is None:
            return "untested"
        if not self.significant:
            return "≈"
        b_wins = self.test.ratio > 1 if self.metric.higher_is_better else self.test.ratio < 1
        return "B" if b_wins else "A"

    def slowdown(self) -> float | None:
        """How much worse B is than A (0.1 = 10 % worse), or None when B is not worse."""
        if self.test is None:
            return None
        worse = 1 / self.test.ratio if self.metric.higher_is_better else self.test.ratio
        return worse - 1 if worse > 1 else None


def per_launch(metric: Metric, rs: RecordSet) -> dict[tuple, tuple[list[float], str]]:
    """{key: (the value of each launch that has it, the first launch's detail)}."""
    out: dict[tuple, tuple[list[float], str]] = {}
    for launch in rs.launches():
        for key, (value, detail) in metric.extract(launch).items():
            if value is not None and math.isfinite(value):
                out.setdefault(key, ([], detail))[0].append(value)
    return out


def metric_rows(metric: Metric, a: RecordSet, b: RecordSet) -> list[Row]:
    va, vb = per_launch(metric, a), per_launch(metric, b)
    common = sorted(set(va) & set(vb), key=lambda k: [sort_key(x) for x in k])
    return [Row(metric, k, va[k][0], vb[k][0], va[k][1], vb[k][1], log_ratio(va[k][0], vb[k][0])) for k in common]


def all_rows(a: RecordSet, b: RecordSet) -> dict[str, list[Row]]:
    """Every metric of every bench both sides have, with Holm-adjusted p-values over all of them."""
    rows = {
        metric.title: metric_rows(metric, a, b)
        for bench in BENCHES
        if a.has(bench.BENCH) and b.has(bench.BENCH)
        for metric in bench.METRICS
    }
    tested = [r for rs in rows.values() for r in rs if r.test is not None and r.test.p is not None]
    for r, p in zip(tested, holm([r.test.p for r in tested]), strict=True):
        r.p_adjusted = p
    return {title: rs for title, rs in rows.items() if rs}


def _key_cell(column: str, value) -> str:
    if value is None:
        return "–"
    return fmt_bytes(value) if column == "bytes" and isinstance(value, int | float) else str(value)


def _median(values: list[float]) -> float:
    s = sorted(values)
    return s[len(s) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2


def _interval(t: LogRatio | None) -> str:
    return f"[{t.lo:.2f}, {t.hi:.2f}]" if t is not None and t.lo is not None else "–"


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
                _interval(r.test),
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
        f"{CONFIDENCE:.0%} CI",
        "p (Holm)",
        "better",
    ]
    note = (
        f"{better.capitalize()} is better. Values are medians over launches (A: up to {launches[0]}, B: up to "
        f"{launches[1]}); B/A is the ratio of geometric means over launches with Welch's {CONFIDENCE:.0%} interval, "
        "and p is adjusted (Holm) over every value this comparison tests. 'better' names a side only when the "
        "difference is significant; ≈: no significant difference; untested: one launch on a side (run "
        "`pstlab run SUITE --launches 3`); –: a value is not positive (no ratio to take). "
        f"B better in {w['B']}, A in {w['A']}, no significant difference in {w['≈']}, untested in "
        f"{w['untested']}, not comparable in {w['–']} of {len(rows)}. {metric.note}"
    )
    return Table(metric.title, columns, body, note.strip())


def sections(a: RecordSet, b: RecordSet, rows: dict[str, list[Row]]) -> list[Section]:
    out = []
    for bench in BENCHES:
        has_a, has_b = a.has(bench.BENCH), b.has(bench.BENCH)
        if not (has_a or has_b):
            continue
        sec = Section(bench.TITLE)
        if not (has_a and has_b):
            sec.add(Text(f"Only {'A' if has_a else 'B'} has {bench.BENCH} records; nothing to compare."))
            out.append(sec)
            continue
        for metric in bench.METRICS:
            if metric.title in rows:
                sec.add(metric_table(rows[metric.title]))
        sec.add(*bench.overlay([("A", a), ("B", b)]))
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


def gate(a: RecordSet, b: RecordSet, rows: dict[str, list[Row]], fail_above_pct: float) -> list[str]:
    """The significant slowdowns of B beyond the allowed percentage; refuses too few launches."""
    na, nb = len(a.launches()), len(b.launches())
    if min(na, nb) < MIN_GATE_LAUNCHES:
        raise PstlabError(
            f"--fail-above needs {MIN_GATE_LAUNCHES} or more launches on each side (A has {na}, B has {nb}): "
            f"run each with `pstlab run SUITE --launches {MIN_GATE_LAUNCHES}`"
        )
    failures = []
    for title, rs in rows.items():
        for r in rs:
            worse = r.slowdown()
            if r.significant and worse is not None and worse * 100 > fail_above_pct:
                key = ", ".join(_key_cell(c, v) for c, v in zip(r.metric.key_columns, r.key, strict=True))
                failures.append(
                    f"{title} [{key}]: B worse by {worse:.1%} (B/A {r.test.ratio:.3f}, CI {_interval(r.test)}, "
                    f"p {r.p_adjusted:.2g})"
                )
    return failures


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
    rows = all_rows(a, b)
    failures = gate(a, b, rows, fail_above_pct) if fail_above_pct is not None else []
    secs = sections(a, b, rows)
    title = f"pstswm comparison: {a.label()} vs {b.label()}"
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    intro = (
        f"A = `{a.path}` ({a.label()}, {len(a.launches())} launch(es)); B = `{b.path}` ({b.label()}, "
        f"{len(b.launches())} launch(es)). Generated by pstlab {__version__} on {now}. Ratios are B/A of the "
        "value shown; each table says whether higher or lower is better."
    )
    if failures:
        secs.insert(0, Section(f"Gate: B worse than {fail_above_pct:g} % (significant)", [Text("\n".join(failures))]))
    doc.write_figures(secs, out_dir / "plots")
    md_path, html_path = out_dir / "compare.md", out_dir / "compare.html"
    paths.write_atomic(md_path, doc.to_markdown(title, intro, secs, "plots"))
    paths.write_atomic(html_path, doc.to_html(title, intro, secs))
    lines = verdicts(rows)
    if failures:
        raise GateFailed(
            f"{len(failures)} significant slowdown(s) above {fail_above_pct:g} % (report: {md_path}):\n  "
            + "\n  ".join(failures)
        )
    return md_path, html_path, lines
