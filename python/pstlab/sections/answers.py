"""The report's first section: what to use on this machine, and whether the numbers can be trusted.

- the model's time per step split into computation and communication, and its parallel efficiency;
- per transform stage, the recommended algorithm and protocol (a tie set when the data cannot
  separate them) and what the generic protocol 0,6 and the MPI collective cost relative to it;
- which MPI library is faster where, when the records hold two (significant differences only);
- how much the allocator's state moves the collectives, when coll ran with --alloc-state;
- the guardrails: everything that weakens the figures above.
"""

from pstlab import algorithms, compare, verdicts
from pstlab.doc import Section, Table, Text, fmt_bytes, fmt_ms, fmt_pct, fmt_us
from pstlab.plots import stacked_bars
from pstlab.records import RecordSet, number
from pstlab.sections import kernel, model, swap
from pstlab.sections.common import grid_ranks, group_by

TITLE = "Answers for this machine"
NOISE_WARN = 0.02  # lost share of a clock-spin probe above which the host was too busy (as pstswm)


def _model_rows(rs: RecordSet) -> list[dict]:
    runs = model.runs(rs)
    serial = {}
    for r in runs:
        if grid_ranks(r.get("grid")) == 1 and (
            model.problem(r) not in serial or r["step_s"] < serial[model.problem(r)]
        ):
            serial[model.problem(r)] = r["step_s"]
    rows = []
    for (prob, cfg), cells in model._by_problem_config(runs).items():
        for grid, r in sorted(cells.items(), key=lambda kv: grid_ranks(kv[0]) or 0):
            p = grid_ranks(grid) or 1
            comm = number(r, "comm_s") or 0.0
            ref = serial.get(prob)
            rows.append(
                {
                    "problem": prob,
                    "config": cfg,
                    "grid": grid,
                    "step_s": r["step_s"],
                    "comm_s": comm,
                    # per-stage communication is summed per rank and can exceed the median step when
                    # ranks wait on each other (oversubscribed): then no split is shown
                    "compute_s": r["step_s"] - comm if comm <= r["step_s"] else None,
                    "efficiency": ref / (p * r["step_s"]) if ref and p > 1 else None,
                    "file": r.get("_file"),
                }
            )
    return rows


def model_answer(rs: RecordSet, oversubscribed_files: set[str]) -> list:
    rows = _model_rows(rs)
    if not rows:
        return []
    table = Table(
        "Model: time per step, computation and communication, parallel efficiency",
        ["problem", "algorithms", "grid", "ms per step", "compute ms", "comm ms", "comm share", "efficiency"],
        [
            [
                r["problem"],
                r["config"],
                r["grid"],
                fmt_ms(r["step_s"]),
                fmt_ms(r["compute_s"]) if r["compute_s"] is not None else "– (comm > step)",
                fmt_ms(r["comm_s"]),
                fmt_pct(r["comm_s"] / r["step_s"]) if r["compute_s"] is not None else "–",
                ("not meaningful: oversubscribed" if r["file"] in oversubscribed_files else fmt_pct(r["efficiency"]))
                if r["efficiency"] is not None
                else "–",
            ]
            for r in rows
        ],
        "Median step of each run (the fastest run where a configuration ran several times); comm is the time "
        "inside the parallel algorithms' message passing, compute the rest. Efficiency = T(1 rank) / (P × T(P)) "
        "against the same problem on one rank.",
    )
    rows_split = [r for r in rows if r["compute_s"] is not None]
    bars = [f"{r['grid']} {r['config']}" for r in rows_split]
    fig = stacked_bars(
        "answers-model",
        "Time per step, split into computation and communication",
        "Model: time per step",
        "ms per step",
        bars,
        {
            "compute": [r["compute_s"] * 1e3 for r in rows_split],
            "communication": [r["comm_s"] * 1e3 for r in rows_split],
        },
    )
    return [table, fig]


def _vs_best(case: verdicts.Case, label: str) -> str:
    if case.verdict.best == label:
        return "is the best"
    q = case.ratio(label)
    if q is None:
        return "not run"
    text = f"{q.ratio:.2f}× [{q.lo:.2f}, {q.hi:.2f}]" if q.lo == q.lo else f"{q.ratio:.2f}× [no interval]"
    return text if q.significant else f"{text}: no significant difference"


