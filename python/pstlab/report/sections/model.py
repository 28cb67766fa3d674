"""`pstswm model` in the report: serial rate, runtimes over processor grids, gen/coll degradation (Worley 1998
Tables 1, 5; the facts: pstlab.benches.model)."""

from pstlab.analysis import guardrails
from pstlab.benches.common import grid_ranks
from pstlab.benches.model import (
    ERRORS,
    NOT_STAGES,
    SETUP_PREFIXES,
    STAGE_COLUMNS,
    by_problem_config,
    config,
    fastest,
    problem,
    reference_run,
    runs,
    sorted_grids,
)
from pstlab.core.grouping import group_by
from pstlab.core.units import fmt_ms, fmt_num, fmt_pct, fmt_sci
from pstlab.io.records import RecordSet, number
from pstlab.report.doc import Details, Section, Table, Text
from pstlab.report.plots import Panel, Series, figure
from pstlab.stats import stats

TITLE = "Shallow water model runs (Worley 1998 Tables 1 and 5)"


def _fmt_count(x: float | None) -> str:
    return "–" if x is None else f"{round(x):,}"


def serial_table(recs: list[dict]) -> Table | None:
    serial = [r for r in recs if grid_ranks(r.get("grid")) == 1 or r.get("ranks") == 1]
    if not serial:
        return None
    rows = []
    for (name,), group in sorted(group_by([dict(r, problem=problem(r)) for r in serial], "problem").items()):
        r = fastest(group)
        rows.append(
            [
                name,
                fmt_ms(r["step_s"]),
                fmt_num(number(r, "mflops"), 4),
                _fmt_count(number(r, "flops_per_step")),
                str(r.get("steps", "–")),
                _blas(r),
            ]
        )
    return Table(
        "Serial performance (Worley 1998 Table 1)",
        ["problem", "ms per step", "MFlop/s", "flops per step", "steps", "Legendre BLAS"],
        rows,
        "One rank; time per step is the median over steps; MFlop/s from pstswm's analytic flop count per step "
        "(Worley 1998: T42 4,129,859 and T85 24,235,477 flops per step per level). Legendre BLAS: the library of "
        "the Legendre dgemms, '(auto)' when pstswm chose it by timing each at set-up.",
    )


def _blas(rec: dict) -> str:
    """The Legendre dgemms' library of a run; '–' for records older than --blas."""
    name = rec.get("blas")
    if not name:
        return "–"
    return f"{name} (auto)" if rec.get("blas_choice") == "auto" else name


def runtime_table(recs: list[dict]) -> Table:
    grids = sorted_grids(recs)
    rows = [
        [p, c, *(fmt_ms(cells[g]["step_s"]) if g in cells else "–" for g in grids)]
        for (p, c), cells in by_problem_config(recs).items()
    ]
    return Table(
        "Time per step (ms) by processor grid PX×PY (Worley 1998 Table 5, runtimes)",
        ["problem", "algorithms", *grids],
        rows,
        "Median time per step over the run (Worley 1998 gives 5-day totals; multiply by the steps of a simulated day "
        "to compare). 'gen' is srtrans + halfsum on protocol 0,6, 'coll' the MPI collectives, 'opt' the tuned preset.",
    )


def degradation_table(recs: list[dict]) -> Table | None:
    grids = sorted_grids(recs)
    table = by_problem_config(recs)
    rows = []
    for (prob, cfg), cells in table.items():
        if cfg in ("opt", "serial"):
            continue
        row = [prob, cfg]
        for g in grids:
            if g not in cells:
                row.append("–")
                continue
            reference = reference_run(table, prob, g)
            row.append(
                "best"
                if reference is cells[g]
                else fmt_pct(stats.rel_excess(cells[g]["step_s"], reference["step_s"]), signed=True)
            )
        rows.append(row)
    if not any(cell not in ("–", "best") for row in rows for cell in row[2:]):
        return None
    return Table(
        "Degradation against the optimal configuration (Worley 1998 Table 5, sensitivity)",
        ["problem", "algorithms", *grids],
        rows,
        "(t − t_opt)/t_opt per grid, where t_opt is the 'opt' preset's run when there is one and otherwise the fastest "
        "configuration measured on that grid ('best' marks it).",
    )


def accuracy_table(recs: list[dict]) -> Table | None:
    present = [k for k in ERRORS if any(number(r, k) is not None for r in recs)]
    if not present:
        return None
    rows = [
        [
            problem(r),
            str(r.get("grid")),
            config(r),
            str(r.get("steps", "–")),
            fmt_num(number(r, "dt_s")),
            *(fmt_num(number(r, k)) for k in present),
        ]
        for r in sorted(recs, key=lambda r: (problem(r), grid_ranks(r.get("grid")) or 0, config(r)))
    ]
    return Table(
        "Accuracy and conservation",
        ["problem", "grid", "algorithms", "steps", "dt s", *present],
        rows,
        "Williamson et al. (1992) normalised errors against the analytic solution (case 2) or a reference run; "
        "*_rel are relative changes of mass, energy and potential enstrophy since t = 0.",
    )


