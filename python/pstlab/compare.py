"""`pstlab compare A B`: two result sets side by side (e.g. Open MPI vs MPICH, or two machines)."""

import datetime
from pathlib import Path

from pstlab import __version__, doc, paths
from pstlab.doc import Section, Table, Text, fmt_bytes, fmt_ratio
from pstlab.records import RecordSet, load
from pstlab.sections import BENCHES
from pstlab.sections.common import Metric, sort_key
from pstlab.stats import ratio

# Closer than this and neither side is called faster: these are single measurements.
TIE = 0.05


def positive_ratio(a: float | None, b: float | None) -> float | None:
    """B/A when both are positive; else None.  Times, rates and fitted costs compare only as positive
    quantities: a fitted M can come out negative (noise, within its interval), and a ratio of it or a
    'better' verdict on it would mean nothing."""
    if a is None or b is None or a <= 0 or b <= 0:
        return None
    return ratio(a, b)


def faster(a: float, b: float, higher_is_better: bool) -> str:
    r = positive_ratio(a, b)
    if r is None:
        return "–"
    if abs(r - 1) <= TIE:
        return "≈"
    b_wins = r > 1 if higher_is_better else r < 1
    return "B" if b_wins else "A"


def _key_cell(column: str, value) -> str:
    if value is None:
        return "–"
    return fmt_bytes(value) if column == "bytes" and isinstance(value, int | float) else str(value)


def metric_table(metric: Metric, a: RecordSet, b: RecordSet) -> tuple[Table, dict[str, int]] | None:
    va, vb = metric.extract(a), metric.extract(b)
    common = sorted(set(va) & set(vb), key=lambda k: [sort_key(x) for x in k])
    if not common:
        return None
    details = any(va[k][1] or vb[k][1] for k in common)
    rows, wins = [], {"A": 0, "B": 0, "≈": 0, "–": 0}
    for k in common:
        (x, dx), (y, dy) = va[k], vb[k]
        verdict = faster(x, y, metric.higher_is_better)
        wins[verdict] += 1
        rows.append(
            [
                *(_key_cell(c, v) for c, v in zip(metric.key_columns, k, strict=True)),
                metric.fmt(x),
                *([dx] if details else []),
                metric.fmt(y),
                *([dy] if details else []),
                fmt_ratio(positive_ratio(x, y)),
                verdict,
            ]
        )
    only = [f"{len(set(va) - set(vb))} only in A", f"{len(set(vb) - set(va))} only in B"]
    better = "higher" if metric.higher_is_better else "lower"
    columns = [
        *metric.key_columns,
        f"A {metric.value_label}",
        *(["A detail"] if details else []),
        f"B {metric.value_label}",
        *(["B detail"] if details else []),
        "B/A",
        "better",
    ]
    note = (
        f"{better.capitalize()} is better; 'better' names the side, ≈ when within {TIE:.0%}, – when a value is "
        "not positive (no ratio to take). "
        f"B better in {wins['B']}, A in {wins['A']}, tied in {wins['≈']}, not comparable in {wins['–']} of "
        f"{len(common)}; "
        f"not compared: {', '.join(only)}. {metric.note}"
    )
    return Table(metric.title, columns, rows, note.strip()), wins


def sections(a: RecordSet, b: RecordSet) -> list[Section]:
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
            if result := metric_table(metric, a, b):
                sec.add(result[0])
        sec.add(*bench.overlay([("A", a), ("B", b)]))
        out.append(sec)
    return out


def verdicts(a: RecordSet, b: RecordSet) -> list[str]:
    """One line per compared quantity: who is better how often (for the terminal)."""
    lines = []
    for bench in BENCHES:
        if a.has(bench.BENCH) and b.has(bench.BENCH):
            for metric in bench.METRICS:
                if result := metric_table(metric, a, b):
                    w = result[1]
                    lines.append(
                        f"{metric.title}: B better in {w['B']}, A in {w['A']}, tied in {w['≈']}"
                        + (f", not comparable in {w['–']}" if w["–"] else "")
                    )
    return lines


def default_out(a: Path, b: Path) -> Path:
    return paths.results_dir() / f"compare-{a.resolve().name}-vs-{b.resolve().name}"


def write(path_a: str | Path, path_b: str | Path, out: str | Path | None = None) -> tuple[Path, Path, list[str]]:
    a, b = load(path_a), load(path_b)
    out_dir = Path(out) if out else default_out(Path(path_a), Path(path_b))
    out_dir.mkdir(parents=True, exist_ok=True)
    secs = sections(a, b)
    title = f"pstswm comparison: {a.label()} vs {b.label()}"
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    intro = (
        f"A = `{a.path}` ({a.label()}); B = `{b.path}` ({b.label()}). Generated by pstlab {__version__} on "
        f"{now}. Ratios are B/A of the value shown; each table says whether higher or lower is better."
    )
    doc.write_figures(secs, out_dir / "plots")
    md_path, html_path = out_dir / "compare.md", out_dir / "compare.html"
    md_path.write_text(doc.to_markdown(title, intro, secs, "plots"), encoding="utf-8")
    html_path.write_text(doc.to_html(title, intro, secs), encoding="utf-8")
    return md_path, html_path, verdicts(a, b)
