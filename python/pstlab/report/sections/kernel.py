"""`pstswm kernel` in the report: protocol sensitivity of each parallel algorithm (Worley 1999; Worley 1998
Table 4; the facts: pstlab.benches.kernel).

- Worley 1999's sensitivity over an algorithm's alternatives (protocol × overlap), each at its t_min:
  the best, (median−min)/min, (max−min)/min and the low / moderate / high class;
- Worley 1998 Table 4: what the generic protocol 0,6 (MPI_Sendrecv, overlap off: the `gen` preset's
  choice) and the MPI collective doing the same work (MPI_Alltoallv for the transposes,
  MPI_Allreduce / MPI_Reduce_scatter for the vector sums; none for dfft) cost instead of the best.

The collectives (`protocol: "coll"`) have no protocol alternatives: they appear in Table 4, not in
the sensitivity table.
"""

from pstlab.analysis import guardrails
from pstlab.benches.kernel import (
    ALG_KEY,
    BENCH,
    COLL_PROTOCOL,
    GENERIC_PROTOCOL,
    by_stage,
    cases,
    collective_for,
    generic,
    is_collective,
    key_columns,
    label,
    library_samples,
    sensitivity,
    stage,
    verdict_cases,
)
from pstlab.core import tiesets
from pstlab.core.grouping import group_by
from pstlab.core.units import fmt_pct, fmt_us
from pstlab.io import algorithms
from pstlab.io.algorithms import Registry
from pstlab.io.records import RecordSet, launch_of
from pstlab.report.doc import Details, Section, Table, Text
from pstlab.report.sections.common import (
    SEPARATES,
    SEPARATES_NOTE,
    best_first,
    full_lists,
    joined,
    level_text,
    separates_cell,
    tie_cell,
    with_mark,
)
from pstlab.stats import stats, verdicts

TITLE = "Parallel algorithm kernels: protocol sensitivity (Worley 1998 Table 4; Worley 1999)"


def sensitivity_table(rs: RecordSet) -> Table | None:
    all_cases = cases(rs)
    columns = key_columns(all_cases)
    rows = []
    for key, alts in all_cases.items():
        if is_collective(alts[0], algorithms.of(rs)):
            continue
        s = sensitivity(alts)
        rows.append(
            [
                *(str(k) for k in key),
                str(s["nalternatives"]),
                s["best"],
                fmt_us(s["best_s"]),
                f"{s['median_rel']:.3f}",
                f"{s['max_rel']:.3f}",
                s["level"],
                " ".join(s["fastest"]),
            ]
        )
    if not rows:
        return None
    return Table(
        "Protocol sensitivity per algorithm (Worley 1999)",
        [
            *columns,
            "alternatives",
            "best",
            "best µs",
            "(median−min)/min",
            "(max−min)/min",
            "sensitivity",
            "five fastest",
        ],
        rows,
        "Over the alternatives run (protocol × overlap; '+ov' marks overlap on for a 0,x or 1,x protocol, "
        "2,x and 3,x always overlap), each taken at its t_min over repetitions; grid is the stage's "
        "processor grid. Sensitivity as Worley 1999 classes it on (median−min)/min: low ≤ 5 %, high ≥ 15 %, "
        "else moderate.",
    )


def generic_table(rs: RecordSet) -> Table | None:
    all_cases = cases(rs)
    columns = key_columns(all_cases)
    reg = algorithms.of(rs)
    rows = []
    for key, alts in all_cases.items():
        if is_collective(alts[0], reg):
            continue
        top, gen, coll = alts[0], generic(alts), collective_for(key, all_cases, reg)
        rows.append(
            [
                *(str(k) for k in key),
                label(top),
                fmt_us(top["t_min"]),
                fmt_us(gen["t_min"]) if gen else "–",
                fmt_pct(stats.rel_excess(gen["t_min"], top["t_min"]), signed=True) if gen else "–",
                str(coll["algorithm"]) if coll else "–",
                fmt_us(coll["t_min"]) if coll else "–",
                fmt_pct(stats.rel_excess(coll["t_min"], top["t_min"]), signed=True) if coll else "–",
            ]
        )
    if not rows:
        return None
    return Table(
        f"Cost of the generic protocol {GENERIC_PROTOCOL} and of the MPI collective instead of the best "
        "protocol (Worley 1998 Table 4)",
        [
            *columns,
            "best",
            "best µs",
            f"{GENERIC_PROTOCOL} µs",
            f"{GENERIC_PROTOCOL} loss",
            "collective",
            "coll µs",
            "coll loss",
        ],
        rows,
        f"Loss = (t − t_best)/t_best, every time the t_min over repetitions. {GENERIC_PROTOCOL} is "
        "MPI_Sendrecv without overlap, the 'gen' preset's choice; the collective is the MPI operation doing "
        "the same work (MPI_Alltoallv for a transpose, MPI_Allreduce or MPI_Reduce_scatter for a vector sum; "
        "none for dfft, whose call includes the FFTs). A negative loss: the collective is faster than the "
        "best protocol.",
    )


