"""`pstswm coll`: its operations, their order and labels, and the time per call by communicator size
(Frese & Knipp 1998 §5.2)."""

from pstlab.benches.common import Metric, varying
from pstlab.core.grouping import group_by
from pstlab.core.units import fmt_us
from pstlab.io.records import RecordSet, number

BENCH = "coll"
IN_ROUNDS = True  # it compares alternatives in interleaved rounds (--seed, --adaptive, --budget)
STAT = "t_med"  # the typical call; t_min is shown beside it in the bandwidth table
OPS = ("barrier", "bcast", "reduce", "allreduce", "alltoall", "alltoallv", "allgather")


def measured_points(rs: RecordSet) -> list[dict]:
    return [p for p in rs.points(BENCH) if number(p, STAT) is not None and p.get("comm_size") is not None]


def op_key(op) -> tuple:
    return (OPS.index(op), "") if op in OPS else (len(OPS), str(op))


def heap(state) -> str:
    """'warm heap' / 'fresh heap' for coll --alloc-state runs; '' for the default."""
    return f"{state} heap" if state not in (None, "default") else ""


def ops(points: list[dict]) -> list[tuple]:
    """(op label, points) per operation (and transport and allocator state, where several were run)."""
    keys = ("op", *varying(points, ("transport",)), *varying(points, ("alloc_state",)))
    groups = group_by(points, *keys)
    label = lambda key: " ".join(heap(k) if k in ("warm", "fresh", "default") else str(k) for k in key).strip()  # noqa: E731
    return [(label(key), pts) for key, pts in sorted(groups.items(), key=lambda kv: (op_key(kv[0][0]), str(kv[0])))]


def _times(rs: RecordSet) -> dict:
    return {
        (op, p.get("bytes"), p["comm_size"]): (number(p, STAT), "") for op, pts in ops(measured_points(rs)) for p in pts
    }


METRICS = [Metric("Collective time per call", ("operation", "bytes", "ranks"), "t_med µs", fmt_us, False, _times)]
