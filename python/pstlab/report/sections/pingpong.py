"""`pstswm pingpong` in the report: latency and bandwidth per send mode (Frese & Knipp 1998 §5.1; the facts:
pstlab.benches.pingpong)."""

from pstlab.benches.pingpong import (
    BENCH,
    curves,
    curves_with_fields,
    mbytes_per_s,
    recorded_fit,
    window_fit,
)
from pstlab.core.units import fmt_bytes, fmt_num, fmt_pct, fmt_us
from pstlab.io.records import RecordSet, number
from pstlab.report.doc import Section, Table, Text
from pstlab.report.plots import Panel, Series, figure, time_vs_size_panel
from pstlab.stats import stats

TITLE = "Ping-pong latency and bandwidth (Frese & Knipp 1998)"


def _fit_cells(rs: RecordSet, fields: dict, curve: dict[int, dict]) -> list[str]:
    """t_l, bandwidth, window and residual of T(N) = t_l + N·t_s: pstswm's summary, else fitted here."""
    s = recorded_fit(rs, fields, {p.get("run_id") for p in curve.values()})
    if s is not None:
        window = f"{fmt_bytes(number(s, 'fit_from_bytes'))}…{fmt_bytes(number(s, 'fit_to_bytes'))}"
        err = number(s, "fit_max_rel_residual")
        why = stats.fit_problem(err, number(s, "t_l_s"), number(s, "fit_mbytes_per_s"))
        if why is None and s.get("window_fit_ok") is False:
            why = "pstswm's checks"
        if why:
            return [f"FIT NOT OK ({why})", "–", window, fmt_pct(err), "pstswm"]
        return [fmt_us(number(s, "t_l_s")), fmt_num(number(s, "fit_mbytes_per_s"), 4), window, fmt_pct(err), "pstswm"]
    fit, window = window_fit(curve)
    if fit is None:
        return ["–", "–", window, "–", "pstlab"]
    if why := stats.fit_problem(fit.max_rel_residual, fit.intercept, fit.slope):
        return [f"FIT NOT OK ({why})", "–", window, fmt_pct(fit.max_rel_residual), "pstlab"]
    return [fmt_us(fit.intercept), fmt_num(1 / fit.slope / 1e6, 4), window, fmt_pct(fit.max_rel_residual), "pstlab"]


def table(rs: RecordSet) -> Table:
    rows = []
    for key, (fields, curve) in curves_with_fields(rs).items():
        smallest = min(curve)
        peak = max((p for p in curve.values() if mbytes_per_s(p)), key=mbytes_per_s, default=None)
        rows.append(
            [
                " ".join(key),
                f"{fmt_us(curve[smallest]['t_min'])} ({fmt_bytes(smallest)} B)",
                fmt_num(mbytes_per_s(peak), 4) if peak else "–",
                fmt_bytes(peak["bytes"]) if peak else "–",
                *_fit_cells(rs, fields, curve),
            ]
        )
    return Table(
        "Latency and bandwidth per mode (Frese & Knipp 1998 §5.1)",
        [
            "mode",
            "latency µs (size)",
            "peak MB/s",
            "at bytes",
            "fit t_l µs",
            "fit MB/s",
            "fit window",
            "fit max resid",
            "fit by",
        ],
        rows,
        "Times are half round trips (per exchange for direction bi), t_min over repetitions. Latency at the smallest "
        "size measured; peak MB/s = bytes / t_min (MB = 10^6 B). T(N) = t_l + N·t_s by least squares over the window "
        "(Frese & Knipp 1998: 1–2 MB): pstswm's fit where it recorded one, else pstlab's over the same points "
        "(the largest sizes when the window holds fewer than two).",
    )


def _median_series(name: str, curve: dict[int, dict], sizes: list[int], style: str, group: str) -> Series | None:
    """Medians with their 95 % intervals as error bars, where the points carry them."""
    if not all(number(curve[b], k) is not None for b in sizes for k in ("t_med", "ci_low", "ci_high")):
        return None
    return Series(
        name,
        sizes,
        [curve[b]["t_med"] * 1e6 for b in sizes],
        yerr=[(curve[b]["ci_low"] * 1e6, curve[b]["ci_high"] * 1e6) for b in sizes],
        style=style,
        group=group,
    )


def _model_series(rs: RecordSet, fields: dict, curve: dict[int, dict], name: str) -> Series | None:
    """pstswm's piecewise T(N) = α + N/β over the sizes it covers, when the fit is ok."""
    run_ids = {p.get("run_id") for p in curve.values()}
    s = next(
        (
            s
            for s in rs.summaries(BENCH, "latbw")
            if s.get("run_id") in run_ids and all(s.get(k) == v for k, v in fields.items()) and s.get("segments")
        ),
        None,
    )
    if s is None or s.get("fit_ok") is False:
        return None
    xs, ys = [], []
    for seg in s["segments"]:
        alpha, beta = number(seg, "alpha_s"), number(seg, "beta_mbytes_per_s")
        if alpha is None or not beta:
            return None
        for b in (max(seg["from_bytes"], 1), seg["to_bytes"]):
            xs.append(b)
            ys.append((alpha + b / (beta * 1e6)) * 1e6)
    return Series(f"{name} model", xs, ys, style="--", group=f"{name} model")


def _panels(sets: list[tuple[str, RecordSet]]) -> list[Panel]:
    bw = Panel("Ping-pong bandwidth", "message size (bytes)", "MB/s (from t_min)", xlog=True, xbytes=True)
    lat = time_vs_size_panel("Ping-pong half round trip")
    with_ci = time_vs_size_panel("Half round trip: median with 95 % interval")
    with_ci.ylabel = "t_med (µs)"
    models = 0
    for (label, rs), style in zip(sets, ("-", "--"), strict=False):
        for key, (fields, curve) in curves_with_fields(rs).items():
            sizes = sorted(b for b in curve if b > 0)
            name = " ".join(key)
            shown = f"{label}: {name}" if label else name
            bw.series.append(Series(shown, sizes, [mbytes_per_s(curve[b]) for b in sizes], style=style, group=name))
            lat.series.append(Series(shown, sizes, [curve[b]["t_min"] * 1e6 for b in sizes], style=style, group=name))
            if len(sets) == 1 and (med := _median_series(shown, curve, sizes, style, name)):
                with_ci.series.append(med)
                if model := _model_series(rs, fields, curve, shown):
                    with_ci.series.append(model)
                    models += 1
    # promise the dashed model only when one is drawn (a fit that fails its checks is not)
    with_ci.title += ", piecewise model dashed" if models else " (no model drawn: none passed its checks)"
    return [bw, lat, *([with_ci] if with_ci.series else [])]


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
    for key, curve in curves(rs).items():
        smallest = min(curve)
        peak = max((p for p in curve.values() if mbytes_per_s(p)), key=mbytes_per_s, default=None)
        peak_text = f", peak {fmt_num(mbytes_per_s(peak), 4)} MB/s at {fmt_bytes(peak['bytes'])}" if peak else ""
        lines.append(
            f"pingpong {' '.join(key)}: {fmt_bytes(smallest)} B {fmt_us(curve[smallest]['t_min'])} µs{peak_text}"
        )
    return lines


def overlay(sets: list[tuple[str, RecordSet]]) -> list:
    return [figure("pingpong-overlay", "Ping-pong: A solid, B dashed.", _panels(sets))]
