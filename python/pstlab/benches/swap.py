"""`pstswm swap`: its sweeps, bandwidths, per-protocol models and per-size verdicts over protocols
(Worley 1998 Table 3, Worley 2000)."""

import statistics
from dataclasses import dataclass

from pstlab.benches import memo
from pstlab.benches.common import Metric, best
from pstlab.core import tiesets
from pstlab.core.grouping import group_by, sort_key
from pstlab.core.units import fmt_bytes, fmt_num, fmt_us
from pstlab.io.records import RecordSet, number
from pstlab.stats import stats, verdicts

BENCH = "swap"
IN_ROUNDS = True  # it compares alternatives in interleaved rounds (--seed, --adaptive, --budget)

# What identifies one per-size verdict over protocols (pstlab.verdicts).
# locality last: inside a node and across nodes are separate verdicts (docs/cluster.md)
VERDICT_KEY = ("transport", "cache", "pair", "bytes", "nmsg", "locality")
# Worley 1998 Table 3's size classes: 1024, 16384 and 262144 64-bit values.
SIZE_CLASSES = (8 << 10, 128 << 10, 2 << 20)


def mbytes_per_s(rec: dict) -> float | None:
    t = number(rec, "t_min")
    return rec["bytes"] * rec.get("nmsg", 1) / t / 1e6 if t else None


def protocol_class(rec: dict) -> str:
    if isinstance(rec.get("ordered"), bool):
        return "ordered" if rec["ordered"] else "unordered"
    return "ordered" if str(rec.get("protocol", "")).split(",")[0] in ("1", "3") else "unordered"


def protocol_label(rec: dict) -> str:
    return f"{rec.get('protocol')} {rec['slug']}" if rec.get("slug") else str(rec.get("protocol"))


@dataclass
class Sweep:
    """The points of one swap run for one cache state and pairing."""

    run_id: str
    file: str
    cache: str
    pair: str
    transport: str
    points: list[dict]

    @property
    def split_volume(self) -> bool:
        return any(p.get("nmsg", 1) > 1 for p in self.points)

    @property
    def title(self) -> str:
        sizes = sorted({p["bytes"] for p in self.points})
        if self.split_volume:
            volume = fmt_bytes(self.points[0].get("volume"))
            what = f"{volume} split into {fmt_bytes(sizes[0])}…{fmt_bytes(sizes[-1])} messages"
        else:
            what = f"message sizes {fmt_bytes(sizes[0])}…{fmt_bytes(sizes[-1])}"
        return f"{what}, cache {self.cache}, pair {self.pair}, transport {self.transport} ({self.file})"


def sweeps(rs: RecordSet) -> list[Sweep]:
    groups = group_by(rs.points(BENCH), "run_id", "_file", "cache", "pair", "transport")
    return [Sweep(*key, points=pts) for key, pts in groups.items()]


def size_points(rs: RecordSet) -> list[dict]:
    """One-message points of the size sweeps (the split-volume study is reported apart)."""
    return [p for s in sweeps(rs) if not s.split_volume for p in s.points]


def alpha_s(rs: RecordSet, rec: dict, group: list[dict]) -> float | None:
    """The protocol's fitted per-message overhead: pstswm's summary of the size sweep reaching the smallest
    sizes (α is set by them), else fitted here to all its points."""
    split_runs = {s.run_id for s in sweeps(rs) if s.split_volume}
    fits = [
        s
        for s in rs.summaries(BENCH, "protocol")
        if s.get("run_id") not in split_runs
        and number(s, "alpha_s") is not None
        and all(s.get(k) == rec.get(k) for k in ("protocol", "cache", "pair", "transport"))
    ]
    if fits:
        widest = min(fits, key=lambda s: (number(s, "range_min_bytes") or 0, -(number(s, "range_max_bytes") or 0)))
        return number(widest, "alpha_s") if not _fit_not_ok(widest) else None
    pts = sorted((p for p in group if p.get("protocol") == rec.get("protocol")), key=lambda p: p["bytes"])
    fit = stats.latency_bandwidth([p["bytes"] for p in pts], [p["t_min"] for p in pts])
    if fit is None or stats.fit_problem(fit.max_rel_residual, fit.intercept, fit.slope):
        return None
    return fit.intercept


def _fit_not_ok(s: dict) -> str | None:
    """Why pstswm's protocol model is not to be shown as valid: its own verdict, else the same checks."""
    problem = stats.fit_problem(number(s, "model_max_rel_err"), number(s, "alpha_s"), number(s, "beta_mbytes_per_s"))
    if s.get("fit_ok") is False:
        return problem or "pstswm's checks"
    return problem


