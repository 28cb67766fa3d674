"""`pstswm coll` in the report: collective time vs message size and communicator size (Frese & Knipp 1998 §5.2;
the facts: pstlab.benches.coll)."""

from collections.abc import Callable

from pstlab.analysis import guardrails
from pstlab.benches.coll import BENCH, STAT, heap, measured_points, op_key, ops
from pstlab.core.grouping import group_by, sort_key
from pstlab.core.units import fmt_bytes, fmt_num, fmt_us
from pstlab.io.records import RecordSet, number
from pstlab.report.doc import Section, Table, Text
from pstlab.report.plots import Panel, Series, figure
from pstlab.report.sections.common import with_mark

TITLE = "Collective operations (Frese & Knipp 1998)"


def _row_mark(pts: list[dict], marks: dict[str, str]) -> str:
    return next((marks[p["_file"]] for p in pts if p.get("_file") in marks), "")


def sweep_points(rs: RecordSet) -> list[dict]:
    """The size sweeps: the allocator-state runs (coll --alloc-state) have their own table among the answers."""
    return [p for p in measured_points(rs) if not heap(p.get("alloc_state"))] or measured_points(rs)


def concerned(rs: RecordSet) -> Callable[[dict], bool]:
    """Whether a point is from a noisy run or from a communicator with more ranks than its host's CPUs:
    a run launched on more ranks than CPUs still measured its smaller communicators on a CPU each."""
    headers = {h.get("_file"): h for h in rs.headers()}
    noisy = {f for f, why in guardrails.marks(rs).items() if "noisy" in why}

    def marked(p: dict) -> bool:
        h = headers.get(p.get("_file")) or {}
        cpus = h.get("cpus_online")
        over = bool(h.get("oversubscribed")) and (not isinstance(cpus, int) or p.get("comm_size", 0) > cpus)
        return over or p.get("_file") in noisy

    return marked


def time_table(points: list[dict], marked: Callable[[dict], bool]) -> Table:
    """One row per operation and size: the time per communicator size, and the bandwidth at the largest;
    MARK on the cells it concerns, not on the row or the table."""
    sizes = sorted({p["comm_size"] for p in points})
    rows = []
    for op, pts in ops(points):
        for (nbytes,), group in sorted(group_by(pts, "bytes").items(), key=lambda kv: sort_key(kv[0][0])):
            by_size = {p["comm_size"]: p for p in group}
            cells = [_cell(by_size[c], marked) if c in by_size else "–" for c in sizes]
            largest = by_size[max(by_size)]
            mark = f" {guardrails.MARK}" if marked(largest) else ""
            bandwidth = [fmt_num(number(largest, k)) + mark for k in ("algbw", "busbw")]
            rows.append([op, fmt_bytes(nbytes), *cells, *bandwidth])
    return Table(
        "Time per call (µs, median over iterations) by communicator size",
        ["operation", "bytes", *(f"{c} ranks" for c in sizes), "algbw GB/s", "busbw GB/s"],
        rows,
        "Communicator sizes are sub-communicators of the run's ranks (Frese & Knipp 1998 sweeps 2…P); bytes per rank "
        "as pstswm defines them for each operation. algbw = bytes / time and busbw = algbw × the operation's bus "
        "factor at the largest communicator measured, as nccl-tests defines them (allreduce 2(n−1)/n, alltoall and "
        "allgather (n−1)/n, bcast and reduce 1). 'warm heap' / 'fresh heap': coll --alloc-state runs. "
        f"{guardrails.MARK} on a cell: its communicator had more ranks than the host has CPUs, or its run was noisy.",
    )


def _cell(p: dict, marked: Callable[[dict], bool]) -> str:
    return fmt_us(number(p, STAT)) + (f" {guardrails.MARK}" if marked(p) else "")


def _panels(sets: list[tuple[str, RecordSet]]) -> list[Panel]:
    panels: dict[str, Panel] = {}
    for (label, rs), style in zip(sets, ("-", "--"), strict=False):
        marks = guardrails.marks(rs)
        for op, pts in ops(sweep_points(rs)):
            panel = panels.setdefault(
                op,
                Panel(
                    op,
                    "communicator size (ranks)",
                    "median time per call (µs)",
                    ylog=True,
                    rank_by_max_y=False,
                    xinteger=True,
                ),
            )
            for (nbytes,), same_size in sorted(group_by(pts, "bytes").items(), key=lambda kv: sort_key(kv[0][0])):
                group = sorted(same_size, key=lambda p: p["comm_size"])
                name = f"{fmt_bytes(nbytes)} B"
                panel.series.append(
                    Series(
                        f"{label}: {name}" if label else name,
                        [p["comm_size"] for p in group],
                        [number(p, STAT) * 1e6 for p in group],
                        style=style,
                        group=name,
                        marked=[p.get("_file") in marks for p in group],
                    )
                )
    # a panel of one communicator size (the allocator-state runs) is two crosses: the table says it better
    return [p for p in panels.values() if len({x for series in p.series for x in series.x}) > 1]