def stage_answer(rs: RecordSet) -> Table | None:
    cases = [c for c in kernel.verdict_cases(rs) if "oversubscribed" not in c.caveats]
    if not cases:
        return None
    rows = []
    for (stage, size, grid), group in kernel.by_stage(cases, algorithms.of(rs)).items():
        top = min(group, key=lambda c: c.verdict.medians[c.verdict.best])
        rows.append(
            [
                stage,
                str(size),
                str(grid),
                str(top.key[1]),
                top.verdict.tie_set(),
                fmt_us(top.verdict.medians[top.verdict.best]),
                _vs_best(top, kernel.GENERIC_PROTOCOL),
                _vs_best(top, kernel.COLL_PROTOCOL),
                ", ".join(top.caveats) or "ok",
            ]
        )
    return Table(
        "Recommended parallel algorithm and protocol per transform stage",
        [
            "stage",
            "size",
            "grid",
            "algorithm",
            "protocol (tie set)",
            "µs",
            "0,6 instead",
            "MPI collective instead",
            "caveats",
        ],
        rows,
        "The algorithm with the least median time (algorithms ran in separate rounds, so this pick has no "
        "interval of its own); its protocols' tie set: every protocol × overlap not shown slower than the best "
        "beyond the margin at 95 % confidence, best first. 0,6 and the collective: their time over the best's, "
        "paired by round, with 95 % intervals. Runs with more ranks than CPUs are left out.",
    )


def _split_by_mpi(rs: RecordSet) -> list[tuple[str, RecordSet]]:
    by_file = {h.get("_file"): h.get("mpi_build") or compare_label(h) for h in rs.headers()}
    groups: dict[str, list[dict]] = {}
    for r in rs.records:
        groups.setdefault(by_file.get(r.get("_file"), "?"), []).append(r)
    return [(name, RecordSet(rs.path, recs, rs.manifest)) for name, recs in sorted(groups.items())]


def compare_label(header: dict) -> str:
    return str(header.get("mpi_library", "?")).split(",")[0]


def library_answer(rs: RecordSet) -> Text | None:
    parts = _split_by_mpi(rs)
    if len(parts) != 2:
        return None
    (name_a, a), (name_b, b) = parts
    rows = compare.all_rows(a, b)
    found = [r for rs_ in rows.values() for r in rs_ if r.better() in ("A", "B")]
    tested = sum(1 for rs_ in rows.values() for r in rs_ if r.test is not None and r.test.p is not None)
    if not tested:
        return Text(
            f"Two MPI libraries here ({name_a}, {name_b}), one launch each: no difference between them can be "
            "called significant. Run each with `pstlab run SUITE --launches 3` and use `pstlab compare`."
        )
    lines = [f"{name_a} vs {name_b}: {len(found)} significant differences of {tested} compared values."]
    for r in found[:12]:
        winner = name_b if r.better() == "B" else name_a
        key = ", ".join(str(k) for k in r.key)
        lines.append(f"- {r.metric.title} [{key}]: {winner} faster, {name_b}/{name_a} = {r.test.ratio:.2f}")
    return Text("\n".join(lines))


def allocator_answer(rs: RecordSet) -> Table | None:
    points = [p for p in rs.points("coll") if p.get("alloc_state") in ("warm", "fresh") and number(p, "t_med")]
    rows = []
    for (op, size, comm), pts in sorted(group_by(points, "op", "bytes", "comm_size").items(), key=str):
        by_state = {p["alloc_state"]: p for p in pts}
        if {"warm", "fresh"} <= set(by_state):
            warm, fresh = by_state["warm"], by_state["fresh"]
            rows.append(
                [
                    str(op),
                    fmt_bytes(size),
                    str(comm),
                    fmt_us(warm["t_med"]),
                    fmt_us(fresh["t_med"]),
                    f"{fresh['t_med'] / warm['t_med']:.2f}",
                ]
            )
    if not rows:
        return None
    return Table(
        "Allocator state: the same collective with a warm heap and with freshly mapped buffers",
        ["op", "size", "ranks", "warm µs", "fresh µs", "fresh / warm"],
        rows,
        "coll --alloc-state warm keeps the heap primed so a library's temporary buffers come from reused memory; "
        "fresh makes glibc map (and the kernel zero) new pages for them. A large ratio means the library allocates "
        "per call, and that a benchmark's verdict on it depends on what the process did before "
        "(docs/pingpong-coll.md).",
    )


