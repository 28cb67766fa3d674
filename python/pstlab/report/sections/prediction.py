"""Predicted scaling (`pstlab predict`): the model's time per step and parallel efficiency against
ranks on a simulated platform, one line per algorithm set, measured beside predicted where both
exist, and which set to use at which scale.

A prediction is deterministic: its uncertainty is the platform's own validation error (the
manifest's `predicted.band`, from the platform's [validation]), not an interval over rounds.  Two
sets whose predictions differ by less than that band are not told apart.
"""

from pstlab.analysis.prediction import band, curves, efficiency, fastest, split
from pstlab.benches.common import grid_ranks
from pstlab.core.units import fmt_ms, fmt_pct
from pstlab.io.records import RecordSet, number
from pstlab.report.doc import Section, Table, Text
from pstlab.report.plots import Panel, Series, figure

TITLE = "Predicted scaling"


def answer(curves_s: dict[str, dict[int, float]], band_rel: float | None) -> list[str]:
    """Per rank count, the fastest set, and the others within the band (not told apart from it)."""
    lines = []
    for ranks, best in fastest(curves_s).items():
        times = {s: c[ranks] for s, c in curves_s.items() if ranks in c}
        close = [s for s in times if s != best and band_rel is not None and times[s] <= times[best] * (1 + band_rel)]
        tie = f" (within the band: {', '.join(close)})" if close else ""
        lines.append(f"{ranks} ranks: **{best}**{tie}")
    return lines


def _problem_blocks(prob: str, predicted: dict, measured: dict, band_rel: float | None) -> list:
    cells = {(s, g): r for (p, s, g), r in predicted.items() if p == prob}
    fewest = min(grid_ranks(g) for _, g in cells)
    base = min((r["step_s"], fewest) for (_, g), r in cells.items() if grid_ranks(g) == fewest)
    by_set = curves(predicted)[prob]
    rows = []
    for (s, g), r in sorted(cells.items(), key=lambda kv: (grid_ranks(kv[0][1]), kv[0][0])):
        m = measured.get((prob, s, g))
        error = (r["step_s"] - m["step_s"]) / m["step_s"] if m else None
        rows.append(
            [
                s,
                g,
                fmt_ms(r["step_s"]),
                fmt_ms(number(r, "comm_s")),
                fmt_pct(efficiency(r["step_s"], grid_ranks(g), base)),
                fmt_ms(m["step_s"]) if m else "–",
                fmt_pct(error, signed=True) if m else "–",
            ]
        )
    table = Table(
        f"{prob}: predicted time per step per algorithm set",
        ["set", "grid", "ms per step", "comm ms", "efficiency", "measured ms", "predicted − measured"],
        rows,
        note=f"Efficiency against {fmt_ms(base[0])} ms at {base[1]} ranks (the fastest set there) × ranks.",
    )
    ticks = [(p, str(p)) for p in sorted({p for c in by_set.values() for p in c})]
    time_panel = Panel(f"{prob}: time per step", "ranks", "ms per step", xlog=True, ylog=True, xticks=ticks)
    eff_panel = Panel(f"{prob}: efficiency", "ranks", "efficiency", xlog=True, xticks=ticks)
    for s, c in sorted(by_set.items()):
        xs = sorted(c)
        time_panel.series.append(Series(s, xs, [c[p] * 1e3 for p in xs]))
        eff_panel.series.append(Series(s, xs, [efficiency(c[p], p, base) for p in xs]))
    name = "predicted-" + prob.replace(" ", "-")
    fig = figure(name, f"{prob}: predicted time per step and efficiency against ranks", [time_panel, eff_panel])
    return [Text(f"**Answer, {prob}:** " + "; ".join(answer(by_set, band_rel)) + "."), table, fig]


def section(rs: RecordSet) -> Section | None:
    """None when the records hold no prediction."""
    predicted, measured = split(rs)
    if not predicted:
        return None
    band_rel = band(rs)
    entry = (rs.manifest or {}).get("predicted") or {}
    simulation = next((h["simulation"] for h in rs.headers() if h.get("simulated") and h.get("simulation")), {})
    where = entry.get("platform") or simulation.get("platform")
    sha = entry.get("platform_sha256") or simulation.get("platform_sha256")
    digest = f" (SHA-256 {sha[:12]}…)" if sha else ""
    accuracy = (
        f"±{band_rel:.0%}, the platform's validation error: differences smaller than that are not resolved"
        if band_rel is not None
        else "unknown: the platform has no [validation] figures (pstlab calibrate writes them)"
    )
    sec = Section(TITLE)
    sec.add(
        Text(
            f"Simulated with SimGrid's SMPI on `{where}`{digest}. Predictions are deterministic; their band is "
            f"{accuracy}. They are never part of a verdict above."
        )
    )
    for prob in sorted({p for p, _, _ in predicted}):
        sec.add(*_problem_blocks(prob, predicted, measured, band_rel))
    return sec