def class_tie_set(case: verdicts.Case | None, cls: str, ordered: dict[str, bool]) -> str:
    """The tie set among one class's protocols, from the rounds of the size's paired verdict."""
    if case is None:
        return "no rounds"
    members = {a: r for a, r in case.rounds.items() if (ordered.get(a, a[:1] in "13") is True) == (cls == "ordered")}
    if not members:
        return "–"
    v = stats.verdict(members, case.verdict.confidence, case.verdict.margin)
    return tiesets.name(sorted(v.best_set, key=v.medians.get), list(members), ordered)


def _median_of(records: list[dict], key: str) -> float | None:
    values = [v for r in records if (v := number(r, key)) is not None]
    return statistics.median(values) if values else None


@dataclass
class MergedFit:
    """One protocol's model over its launches: pstswm's summary with α and β the median over launches."""

    summary: dict
    sweep: str  # sizes or volume
    launches: int
    failed: int  # launches whose fit fails its checks
    why: str | None  # the first failing launch's reason ('20% error')


def protocol_fits(rs: RecordSet) -> list[MergedFit]:
    """pstswm's protocol models, one per protocol, sweep, cache (and transport, pair), launches merged."""
    split_runs = {s.run_id for s in sweeps(rs) if s.split_volume}
    keyed = [
        dict(s, sweep="volume" if s.get("run_id") in split_runs else "sizes") for s in rs.summaries(BENCH, "protocol")
    ]
    out = []
    for key, group in sorted(
        group_by(keyed, "sweep", "protocol", "cache", "transport", "pair").items(),
        key=lambda kv: (kv[0][0] != "sizes", sort_key(kv[0][1]), sort_key(kv[0][2])),
    ):
        reasons = [why for s in group if (why := _fit_not_ok(s))]
        merged = dict(
            group[0],
            alpha_s=_median_of(group, "alpha_s"),
            beta_mbytes_per_s=_median_of(group, "beta_mbytes_per_s"),
        )
        out.append(MergedFit(merged, key[0], len(group), len(reasons), reasons[0] if reasons else None))
    return out


# ---------------------------------------------------------------- compare


def _best_time(rs: RecordSet) -> dict:
    out = {}
    for key, pts in group_by(size_points(rs), "transport", "cache", "pair", "bytes").items():
        top = best(pts)
        if top:
            out[key] = (top["t_min"], top["protocol"])
    return out


def _peak(rs: RecordSet) -> dict:
    """Each protocol's highest peak bandwidth over the size sweeps, and the size it was reached at."""
    out: dict = {}
    split_runs = {s.run_id for s in sweeps(rs) if s.split_volume}
    for s in rs.summaries(BENCH, "protocol"):
        peak = number(s, "peak_mbytes_per_s")
        key = (s.get("transport"), s.get("cache"), s.get("protocol"))
        if peak is not None and s.get("run_id") not in split_runs and peak > out.get(key, (-1.0,))[0]:
            out[key] = (peak, f"at {fmt_bytes(number(s, 'peak_bytes'))}")
    return out


def _alpha(rs: RecordSet) -> dict:
    """Each protocol's α from the size sweep reaching the smallest sizes (as in Table 3)."""
    out = {}
    groups = group_by(size_points(rs), "transport", "cache", "pair")
    for group in groups.values():
        for p in group:
            key = (p.get("transport"), p.get("cache"), p.get("protocol"))
            if key not in out and (alpha := alpha_s(rs, p, group)) is not None:
                out[key] = (alpha, p.get("slug", ""))
    return out


METRICS = [
    Metric(
        "Best exchange time per message size (min over protocols)",
        ("transport", "cache", "pair", "bytes"),
        "t_min µs",
        fmt_us,
        False,
        _best_time,
        "The detail column names the fastest protocol.",
    ),
    Metric(
        "Peak bandwidth per protocol",
        ("transport", "cache", "protocol"),
        "MB/s",
        lambda v: fmt_num(v, 4),
        True,
        _peak,
    ),
    Metric(
        "Per-message overhead α per protocol",
        ("transport", "cache", "protocol"),
        "α µs",
        fmt_us,
        False,
        _alpha,
    ),
]


def tie_name(key: tuple) -> str:
    """A verdict's key (VERDICT_KEY) as a reader names it: '512 B, cache 1' or '512 B x 4 messages, cache cold'."""
    fields = dict(zip(VERDICT_KEY, key, strict=True))
    nmsg = fields["nmsg"]
    volume = f"{fields['bytes']} B" + (f" x {nmsg} messages" if nmsg not in (1, None) else "")
    return f"{volume}, cache {fields['cache']}"


@memo.per_record_set
def verdict_cases(rs: RecordSet) -> list[verdicts.Case]:
    """The verdicts of swap records: protocols per size, cache state and volume."""
    points, sums = rs.points("swap"), rs.summaries("swap", "sensitivity")
    return verdicts.build(points, sums, VERDICT_KEY, lambda p: str(p["protocol"]), rs.headers())
