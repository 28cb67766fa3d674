"""`pstswm coll`: collective time vs message size and communicator size (Frese & Knipp 1998 §5.2)."""

from pstlab.doc import Section, Table, Text, fmt_bytes, fmt_num, fmt_us
from pstlab.plots import Panel, Series, figure
from pstlab.records import RecordSet, number
from pstlab.sections.common import Metric, group_by, sort_key, varying

BENCH = "coll"
TITLE = "Collective operations (Frese & Knipp 1998)"
STAT = "t_med"  # the typical call; t_min is shown beside it in the bandwidth table
OPS = ("barrier", "bcast", "reduce", "allreduce", "alltoall", "alltoallv", "allgather")


def _points(rs: RecordSet) -> list[dict]:
    return [p for p in rs.points(BENCH) if number(p, STAT) is not None and p.get("comm_size") is not None]


def _op_key(op) -> tuple:
    return (OPS.index(op), "") if op in OPS else (len(OPS), str(op))


def _ops(points: list[dict]) -> list[tuple]:
    """(op label, points) per operation (and transport, where several were run)."""
    keys = ("op", *varying(points, ("transport",)))
    groups = group_by(points, *keys)
    return [
        (" ".join(str(k) for k in key), pts) for key, pts in sorted(groups.items(), key=lambda kv: _op_key(kv[0][0]))
    ]


def time_table(points: list[dict]) -> Table:
    sizes = sorted({p["comm_size"] for p in points})
    rows = []
    for op, pts in _ops(points):
        for (nbytes,), group in sorted(group_by(pts, "bytes").items(), key=lambda kv: sort_key(kv[0][0])):
            by_size = {p["comm_size"]: p for p in group}
            rows.append(
                [op, fmt_bytes(nbytes), *(fmt_us(number(by_size[c], STAT)) if c in by_size else "–" for c in sizes)]
            )
    return Table(
        "Time per call (µs, median over iterations) by communicator size",
        ["operation", "bytes", *(f"{c} ranks" for c in sizes)],
        rows,
        "Communicator sizes are sub-communicators of the run's ranks (Frese & Knipp 1998 sweeps 2…P); bytes per rank "
        "as pstswm defines them for each operation.",
    )


def bandwidth_table(points: list[dict]) -> Table | None:
    rows = []
    for op, pts in _ops(points):
        largest = max(p["comm_size"] for p in pts)
        for p in sorted((p for p in pts if p["comm_size"] == largest), key=lambda p: sort_key(p.get("bytes"))):
            if number(p, "algbw") is None:
                continue
            rows.append(
                [
                    op,
                    fmt_bytes(p.get("bytes")),
                    str(largest),
                    fmt_us(number(p, "t_min")),
                    fmt_us(number(p, STAT)),
                    fmt_num(number(p, "algbw")),
                    fmt_num(number(p, "busbw")),
                ]
            )
    if not rows:
        return None
    return Table(
        "Bandwidth at the largest communicator size",
        ["operation", "bytes", "ranks", "t_min µs", "t_med µs", "algbw GB/s", "busbw GB/s"],
        rows,
        "algbw = bytes / time and busbw = algbw × the operation's bus factor, as nccl-tests defines them "
        "(allreduce 2(n−1)/n, alltoall and allgather (n−1)/n, bcast and reduce 1), as recorded by pstswm.",
    )


def _panels(sets: list[tuple[str, RecordSet]]) -> list[Panel]:
    panels: dict[str, Panel] = {}
    for (label, rs), style in zip(sets, ("-", "--"), strict=False):
        for op, pts in _ops(_points(rs)):
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
                    )
                )
    return list(panels.values())


def busbw_panel(points: list[dict]) -> Panel | None:
    """Bus bandwidth against message size at the largest communicator, one line per operation."""
    with_bw = [p for p in points if number(p, "busbw") and p.get("bytes")]
    if not with_bw:
        return None
    largest = max(p["comm_size"] for p in with_bw)
    panel = Panel(f"Bus bandwidth on {largest} ranks", "message size (bytes)", "busbw (MB/s)", xlog=True, xbytes=True)
    for (op,), same_op in sorted(group_by([p for p in with_bw if p["comm_size"] == largest], "op").items()):
        by_size = sorted(same_op, key=lambda p: p["bytes"])
        panel.series.append(Series(str(op), [p["bytes"] for p in by_size], [p["busbw"] for p in by_size]))
    return panel


def section(rs: RecordSet) -> Section:
    points = _points(rs)
    sec = Section(TITLE)
    sec.add(
        Text(
            "Each operation over message sizes and communicator sizes; times are per call, the median over "
            "iterations of the time across ranks (Frese & Knipp 1998's barrier/loop/max-of-end-times method as pstswm "
            "records it)."
        ),
        time_table(points),
        bandwidth_table(points),
    )
    if panels := _panels([("", rs)]):
        sec.add(figure("coll", "Collective time vs communicator size, one line per message size.", panels, columns=3))
    if bus := busbw_panel(points):
        sec.add(figure("coll-busbw", "Bus bandwidth (the NCCL-tests convention) vs message size per operation.", [bus]))
    return sec


def headline(rs: RecordSet) -> list[str]:
    lines = []
    for op, pts in _ops(_points(rs)):
        largest = max(p["comm_size"] for p in pts)
        at = sorted((p for p in pts if p["comm_size"] == largest), key=lambda p: sort_key(p.get("bytes")))
        sizes = ", ".join(
            f"{fmt_bytes(p.get('bytes'))} B {fmt_us(number(p, STAT))} µs" for p in (at[0], at[-1])[: len(at)]
        )
        lines.append(f"coll {op} on {largest} ranks: {sizes}")
    return lines


def _times(rs: RecordSet) -> dict:
    return {(op, p.get("bytes"), p["comm_size"]): (number(p, STAT), "") for op, pts in _ops(_points(rs)) for p in pts}


METRICS = [Metric("Collective time per call", ("operation", "bytes", "ranks"), "t_med µs", fmt_us, False, _times)]


def overlay(sets: list[tuple[str, RecordSet]]) -> list:
    panels = _panels(sets)
    return [figure("coll-overlay", "Collectives: A solid, B dashed.", panels, columns=3)] if panels else []
