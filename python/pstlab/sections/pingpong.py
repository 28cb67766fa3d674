"""`pstswm pingpong`: latency and bandwidth per send mode (seed 002 §5.1)."""

from pstlab import stats
from pstlab.doc import Section, Table, Text, fmt_bytes, fmt_num, fmt_pct, fmt_us
from pstlab.plots import Panel, Series, figure
from pstlab.records import RecordSet, number
from pstlab.sections.common import Metric, best, group_by, sort_key, varying

BENCH = "pingpong"
TITLE = "Ping-pong latency and bandwidth (seed 002)"

# Seed 002: latency and bandwidth by linear regression over messages of 1 to 2 MB.
FIT_WINDOW = (1 << 20, 2 << 20)
VARIANTS = ("transport", "pair", "pairs", "direction")


def mbytes_per_s(rec: dict) -> float | None:
    t = number(rec, "t_min")
    return rec["bytes"] / t / 1e6 if t and rec["bytes"] > 0 else None


def _curves(rs: RecordSet) -> dict[tuple, dict[int, dict]]:
    """{(mode, variants...): {bytes: fastest point}}."""
    points = [p for p in rs.points(BENCH) if number(p, "t_min") is not None and p.get("bytes") is not None]
    keys = ("mode", *varying(points, VARIANTS))
    curves = {}
    for key, pts in group_by(points, *keys).items():
        curves[tuple(f"{k} {v}" if k != "mode" else str(v) for k, v in zip(keys, key, strict=True))] = {
            b: best(g) for (b,), g in group_by(pts, "bytes").items()
        }
    return dict(sorted(curves.items(), key=lambda kv: sort_key(kv[0][0])))


def _fit(curve: dict[int, dict]) -> tuple[stats.LineFit | None, str]:
    sizes = sorted(curve)
    window = [b for b in sizes if FIT_WINDOW[0] <= b <= FIT_WINDOW[1]]
    label = f"{fmt_bytes(FIT_WINDOW[0])}…{fmt_bytes(FIT_WINDOW[1])}"
    if len(window) < 2:
        window = [b for b in sizes if b > 0][-3:]
        label = f"largest {len(window)}: {fmt_bytes(window[0])}…{fmt_bytes(window[-1])}" if window else "–"
    fit = stats.line_fit([float(b) for b in window], [curve[b]["t_min"] for b in window])
    return fit, label


def table(rs: RecordSet) -> Table:
    rows = []
    for key, curve in _curves(rs).items():
        smallest = min(curve)
        peak = max((p for p in curve.values() if mbytes_per_s(p)), key=mbytes_per_s, default=None)
        fit, window = _fit(curve)
        rows.append(
            [
                " ".join(key),
                f"{fmt_us(curve[smallest]['t_min'])} ({fmt_bytes(smallest)} B)",
                fmt_num(mbytes_per_s(peak), 4) if peak else "–",
                fmt_bytes(peak["bytes"]) if peak else "–",
                fmt_us(fit.intercept) if fit else "–",
                fmt_num(1 / fit.slope / 1e6, 4) if fit and fit.slope > 0 else "–",
                window,
                fmt_pct(fit.max_rel_residual) if fit else "–",
            ]
        )
    return Table(
        "Latency and bandwidth per mode (seed 002 §5.1)",
        ["mode", "latency µs (size)", "peak MB/s", "at bytes", "fit t_l µs", "fit MB/s", "fit window", "fit max resid"],
        rows,
        "Times are half round trips, t_min (min over repetitions). Latency at the smallest size measured; "
        "peak MB/s = bytes / t_min (MB = 10^6 B). The fit T(N) = t_l + N·t_s is least squares over the window "
        "(seed 002: 1–2 MB; the largest sizes when the window holds fewer than two) computed by pstlab.",
    )


def _panels(sets: list[tuple[str, RecordSet]]) -> list[Panel]:
    bw = Panel("Ping-pong bandwidth", "message size (bytes)", "MB/s (from t_min)", xlog=True, xbytes=True)
    lat = Panel(
        "Ping-pong half round trip",
        "message size (bytes)",
        "t_min (µs)",
        xlog=True,
        ylog=True,
        xbytes=True,
        rank_by_max_y=False,
    )
    for (label, rs), style in zip(sets, ("-", "--"), strict=False):
        for key, curve in _curves(rs).items():
            sizes = sorted(b for b in curve if b > 0)
            name = " ".join(key)
            shown = f"{label}: {name}" if label else name
            bw.series.append(Series(shown, sizes, [mbytes_per_s(curve[b]) for b in sizes], style=style, group=name))
            lat.series.append(Series(shown, sizes, [curve[b]["t_min"] * 1e6 for b in sizes], style=style, group=name))
    return [bw, lat]


def section(rs: RecordSet) -> Section:
    sec = Section(TITLE)
    sec.add(
        Text("Two ranks bounce a message; a point's time is half the round trip, per send mode."),
        table(rs),
        figure("pingpong", "Ping-pong bandwidth and latency vs message size per mode (t_min).", _panels([("", rs)])),
    )
    return sec


def headline(rs: RecordSet) -> list[str]:
    lines = []
    for key, curve in _curves(rs).items():
        smallest = min(curve)
        peak = max((p for p in curve.values() if mbytes_per_s(p)), key=mbytes_per_s, default=None)
        peak_text = f", peak {fmt_num(mbytes_per_s(peak), 4)} MB/s at {fmt_bytes(peak['bytes'])}" if peak else ""
        lines.append(
            f"pingpong {' '.join(key)}: {fmt_bytes(smallest)} B {fmt_us(curve[smallest]['t_min'])} µs{peak_text}"
        )
    return lines


def _times(rs: RecordSet) -> dict:
    return {(" ".join(key), b): (p["t_min"], "") for key, curve in _curves(rs).items() for b, p in curve.items()}


METRICS = [Metric("Ping-pong half round trip", ("mode", "bytes"), "t_min µs", fmt_us, False, _times)]


def overlay(sets: list[tuple[str, RecordSet]]) -> list:
    return [figure("pingpong-overlay", "Ping-pong: A solid, B dashed.", _panels(sets))]