def stage_ms(r: dict, field: str, minus: str | None) -> str:
    value = number(r, field)
    if value is None:
        return "–"
    return fmt_ms(value - (number(r, minus) or 0.0) if minus else value)


def stage_table(recs: list[dict]) -> Table | None:
    known = {f for _, f, _ in STAGE_COLUMNS}
    shown = [c for c in STAGE_COLUMNS if any(number(r, c[1]) is not None for r in recs)]
    others = sorted(
        {
            k
            for r in recs
            for k in r
            if k.endswith("_s")
            and k not in NOT_STAGES
            and k not in known
            and k != "comm_s"
            and not k.startswith(SETUP_PREFIXES)
            and number(r, k) is not None
        }
    )
    shown += [(k.removesuffix("_s").replace("_", " "), k, None) for k in others]
    if not shown:
        return None
    rows = [
        [
            problem(r),
            str(r.get("grid")),
            config(r),
            fmt_ms(number(r, "step_s")),
            *(stage_ms(r, field, minus) for _, field, minus in shown),
        ]
        for r in sorted(recs, key=lambda r: (problem(r), grid_ranks(r.get("grid")) or 0, config(r)))
    ]
    return Table(
        "Where the time goes (ms per step, by stage)",
        ["problem", "grid", "algorithms", "step", *(label for label, _, _ in shown)],
        rows,
        "Per step, as pstswm records each stage (summed per rank), for the fastest run of each configuration; "
        "compute = the stage's time less its communication, so the columns do not overlap. The BLAS set-up probes "
        "are once per run and left out.",
    )


def _panel(sets: list[tuple[str, RecordSet]]) -> Panel | None:
    all_recs = [r for _, rs in sets for r in runs(rs)]
    if not all_recs:
        return None
    grids = sorted_grids(all_recs)
    position = {g: i for i, g in enumerate(grids)}
    panel = Panel(
        "Time per step vs processor grid",
        "processor grid PX×PY",
        "ms per step (median)",
        ylog=True,
        xticks=list(enumerate(grids)),
        rank_by_max_y=False,
    )
    for (label, rs), style in zip(sets, ("-", "--"), strict=False):
        marks = guardrails.marks(rs)
        for (prob, cfg), cells in by_problem_config(runs(rs)).items():
            gs = sorted(cells, key=position.get)
            name = f"{prob} {cfg}"
            panel.series.append(
                Series(
                    f"{label}: {name}" if label else name,
                    [position[g] for g in gs],
                    [cells[g]["step_s"] * 1e3 for g in gs],
                    style=style,
                    group=name,
                    marked=[cells[g].get("_file") in marks for g in gs],
                )
            )
    return panel


def one_per_configuration(recs: list[dict]) -> list[dict]:
    """The fastest run of each (problem, grid, algorithms), as the runtime table takes it: a configuration
    launched several times (ranks x threads) is one row, not one per launch."""
    keyed = group_by([dict(r, _key=(problem(r), str(r.get("grid")), config(r))) for r in recs], "_key")
    return [fastest(group) for group in keyed.values()]


def section(rs: RecordSet) -> Section:
    recs = runs(rs)
    sec = Section(TITLE)
    sec.add(
        Text(
            "Each run integrates the shallow water equations with the given parallel algorithms on a PX×PY "
            "processor grid."
        ),
        serial_table(recs),
        runtime_table(recs),
        degradation_table(recs),
    )
    if panel := _panel([("", rs)]):
        sec.add(
            figure(
                "model-runtime", "Model time per step vs processor grid per problem and algorithms.", [panel], columns=1
            )
        )
    once = one_per_configuration(recs)
    accuracy = accuracy_table(once)
    # the norms are the correctness record (tests check them); the report keeps them one click away
    sec.add(
        stage_table(once),
        Details(f"{accuracy.title} of every configuration", [accuracy], html_only=True) if accuracy else None,
    )
    return sec


def headline(rs: RecordSet) -> list[str]:
    lines = []
    for (prob,), group in sorted(group_by([dict(r, problem=problem(r)) for r in runs(rs)], "problem").items()):
        r = fastest(group)
        mflops = f", {fmt_num(number(r, 'mflops'), 4)} MFlop/s" if number(r, "mflops") is not None else ""
        err = f", h_l2 {fmt_sci(number(r, 'h_l2'))}" if number(r, "h_l2") is not None else ""
        lines.append(
            f"model {prob}: fastest {fmt_ms(r['step_s'])} ms/step ({config(r)} on {r.get('grid')}){mflops}{err}"
        )
    return lines


def overlay(sets: list[tuple[str, RecordSet]]) -> list:
    panel = _panel(sets)
    return [figure("model-overlay", "Model time per step: A solid, B dashed.", [panel], columns=1)] if panel else []