def _shown_key(case: verdicts.Case, shown: int) -> list[str]:
    return [str(k) for k in case.key[:shown]]


def fmt_ratio_ci(q: stats.PairedRatio | None) -> str:
    """'1.12 [1.05, 1.20]', with 'n.s.' when the interval does not clear the equivalence margin."""
    if q is None:
        return "–"
    text = f"{q.ratio:.2f} [{q.lo:.2f}, {q.hi:.2f}]" if q.lo == q.lo else f"{q.ratio:.2f} [no interval]"
    return text if q.significant else f"{text} n.s."


def verdict_table(cases: list[verdicts.Case], reg: Registry, ordered: dict[str, bool]) -> list[Table | Details]:
    """One row per algorithm and configuration, launches merged: its protocol tie set, the spread and what
    0,6 and the collective cost relative to the best; every member of the sets named in short, folded."""
    rows, full = [], []
    for c in cases:
        v = c.verdict
        lo, hi = v.median_rel_ci
        rows.append(
            [
                *_shown_key(c, 4),
                str(len(v.medians)),
                f"{v.rounds}" + (f" ({c.launches} launches)" if c.launches > 1 else ""),
                tie_cell(v, ordered),
                fmt_us(v.medians[v.best]),
                f"{v.median_rel:.3f} [{lo:.3f}, {hi:.3f}]",
                level_text(v),
                "in the tie set" if GENERIC_PROTOCOL in v.best_set else fmt_ratio_ci(c.ratio(GENERIC_PROTOCOL)),
                reg.collective_of(str(c.key[1])) or "–",
                fmt_ratio_ci(c.ratio(COLL_PROTOCOL)),
                ", ".join(c.caveats) or "ok",
                separates_cell(c),
            ]
        )
        full.append((f"{c.key[0]} {c.key[2]} {c.key[3]}", str(c.key[1]), best_first(v)))
    table = Table(
        "Protocol sensitivity per algorithm (Worley & Foster 1994), with confidence; Cost of the generic protocol "
        f"{GENERIC_PROTOCOL} and of the MPI collective relative to the best (Worley & Foster 1994, Table 4)",
        [
            *ALG_KEY,
            "alternatives",
            "rounds",
            "best (tie set)",
            "best µs",
            "spread [CI]",
            "sensitivity",
            f"{GENERIC_PROTOCOL} time / best's [CI]",
            "collective",
            "collective / best [CI]",
            "caveats",
            SEPARATES,
        ],
        rows,
        "Alternatives are protocol × overlap ('+ov': overlap on for a 0,x or 1,x protocol), run in interleaved "
        "rounds and compared paired by round, launches merged. The tie set holds every alternative not shown slower "
        "than the best beyond the margin (default 2 %) at 95 % confidence, best first; a single name is a decided "
        "verdict. best µs: the best's median over rounds. Spread: the median over alternatives of their paired "
        "ratio to the best, minus 1, with its interval; 'low to high': the interval's ends fall in different "
        f"sensitivity classes (low ≤ 5 %, high ≥ 15 %). {GENERIC_PROTOCOL} (MPI_Sendrecv without overlap, the "
        "'gen' preset's choice) and the collective (MPI_Alltoallv for a transpose, MPI_Allreduce for a vector "
        "sum; none does dfft's work): their time over the best's, paired by round, with 95 % intervals; 'n.s.': "
        "no significant difference beyond the margin; below 1: faster than the best protocol. " + SEPARATES_NOTE,
    )
    return [table, *filter(None, [full_lists("protocol tie sets", full)])]


