"""`pstswm match`: the batches of messages received in and out of order and the fitted cost per failed
match (Song 2013).

IOT(n) and ROT(n) are the round-trip times of a batch of n messages received in order and in
reverse order; Diff = ROT − IOT is what the failed matches of the reverse order cost.  pstswm fits
the per-match cost M over all n at once (summary records), with its interval and the per-n values
it derived.
"""

from pstlab.benches.common import Metric, varying
from pstlab.core.grouping import sort_key
from pstlab.core.units import fmt_num
from pstlab.io.records import RecordSet, number

BENCH = "match"
IN_ROUNDS = False  # no interleaved rounds of alternatives
KEYS = ("algorithm", "queue", "wildcard", "length")


def key_of(rec: dict, extra: tuple[str, ...] = ()) -> tuple:
    return tuple(rec.get(k) for k in (*KEYS, *extra))


def batches(rs: RecordSet) -> dict[tuple, dict[int, dict[str, float]]]:
    """{(algorithm, queue, wildcard, length[, transport]): {n: {"iot": s, "rot": s}}}.

    Accepts records that carry iot_s and/or rot_s, or one record per order with the time in t_min.
    """
    points = [p for p in rs.points(BENCH) if p.get("n") is not None]
    extra = tuple(varying(points, ("transport",)))
    out: dict[tuple, dict[int, dict[str, float]]] = {}
    for p in points:
        times = out.setdefault(key_of(p, extra), {}).setdefault(int(p["n"]), {})
        iot, rot = number(p, "iot_s"), number(p, "rot_s")
        if iot is None and rot is None and number(p, "t_min") is not None:
            order = str(p.get("order", "in"))
            iot, rot = (number(p, "t_min"), None) if order.startswith("in") else (None, number(p, "t_min"))
        if iot is not None:
            times["iot"] = iot
        if rot is not None:
            times["rot"] = rot
    return dict(sorted(out.items(), key=lambda kv: [sort_key(k) for k in kv[0]]))


def fits(rs: RecordSet) -> list[dict]:
    """The fit summaries (those carrying m_ns)."""
    return sorted(
        (s for s in rs.summaries(BENCH) if number(s, "m_ns") is not None),
        key=lambda s: [sort_key(v) for v in key_of(s)],
    )


def m_interval(s: dict) -> tuple[float, float] | None:
    """M's 95 % interval in ns, when the fit summary carries one."""
    ci = s.get("m_ns_ci95")
    ok = isinstance(ci, list) and len(ci) == 2 and all(isinstance(v, int | float) for v in ci)
    return (float(ci[0]), float(ci[1])) if ok else None


def queue_verdicts(rs: RecordSet) -> dict[tuple, str]:
    """(queue, wildcard, length) -> pstswm's verdict on the communicator vs tag algorithms."""
    return {
        (s.get("queue"), s.get("wildcard"), s.get("length")): str(s["verdict"])
        for s in rs.summaries(BENCH)
        if s.get("verdict")
    }


def per_n_m(rs: RecordSet) -> dict[tuple, dict[int, float]]:
    """pstswm's per-n M (ns) from the fit summaries' counts / m_ns_per_n arrays."""
    out = {}
    for s in fits(rs):
        counts, values = s.get("counts"), s.get("m_ns_per_n")
        if isinstance(counts, list) and isinstance(values, list) and len(counts) == len(values):
            out[key_of(s)] = {int(n): v for n, v in zip(counts, values, strict=True) if isinstance(v, int | float)}
    return out


def _m(rs: RecordSet) -> dict:
    return {key_of(s): (s["m_ns"], "") for s in fits(rs)}


METRICS = [Metric("Fitted cost per failed match", KEYS, "M ns", fmt_num, False, _m)]
