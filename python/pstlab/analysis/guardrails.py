"""Everything that weakens the figures of a results directory, counted once, with what to do about it.

The report lists these (one short line each, with a fraction and an action), the verdict box turns
them into its Trust line, and every table, plot and summary line from a run named here carries
MARK.
"""

from dataclasses import dataclass, field

from pstlab.io.records import RecordSet, number
from pstlab.stats import verdicts

NOISE_WARN = 0.02  # lost share of a clock-spin probe above which the host was too busy (as pstswm)
MARK = "⚠"  # on every row, point and line from an oversubscribed or noisy run


@dataclass
class Guardrails:
    runs: int = 0
    oversubscribed: set[str] = field(default_factory=set)  # files
    noisy: dict[str, float] = field(default_factory=dict)  # file -> largest lost share
    unfooted: list[str] = field(default_factory=list)
    failing_fits: list[str] = field(default_factory=list)  # distinct names ('swap 0,6', 'pingpong latbw')
    fits: int = 0
    verdicts: int = 0
    imprecise_verdicts: int = 0
    clock_bound_verdicts: int = 0
    short_verdicts: int = 0
    points: int = 0
    imprecise_points: int = 0

    def marked(self, file: str | None) -> bool:
        return file in self.oversubscribed or file in self.noisy

    def mark(self, file: str | None) -> str:
        """MARK with why, for a row or line that comes from `file`; '' for a clean run."""
        why = [w for w, hit in (("oversubscribed", file in self.oversubscribed), ("noisy", file in self.noisy)) if hit]
        return f"{MARK} {', '.join(why)}" if why else ""

    def lines(self) -> list[str]:
        """The short list: each guardrail with its fraction and what to do."""
        out = []
        if self.oversubscribed:
            out.append(
                f"{MARK} oversubscribed: {len(self.oversubscribed)} of {self.runs} runs had more ranks than CPUs "
                f"({', '.join(sorted(self.oversubscribed))}); their times measure the scheduler. Do: run on a "
                "machine with a CPU per rank, or --max-ranks."
            )
        if self.noisy:
            worst = max(self.noisy, key=self.noisy.get)
            out.append(
                f"{MARK} noisy host: {len(self.noisy)} of {self.runs} runs lost more than {NOISE_WARN:.0%} of a "
                f"clock-spin probe (worst {worst}: {self.noisy[worst]:.0%}). Do: repeat on a quiet machine."
            )
        if self.unfooted:
            out.append(
                f"no footer in {len(self.unfooted)} of {self.runs} runs: interrupted, or an older pstswm; the "
                "after-run noise probe is missing. Do: rerun them (pstlab run --resume)."
            )
        if self.failing_fits:
            out.append(
                f"fits failing: {len(self.failing_fits)} of {self.fits} fitted models (error above 15 %, or a "
                "negative latency or bandwidth), shown as a count, never as numbers. Do: widen the size range."
            )
        if self.imprecise_verdicts or self.imprecise_points:
            out.append(
                f"precision not reached: {self.imprecise_verdicts} of {self.verdicts} verdicts, "
                f"{self.imprecise_points} of {self.points} measured points. Do: add rounds (--adaptive with a larger "
                "--budget); read medians with their intervals."
            )
        for n, what, do in (
            (self.clock_bound_verdicts, "times below 20 timer ticks", "read them as bounds, not values"),
            (self.short_verdicts, f"fewer than {verdicts.MIN_ROUNDS} rounds", "raise --reps"),
        ):
            if n:
                out.append(f"{what}: {n} of {self.verdicts} verdicts. Do: {do}.")
        return out


def _lost_share(header: dict, footer: dict | None) -> float | None:
    parts = ((header.get("noise") or {}).get("before"), ((footer or {}).get("noise") or {}).get("after"))
    lost = [number(p, "lost_frac_max") or 0.0 for p in parts if isinstance(p, dict)]
    return max(lost) if lost else None


def _fit_name(s: dict) -> str:
    what = s.get("protocol") or s.get("mode") or s.get("summary")
    return f"{s['bench']} {what}"


def check(rs: RecordSet, cases: list[verdicts.Case]) -> Guardrails:
    """The guardrails of `rs`; cases: its paired verdicts (kernel and swap)."""
    g = Guardrails()
    headers = rs.headers()
    footers = {f.get("_file"): f for f in rs.footers()}
    g.runs = len(headers)
    for h in headers:
        f = h.get("_file")
        if h.get("oversubscribed"):
            g.oversubscribed.add(f)
        lost = _lost_share(h, footers.get(f))
        if lost is not None and lost > NOISE_WARN:
            g.noisy[f] = lost
    if any("noise" in h for h in headers):
        g.unfooted = sorted({h.get("_file") for h in headers} - set(footers))
    fitted = [s for s in rs.records if s.get("type") == "summary" and "fit_ok" in s]
    g.fits = len({_fit_name(s) for s in fitted})
    g.failing_fits = sorted({_fit_name(s) for s in fitted if s.get("fit_ok") is False})
    g.verdicts = len(cases)
    g.imprecise_verdicts = sum("precision not reached" in c.caveats for c in cases)
    g.clock_bound_verdicts = sum("below 20x timer resolution" in c.caveats for c in cases)
    g.short_verdicts = sum(f"fewer than {verdicts.MIN_ROUNDS} rounds" in c.caveats for c in cases)
    measured = [p for p in rs.records if p.get("type") == "point" and "precision_reached" in p]
    g.points = len(measured)
    g.imprecise_points = sum(p["precision_reached"] is False for p in measured)
    return g


def marks(rs: RecordSet) -> dict[str, str]:
    """file -> MARK with why, for the files of an oversubscribed or noisy run (the rest are left out)."""
    g = check(rs, [])
    return {f: g.mark(f) for f in g.oversubscribed | set(g.noisy)}
