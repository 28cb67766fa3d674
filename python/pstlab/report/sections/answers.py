"""The report's first section: what to use on this machine, and whether the numbers can be trusted.

- the model's time per step split into computation and communication, and its parallel efficiency;
- per transform stage, the recommended algorithm and protocol (a tie set when the data cannot
  separate them) and what the generic protocol 0,6 and the MPI collective cost relative to it;
- which MPI library is faster where, when the records hold two (significant differences only);
- how much the allocator's state moves the collectives, when coll ran with --alloc-state;
- the guardrails: everything that weakens the figures above.
"""

from pstlab.analysis import box, family, guardrails
from pstlab.analysis.metric_rows import all_rows
from pstlab.benches import kernel, model, swap
from pstlab.benches.common import grid_ranks
from pstlab.core import tiesets
from pstlab.core.grouping import group_by
from pstlab.core.units import fmt_bytes, fmt_ms, fmt_pct, fmt_us
from pstlab.io.records import RecordSet, number
from pstlab.report.doc import Section, Table, Text
from pstlab.report.plots import stacked_bars
from pstlab.report.sections.common import joined
from pstlab.stats import verdicts

TITLE = "Answers for this machine"


def _model_rows(rs: RecordSet) -> list[dict]:
    runs = model.runs(rs)
    serial = {}
    for r in runs:
        if grid_ranks(r.get("grid")) == 1 and (
            model.problem(r) not in serial or r["step_s"] < serial[model.problem(r)]
        ):
            serial[model.problem(r)] = r["step_s"]
    rows = []
    for (prob, cfg), cells in model.by_problem_config(runs).items():
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
                (
                    f"{guardrails.MARK} oversubscribed: not meaningful"
                    if r["file"] in oversubscribed_files
                    else fmt_pct(r["efficiency"])
                )
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


def _protocols(v: family.FamilyVerdict, cases: list[verdicts.Case]) -> str:
    """Each tied hand-written algorithm's protocol tie set: its size among the alternatives run."""
    sets = {c.key[1]: c.verdict for c in cases if (c.key[0], c.key[2], c.key[3]) == (v.stage, v.size, v.grid)}
    parts = [f"{a} {len(sets[a].best_set)} of {len(sets[a].medians)}" for a in v.always if a in sets]
    return joined("", parts) or "–"


def stage_answer(rs: RecordSet, g: guardrails.Guardrails) -> Table | None:
    """pstswm's paired family verdicts (all candidates in one set of rounds), launches merged."""
    fams = family.verdicts(rs)
    if not fams:
        return None
    cases = kernel.verdict_cases(rs)
    rows = []
    for v in fams:
        some = [f"{a} ({v.in_best(a)} of {v.launches})" for a in v.sometimes]
        slower = [
            f"{a} {lo:.2f}×" if f"{lo:.2f}" == f"{hi:.2f}" else f"{a} {lo:.2f}–{hi:.2f}×"
            for a in v.never
            for lo, hi in [v.slower(a)]
        ]
        rows.append(
            [
                box.stage_name(v.stage, v.family),
                v.size,
                v.grid,
                tiesets.name(v.always, v.alternatives) if v.always else "none in every launch",
                fmt_us(v.median_s(v.always[0] if v.always else min(v.alternatives, key=v.median_s))),
                joined("", some) or "–",
                joined("", slower) or "–",
                _protocols(v, cases),
                str(v.launches),
                " ".join(dict.fromkeys(g.mark(f) for f in v.files if g.mark(f))) or "ok",
            ]
        )
    return Table(
        "Recommended parallel algorithm and protocol per transform stage. Which algorithm to use (each algorithm's "
        "fastest alternative, in one set of rounds)",
        [
            "stage",
            "size",
            "grid",
            "use (tied in every launch)",
            "best µs",
            "tied in some launches",
            "slower in every launch",
            "protocols tied per algorithm",
            "launches",
            "run",
        ],
        rows,
        "pstswm's family verdicts: each algorithm with its fastest protocol, the MPI library forms and the "
        "collective, run together in interleaved rounds; tied = not shown slower than the best beyond the margin at "
        "95 % confidence. best µs: the median over launches of the first. Slower: median over the best's, "
        "lowest–highest over launches. Protocols: the size of "
        "each tied algorithm's own protocol tie set (the kernel section names them).",
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
    rows = all_rows(a, b)
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
    """One row per collective and communicator: warm and fresh heap per message size, side by side."""
    points = [p for p in rs.points("coll") if p.get("alloc_state") in ("warm", "fresh") and number(p, "t_med")]
    sizes = sorted({p["bytes"] for p in points})
    rows = []
    for (op, comm), pts in sorted(group_by(points, "op", "comm_size").items(), key=str):
        cells = []
        for size in sizes:
            by_state = {p["alloc_state"]: p for p in pts if p["bytes"] == size}
            if {"warm", "fresh"} <= set(by_state):
                warm, fresh = by_state["warm"]["t_med"], by_state["fresh"]["t_med"]
                cells += [f"{fmt_us(warm)} / {fmt_us(fresh)}", f"{fresh / warm:.2f}"]
            else:
                cells += ["–", "–"]
        rows.append([str(op), str(comm), *cells])
    if not rows:
        return None
    return Table(
        "Allocator state: the same collective with a warm heap and with freshly mapped buffers",
        ["op", "ranks", *(c for size in sizes for c in (f"{fmt_bytes(size)} warm / fresh µs", "fresh / warm"))],
        rows,
        "coll --alloc-state warm keeps the heap primed so a library's temporary buffers come from reused memory; "
        "fresh makes glibc map (and the kernel zero) new pages for them; medians per call. A large ratio means the "
        "library allocates per call, and that a benchmark's verdict on it depends on what the process did before "
        "(docs/pingpong-coll.md).",
    )


def section(rs: RecordSet) -> Section:
    sec = Section(TITLE)
    g = guardrails.check(rs, kernel.verdict_cases(rs) + swap.verdict_cases(rs))
    sec.add(*model_answer(rs, g.oversubscribed))
    sec.add(stage_answer(rs, g), library_answer(rs), allocator_answer(rs))
    notes = g.lines()
    text = "\n".join(f"- {n}" for n in notes) if notes else "- none: no oversubscription, a quiet host, fits ok."
    sec.add(Text(f"**Guardrails** (what weakens the figures in this report, and what to do):\n{text}"))
    if len(sec.blocks) == 1:
        sec.blocks.insert(0, Text("No model, kernel or library comparison records here: the answers need them."))
    return sec
