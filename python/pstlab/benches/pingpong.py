"""`pstswm pingpong`: its curves per send mode and their latency/bandwidth fits (Frese & Knipp 1998 §5.1)."""

from pstlab.benches.common import Metric, best, varying
from pstlab.core.grouping import group_by, sort_key
from pstlab.core.units import fmt_bytes, fmt_us
from pstlab.io.records import RecordSet, number
from pstlab.stats import stats

BENCH = "pingpong"
IN_ROUNDS = True  # it compares alternatives in interleaved rounds (--seed, --adaptive, --budget)

# Frese & Knipp 1998: latency and bandwidth by linear regression over messages of 1 to 2 MB.
FIT_WINDOW = (1 << 20, 2 << 20)
VARIANTS = ("transport", "pair", "pairs", "direction")


def mbytes_per_s(rec: dict) -> float | None:
    t = number(rec, "t_min")
    return rec["bytes"] / t / 1e6 if t and rec["bytes"] > 0 else None


def curves(rs: RecordSet) -> dict[tuple, dict[int, dict]]:
    """{(mode, variants...): {bytes: fastest point}}."""
    return {label: curve for label, (_, curve) in curves_with_fields(rs).items()}


def curves_with_fields(rs: RecordSet) -> dict[tuple, tuple[dict, dict[int, dict]]]:
    """{label: (identifying fields, {bytes: fastest point})} per mode and variant (direction, pairs...)."""
    points = [p for p in rs.points(BENCH) if number(p, "t_min") is not None and p.get("bytes") is not None]
    keys = ("mode", *varying(points, VARIANTS))
    out = {}
    for key, pts in group_by(points, *keys).items():
        label = tuple(f"{k} {v}" if k != "mode" else str(v) for k, v in zip(keys, key, strict=True))
        out[label] = (dict(zip(keys, key, strict=True)), {b: best(g) for (b,), g in group_by(pts, "bytes").items()})
    return dict(sorted(out.items(), key=lambda kv: sort_key(kv[0][0])))


def recorded_fit(rs: RecordSet, fields: dict, run_ids: set) -> dict | None:
    """pstswm's own latency/bandwidth summary of this curve, if it wrote one."""
    for s in rs.summaries(BENCH):
        if s.get("run_id") in run_ids and all(s.get(k) == v for k, v in fields.items()) and "t_l_s" in s:
            return s
    return None


def window_fit(curve: dict[int, dict]) -> tuple[stats.LineFit | None, str]:
    """T(N) = t_l + N·t_s over FIT_WINDOW (the largest sizes when it holds fewer than two), and the
    window's name."""
    sizes = sorted(curve)
    window = [b for b in sizes if FIT_WINDOW[0] <= b <= FIT_WINDOW[1]]
    label = f"{fmt_bytes(FIT_WINDOW[0])}…{fmt_bytes(FIT_WINDOW[1])}"
    if len(window) < 2:
        window = [b for b in sizes if b > 0][-3:]
        label = f"largest {len(window)}: {fmt_bytes(window[0])}…{fmt_bytes(window[-1])}" if window else "–"
    fit = stats.line_fit([float(b) for b in window], [curve[b]["t_min"] for b in window])
    return fit, label


def _times(rs: RecordSet) -> dict:
    return {(" ".join(key), b): (p["t_min"], "") for key, curve in curves(rs).items() for b, p in curve.items()}


METRICS = [Metric("Ping-pong half round trip", ("mode", "bytes"), "t_min µs", fmt_us, False, _times)]