def library_table(rs: RecordSet) -> Table | None:
    """One row per stage, configuration and collective, one column per library form: collective / form,
    the launches' paired rounds pooled (each contributes the same number, its first n, as pstlab.verdicts)."""
    reg = algorithms.of(rs)
    grouped: dict[tuple, dict[str, list]] = {}
    for x in library_samples(rs):
        s = x[0]
        row = (stage(s, reg), str(s.get("size")), str(s.get("grid")), str(s.get("coll_algorithm")))
        grouped.setdefault(row, {}).setdefault(str(s["algorithm"]), []).append(x)
    forms = list(dict.fromkeys(f for by_form in grouped.values() for f in by_form))
    rows = []
    for (stage_, size, grid, coll), by_form in grouped.items():
        cells, launches = [], set()
        for form in forms:
            runs = sorted(by_form.get(form, []), key=lambda x: launch_of(x[0]))
            if not runs:
                cells.append("")
                continue
            n = min(len(x[1]) for x in runs)
            alt, coll_s = [t for x in runs for t in x[1][:n]], [t for x in runs for t in x[2][:n]]
            cells.append(fmt_ratio_ci(stats.paired_ratio(coll_s, alt, runs[0][3], runs[0][4])))
            launches.add(len(runs))
        rows.append([stage_, size, grid, coll, *cells, "/".join(map(str, sorted(launches)))])
    if not rows:
        return None
    return Table(
        "MPI library alternatives against the stage's collective",
        ["stage", "size", "grid", "collective", *forms, "launches"],
        rows,
        "collective / alternative for the nonblocking (ialltoallv, iallreduce), neighbourhood (neighbor), "
        "persistent (alltoallv_init, allreduce_init) and reduce-scatter forms, each run with the stage's MPI "
        "collective in the same rounds: ratios of medians paired by round (launches pooled) with 95 % intervals; "
        "'n.s.': no significant difference beyond the margin; above 1: the alternative beats the collective.",
    )


def section(rs: RecordSet) -> Section:
    sec = Section(TITLE)
    sec.add(
        Text(
            "Each parallel algorithm alone on synthetic data sized like a model run (pstswm kernel), once per "
            "communication protocol and overlap setting; FFT-stage algorithms across a processor row, "
            "Legendre-stage ones down a column."
        )
    )
    reg = algorithms.of(rs)
    cases = [c for group in by_stage(verdict_cases(rs), reg).values() for c in group]
    ordered = tiesets.catalogue(rs.points(BENCH))
    tables = verdict_table(cases, reg, ordered) if cases else [sensitivity_table(rs), generic_table(rs)]
    sec.add(*tables, library_table(rs))
    return sec


def headline(rs: RecordSet) -> list[str]:
    """One line per stage and configuration: how large the protocol tie sets are, never a lone winner."""
    marks = guardrails.marks(rs)
    if with_rounds := verdict_cases(rs):
        lines = []
        for (stage_, size, grid), group in by_stage(with_rounds, algorithms.of(rs)).items():
            sizes = sorted(len(c.verdict.best_set) for c in group)
            generic_tied = sum(GENERIC_PROTOCOL in c.verdict.best_set for c in group)
            mark = "⚠ " + ", ".join(sorted({w for c in group for w in c.caveats if w in ("noisy", "oversubscribed")}))
            lines.append(
                with_mark(
                    f"kernel {stage_} {size} {grid}: {len(group)} algorithms, {sizes[0]}–{sizes[-1]} of "
                    f"{len(group[0].verdict.medians)} protocols tied per algorithm ({GENERIC_PROTOCOL} in "
                    f"{generic_tied})",
                    mark if mark != "⚠ " else "",
                )
            )
        return lines
    all_cases = cases(rs)
    reg = algorithms.of(rs)
    by_config = group_by(
        [
            {"config": key[:1] + key[2:], "key": key}
            for key, alts in all_cases.items()
            if not is_collective(alts[0], reg)
        ],
        "config",
    )
    lines = []
    for (config,), entries in by_config.items():
        levels = [f"{e['key'][1]} {sensitivity(all_cases[e['key']])['level']}" for e in entries]
        where = " ".join(str(c) for c in config[1:] if c is not None)
        mark = next((marks[r["_file"]] for e in entries for r in all_cases[e["key"]] if r.get("_file") in marks), "")
        line = joined(f"kernel {config[0]} {where}: sensitivity ", levels, " (no rounds recorded: no tie sets)")
        lines.append(with_mark(line, mark))
    return lines


def overlay(_sets: list[tuple[str, RecordSet]]) -> list:
    return []