def guardrails(rs: RecordSet) -> tuple[list[str], set[str]]:
    """Every reason to distrust a figure here, and the files run with more ranks than CPUs."""
    notes, over = [], set()
    headers = rs.headers()
    for h in headers:
        if h.get("oversubscribed"):
            over.add(h.get("_file"))
    if over:
        notes.append(
            f"More ranks than CPUs in {len(over)} of {len(headers)} runs ({', '.join(sorted(over))}): their times "
            "measure the scheduler, not the machine; their verdicts are left out of the answers."
        )
    footers = {f.get("_file"): f for f in rs.footers()}
    noisy = []
    for h in headers:
        lost = [
            (number(part, "lost_frac_max") or 0.0)
            for part in (
                (h.get("noise") or {}).get("before"),
                ((footers.get(h.get("_file")) or {}).get("noise") or {}).get("after"),
            )
            if isinstance(part, dict)
        ]
        if lost and max(lost) > NOISE_WARN:
            noisy.append(f"{h.get('_file')} {max(lost):.0%}")
    if noisy:
        notes.append(
            f"A busy host: the clock-spin probe lost more than {NOISE_WARN:.0%} of its time in gaps in "
            f"{len(noisy)} runs ({', '.join(noisy[:8])}{', …' if len(noisy) > 8 else ''}); repeat on a quiet machine "
            "before trusting a close verdict."
        )
    missing = sorted({h.get("_file") for h in headers} - set(footers))
    if missing and any("noise" in h for h in headers):
        notes.append(
            f"No footer in {len(missing)} files ({', '.join(missing[:6])}): the run was interrupted or its pstswm "
            "predates footers; the after-run noise probe is missing."
        )
    bad_fits = [s for s in rs.records if s.get("type") == "summary" and s.get("fit_ok") is False]
    if bad_fits:
        examples = ", ".join(f"{s['bench']} {s.get('protocol') or s.get('summary')}" for s in bad_fits[:5])
        notes.append(
            f"{len(bad_fits)} fitted models fail their checks (error above 15 %, or a negative latency or "
            f"bandwidth): {examples}{', …' if len(bad_fits) > 5 else ''}; they are shown as FIT NOT OK, not used."
        )
    cases = kernel.verdict_cases(rs) + swap.verdict_cases(rs)
    for caveat, what in (
        ("below 20x timer resolution", "times below 20 ticks of the timer: the verdict is about the clock"),
        ("precision not reached", "medians not as precise as asked (add rounds: --adaptive with a --budget)"),
        (f"fewer than {verdicts.MIN_ROUNDS} rounds", "too few rounds for a confidence interval"),
    ):
        if n := sum(caveat in c.caveats for c in cases):
            notes.append(f"{n} of {len(cases)} verdicts: {what}.")
    imprecise = [p for p in rs.records if p.get("type") == "point" and p.get("precision_reached") is False]
    if imprecise:
        notes.append(f"{len(imprecise)} measured points did not reach the requested precision of their median.")
    return notes, over


def section(rs: RecordSet) -> Section:
    sec = Section(TITLE)
    notes, over = guardrails(rs)
    sec.add(*model_answer(rs, over))
    sec.add(stage_answer(rs), library_answer(rs), allocator_answer(rs))
    box = "\n".join(f"- {n}" for n in notes) if notes else "- none: no oversubscription, a quiet host, fits ok."
    sec.add(Text(f"**Guardrails** (what weakens the figures in this report):\n{box}"))
    if len(sec.blocks) == 1:
        sec.blocks.insert(0, Text("No model, kernel or library comparison records here: the answers need them."))
    return sec
