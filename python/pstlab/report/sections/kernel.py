"""`pstswm kernel`: protocol sensitivity of each parallel algorithm (Worley 1999; Worley 1998 Table 4).

pstswm kernel writes one point per (stage, algorithm, protocol, overlap) with `t_min` over
repetitions, plus its own per-algorithm summaries.  pstlab recomputes the same figures from the
points (so results merged from several runs, or records without summaries, report alike):

- Worley 1999's sensitivity over an algorithm's alternatives (protocol × overlap), each at its t_min:
  the best, (median−min)/min, (max−min)/min and the low / moderate / high class;
- Worley 1998 Table 4: what the generic protocol 0,6 (MPI_Sendrecv, overlap off: the `gen` preset's
  choice) and the MPI collective doing the same work (MPI_Alltoallv for the transposes,
  MPI_Allreduce / MPI_Reduce_scatter for the vector sums; none for dfft) cost instead of the best.

The collectives (`protocol: "coll"`) have no protocol alternatives: they appear in Table 4, not in
the sensitivity table.
"""

from pstlab import stats
from pstlab.core import tiesets
from pstlab.io import algorithms
from pstlab.io.algorithms import Registry
from pstlab.io.records import RecordSet, launch_of, number
from pstlab.report.doc import Details, Section, Table, Text, fmt_pct, fmt_us
from pstlab.report.sections import guardrails, memo
from pstlab.report.sections.common import (
    Metric,
    best,
    best_first,
    full_lists,
    group_by,
    joined,
    level_text,
    sort_key,
    tie_cell,
    varying,
    with_mark,
)
from pstlab.stats import verdicts

BENCH = "kernel"
TITLE = "Parallel algorithm kernels: protocol sensitivity (Worley 1998 Table 4; Worley 1999)"
IN_ROUNDS = True  # it compares alternatives in interleaved rounds (--seed, --adaptive, --budget)
REQUIRED_SINCE_V1: dict[str, tuple[str, ...]] = {}  # fields every schema version has required, per record type
GENERIC_PROTOCOL = "0,6"  # MPI_Sendrecv: what a code uses when it knows nothing about protocols
COLL_PROTOCOL = "coll"  # pstswm's protocol field for the MPI collectives

STAGES = ("fft", "legendre")
ALG_KEY = ["stage", "algorithm", "size", "grid"]
# The algorithms, their order, stages and collectives come from the run header's registry
# (pstlab.algorithms): a new algorithm needs no change here.

# What identifies one verdict (pstlab.verdicts): the alternatives of one algorithm on one configuration.
# locality last: inside a node and across nodes are separate verdicts (docs/cluster.md)
VERDICT_KEY = ("stage", "algorithm", "size", "grid", "transport", "result", "fields", "granularity", "locality")
# What identifies one measured configuration besides stage and algorithm: always shown ...
CONFIG = ("size", "grid")
# ... and shown when they differ between the records (several runs in one directory).
EXTRA = ("result", "fields", "granularity", "transport")


def stage(rec: dict, reg: Registry = algorithms.BUILTIN) -> str:
    if rec.get("stage"):
        return str(rec["stage"])
    return reg.default_stage(str(rec.get("algorithm")))


def is_collective(rec: dict, reg: Registry = algorithms.BUILTIN) -> bool:
    return (
        rec.get("protocol") == COLL_PROTOCOL
        or rec.get("algorithm") == "coll"
        or reg.is_collective(str(rec.get("algorithm")))
    )


def overlap_marked(rec: dict) -> bool:
    """Whether the protocol runs with and without overlap (so overlap on is marked '+ov'): every one
    but the overlap protocols (2,x, 3,x; slug '….overlap'), which always overlap.  The persistent
    4,x and 5,x run both ways too.  Records without a slug (older pstswm) go by the code's class."""
    slug = rec.get("slug")
    if isinstance(slug, str) and slug:
        return not slug.endswith(".overlap")
    return str(rec.get("protocol"))[:1] not in ("2", "3")


def label(rec: dict) -> str:
    """An alternative as pstswm names it: the protocol code, '+ov' when overlap is on for a protocol
    that also runs without it (pstswm's kernel labels, e.g. 1,3+ov and 4,1+ov)."""
    protocol = str(rec.get("protocol"))
    return f"{protocol}+ov" if rec.get("overlap") and overlap_marked(rec) else protocol


def _order(key: tuple, reg: Registry) -> list:
    """Stages in transform order, then each configuration (size, grid, ...), its algorithms in pstswm's order."""
    stage_, algorithm, *rest = key
    return [
        STAGES.index(stage_) if stage_ in STAGES else len(STAGES),
        sort_key(stage_),
        *(sort_key(k) for k in rest),
        reg.order(algorithm),
        sort_key(algorithm),
    ]


def _extras(points: list[dict]) -> list[str]:
    return [k for k in EXTRA if varying([p for p in points if p.get(k) is not None], (k,))]


def cases(rs: RecordSet) -> dict[tuple, list[dict]]:
    """{(stage, algorithm, size, grid, extras...): one record per alternative (protocol, overlap), its fastest}."""
    reg = algorithms.of(rs)
    points = [dict(p, stage=stage(p, reg)) for p in rs.points(BENCH) if number(p, "t_min") is not None]
    keys = ("stage", "algorithm", *CONFIG, *_extras(points))
    out = {}
    for key, pts in group_by(points, *keys).items():
        out[key] = sorted(
            (best(g) for g in group_by(pts, "protocol", "overlap").values()),
            key=lambda r: (r["t_min"], sort_key(label(r))),
        )
    return dict(sorted(out.items(), key=lambda kv: _order(kv[0], reg)))