def busbw_panel(points: list[dict], marks: dict[str, str]) -> Panel | None:
    """Bus bandwidth against message size at the largest communicator, one line per operation."""
    with_bw = [p for p in points if number(p, "busbw") and p.get("bytes")]
    if not with_bw:
        return None
    largest = max(p["comm_size"] for p in with_bw)
    panel = Panel(f"Bus bandwidth on {largest} ranks", "message size (bytes)", "busbw (GB/s)", xlog=True, xbytes=True)
    for op, same_op in ops([p for p in with_bw if p["comm_size"] == largest]):
        by_size = sorted(same_op, key=lambda p: p["bytes"])
        panel.series.append(
            Series(
                op,
                [p["bytes"] for p in by_size],
                [p["busbw"] for p in by_size],
                marked=[p.get("_file") in marks for p in by_size],
            )
        )
    return panel


def _form_rows(rs: RecordSet, kind: str) -> list[dict]:
    key = lambda s: (op_key(s.get("op")), s.get("comm_size"), sort_key(s.get("bytes")))  # noqa: E731
    return sorted(rs.summaries(BENCH, kind), key=key)


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.0f}"


def overlap_table(rs: RecordSet) -> Table | None:
    """--nonblocking: IMB-NBC's overlap per op, size and communicator, without and with MPI_Test."""
    rows = [
        [
            str(s.get("op")),
            fmt_bytes(s.get("bytes")),
            str(s.get("comm_size")),
            fmt_us(number(s, "t_pure_s")),
            fmt_us(number(s, "t_cpu_s")),
            fmt_us(number(s, "t_ovrl_s")),
            _pct(number(s, "overlap_pct")),
            fmt_us(number(s, "t_ovrl_test_s")),
            _pct(number(s, "overlap_test_pct")),
        ]
        for s in _form_rows(rs, "overlap")
    ]
    if not rows:
        return None
    return Table(
        "Nonblocking collectives: how much computation they hide (IMB-NBC method)",
        [
            "op",
            "bytes",
            "ranks",
            "call alone µs",
            "compute µs",
            "overlapped µs",
            "overlap %",
            "with MPI_Test µs",
            "overlap % (MPI_Test)",
        ],
        rows,
        "Per call: the nonblocking call alone (start + wait), a compute loop calibrated to its length, and both "
        "(compute between start and wait; then with an MPI_Test every few chunks), medians over rounds of the max "
        "over ranks. overlap = (alone + compute − overlapped) / min(alone, compute), clamped to [0, 100] %.",
    )


def persistent_table(rs: RecordSet) -> Table | None:
    """--persistent: the persistent form against the blocking call, its set-up apart."""
    rows = []
    for s in _form_rows(rs, "persistent"):
        lo, hi = (s.get("persistent_ratio_ci") or [None, None])[:2]
        ratio = number(s, "persistent_ratio")
        interval = f" [{lo:.2f}, {hi:.2f}]" if lo is not None and hi is not None else ""
        text = "–" if ratio is None else f"{ratio:.2f}{interval}"
        rows.append(
            [
                str(s.get("op")),
                fmt_bytes(s.get("bytes")),
                str(s.get("comm_size")),
                fmt_us(number(s, "init_s")),
                fmt_us(number(s, "t_blocking_s")),
                fmt_us(number(s, "t_persistent_s")),
                text + ("" if s.get("persistent_significant") else " n.s."),
            ]
        )
    if not rows:
        return None
    return Table(
        "Persistent collectives (MPI-4.0 §6.13) against the blocking call",
        ["op", "bytes", "ranks", "set-up µs", "blocking µs", "persistent µs", "persistent / blocking [CI]"],
        rows,
        "Set-up (the *_init call) once, not in the per-call times; then paired rounds of the blocking and the "
        "persistent loop (MPI_Start + MPI_Wait). 'n.s.': within the equivalence margin.",
    )


def section(rs: RecordSet) -> Section:
    points = sweep_points(rs)
    marks = guardrails.marks(rs)
    sec = Section(TITLE)
    sec.add(
        Text(
            "Each operation over message sizes and communicator sizes; times are per call, the median over "
            "iterations of the time across ranks (Frese & Knipp 1998's barrier/loop/max-of-end-times method as pstswm "
            "records it)."
        ),
        time_table(points, concerned(rs)),
        overlap_table(rs),
        persistent_table(rs),
    )
    if panels := _panels([("", rs)]):
        sec.add(figure("coll", "Collective time vs communicator size, one line per message size.", panels, columns=3))
    if bus := busbw_panel(points, marks):
        sec.add(figure("coll-busbw", "Bus bandwidth (the NCCL-tests convention) vs message size per operation.", [bus]))
    return sec


def headline(rs: RecordSet) -> list[str]:
    lines, marks = [], guardrails.marks(rs)
    # the allocator-state runs answer another question (the report's allocator table): not headline figures
    for op, pts in ops([p for p in measured_points(rs) if not heap(p.get("alloc_state"))]):
        largest = max(p["comm_size"] for p in pts)
        at = sorted((p for p in pts if p["comm_size"] == largest), key=lambda p: sort_key(p.get("bytes")))
        sizes = ", ".join(
            f"{fmt_bytes(p.get('bytes'))} B {fmt_us(number(p, STAT))} µs" for p in (at[0], at[-1])[: len(at)]
        )
        ranks = f"{largest} rank{'s' if largest != 1 else ''}"
        lines.append(with_mark(f"coll {op} on {ranks}: {sizes}", _row_mark(at, marks)))
    return lines


def overlay(sets: list[tuple[str, RecordSet]]) -> list:
    panels = _panels(sets)
    return [figure("coll-overlay", "Collectives: A solid, B dashed.", panels, columns=3)] if panels else []