def key_columns(all_cases: dict[tuple, list[dict]]) -> list[str]:
    width = max((len(k) for k in all_cases), default=2 + len(CONFIG))
    points = [r for alts in all_cases.values() for r in alts]
    return ["stage", "algorithm", *CONFIG, *_extras(points)][:width]


def sensitivity(alternatives: list[dict]) -> dict:
    """Worley 1999's figures over one algorithm's alternatives (each its t_min), as pstswm's summary names them."""
    top = alternatives[0]
    spread = stats.spread([a["t_min"] for a in alternatives])
    return {
        "nalternatives": spread.n,
        "best": label(top),
        "best_s": top["t_min"],
        "median_rel": spread.median_rel,
        "max_rel": spread.max_rel,
        "level": spread.sensitivity,
        "fastest": [label(a) for a in alternatives[:5]],
    }


def generic(alternatives: list[dict]) -> dict | None:
    """The 0,6 alternative without overlap (the `gen` preset's choice), or None when it was not run."""
    return next(
        (a for a in alternatives if a.get("protocol") == GENERIC_PROTOCOL and not a.get("overlap")),
        None,
    )


def collective_for(key: tuple, all_cases: dict[tuple, list[dict]], reg: Registry) -> dict | None:
    """The MPI collective measured on the same stage and configuration as the algorithm of `key`."""
    name = reg.collective_of(str(key[1]))
    if name is None:
        return None
    alts = all_cases.get((key[0], name, *key[2:]))
    return alts[0] if alts else None


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
        "no significant difference beyond the margin; below 1: faster than the best protocol.",
    )
    return [table, *filter(None, [full_lists("protocol tie sets", full)])]


def library_samples(rs: RecordSet) -> list[tuple[dict, list[float], list[float], float, float]]:
    """Each MPI library alternative (ialltoallv, neighbor, allreduce_init, ...) with the stage's collective:
    the kernel's Table 4 summary, the alternative's rounds (its point) and the collective's (the summary
    carries them: they ran in the same rounds), and the run's confidence and margin."""
    reg = algorithms.of(rs)
    headers = {h.get("run_id"): h for h in rs.headers()}
    points = {
        (p.get("run_id"), stage(p, reg), p.get("algorithm"), p.get("size"), p.get("grid")): p
        for p in rs.points(BENCH)
        if reg.is_library(str(p.get("algorithm")))
    }
    out = []
    for s in rs.summaries(BENCH, "generic"):
        if not reg.is_library(str(s.get("algorithm"))):
            continue
        p = points.get((s.get("run_id"), stage(s, reg), s.get("algorithm"), s.get("size"), s.get("grid")))
        alt, coll = verdicts.round_times(p or {}), verdicts.round_times({"round_s": s.get("coll_round_s")})
        if not alt or not coll or len(alt) != len(coll):
            continue
        h = headers.get(s.get("run_id"), {})
        out.append((s, alt, coll, number(h, "confidence") or 0.95, number(h, "margin") or 0.02))
    return out


def library_ratios(rs: RecordSet) -> list[tuple[dict, stats.PairedRatio]]:
    """Per run: the summary and collective / alternative, paired by round."""
    return [(s, stats.paired_ratio(coll, alt, conf, margin)) for s, alt, coll, conf, margin in library_samples(rs)]


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


def by_stage(cases_: list[verdicts.Case], reg: Registry) -> dict[tuple, list[verdicts.Case]]:
    out: dict[tuple, list[verdicts.Case]] = {}
    for c in sorted(cases_, key=lambda c: _order((c.key[0], c.key[1], *c.key[2:]), reg)):
        out.setdefault((c.key[0], c.key[2], c.key[3]), []).append(c)
    return out


def _best_times(rs: RecordSet) -> dict:
    out: dict[tuple, tuple[float, str]] = {}
    for key, alts in cases(rs).items():
        top = alts[0]
        if key[:4] not in out or top["t_min"] < out[key[:4]][0]:
            out[key[:4]] = (top["t_min"], label(top))
    return out


METRICS = [
    Metric(
        "Kernel time with its best protocol",
        ("stage", "algorithm", "size", "grid"),
        "t_min µs",
        fmt_us,
        False,
        _best_times,
        "The detail column names the best alternative (protocol, '+ov' for overlap; 'coll' for an MPI collective).",
    )
]


def overlay(_sets: list[tuple[str, RecordSet]]) -> list:
    return []


@memo.per_record_set
def verdict_cases(rs: RecordSet) -> list[verdicts.Case]:
    """The verdicts of kernel records: protocol x overlap per algorithm and configuration, with the
    collective paired in from the generic summary (it ran in the same rounds)."""
    reg = algorithms.of(rs)
    points = [dict(p, stage=stage(p, reg)) for p in rs.points("kernel") if not is_collective(p, reg)]
    sums = [dict(s, stage=stage(s, reg)) for s in rs.summaries("kernel", "sensitivity")]
    generic = [dict(s, stage=stage(s, reg)) for s in rs.summaries("kernel", "generic")]
    cases = verdicts.build(points, sums, VERDICT_KEY, label, rs.headers())
    colls = group_by(generic, *VERDICT_KEY)
    for c in cases:
        samples = [s for s in colls.get(c.key, []) if verdicts.round_times({"round_s": s.get("coll_round_s")})]
        joined = [t for s in sorted(samples, key=launch_of) for t in s["coll_round_s"][: c.per_launch]]
        if samples and len(joined) == len(next(iter(c.rounds.values()))):
            c.comparators[COLL_PROTOCOL] = joined
    return cases
