"""`pstswm kernel`: each parallel algorithm's alternatives (protocol × overlap), their sensitivity, the
generic protocol and the MPI collective against the best, and the paired verdicts (Worley 1999; Worley 1998
Table 4).

pstswm kernel writes one point per (stage, algorithm, protocol, overlap) with `t_min` over
repetitions, plus its own per-algorithm summaries.  pstlab recomputes the same figures from the
points (so results merged from several runs, or records without summaries, report alike).  The
collectives (`protocol: "coll"`) have no protocol alternatives: they are what an algorithm is
compared with, not one of its alternatives.
"""

from pstlab.benches import memo
from pstlab.benches.common import Metric, best, varying
from pstlab.core.grouping import group_by, sort_key
from pstlab.core.units import fmt_us
from pstlab.io import algorithms
from pstlab.io.algorithms import Registry
from pstlab.io.records import RecordSet, launch_of, number
from pstlab.stats import stats, verdicts

BENCH = "kernel"
IN_ROUNDS = True  # it compares alternatives in interleaved rounds (--seed, --adaptive, --budget)
GENERIC_PROTOCOL = "0,6"  # MPI_Sendrecv: what a code uses when it knows nothing about protocols
COLL_PROTOCOL = "coll"  # pstswm's protocol field for the MPI collectives

STAGES = ("fft", "legendre")
ALG_KEY = ["stage", "algorithm", "size", "grid"]
# The algorithms, their order, stages and collectives come from the run header's registry
# (pstlab.algorithms): a new algorithm needs no change here.

# What identifies one verdict (pstlab.verdicts): the alternatives of one algorithm on one configuration.
# locality last: inside a node and across nodes are separate verdicts (docs/cluster.md)
VERDICT_KEY = ("stage", "algorithm", "size", "grid", "transport", "result", "fields", "granularity", "locality")
# What identifies one measured configuration besides stage and algorithm: always shown ...
CONFIG = ("size", "grid")
# ... and shown when they differ between the records (several runs in one directory).
EXTRA = ("result", "fields", "granularity", "transport")


def stage(rec: dict, reg: Registry = algorithms.BUILTIN) -> str:
    if rec.get("stage"):
        return str(rec["stage"])
    return reg.default_stage(str(rec.get("algorithm")))


def is_collective(rec: dict, reg: Registry = algorithms.BUILTIN) -> bool:
    return (
        rec.get("protocol") == COLL_PROTOCOL
        or rec.get("algorithm") == "coll"
        or reg.is_collective(str(rec.get("algorithm")))
    )


def overlap_marked(rec: dict) -> bool:
    """Whether the protocol runs with and without overlap (so overlap on is marked '+ov'): every one
    but the overlap protocols (2,x, 3,x; slug '….overlap'), which always overlap.  The persistent
    4,x and 5,x run both ways too.  Records without a slug (older pstswm) go by the code's class."""
    slug = rec.get("slug")
    if isinstance(slug, str) and slug:
        return not slug.endswith(".overlap")
    return str(rec.get("protocol"))[:1] not in ("2", "3")


def label(rec: dict) -> str:
    """An alternative as pstswm names it: the protocol code, '+ov' when overlap is on for a protocol
    that also runs without it (pstswm's kernel labels, e.g. 1,3+ov and 4,1+ov)."""
    protocol = str(rec.get("protocol"))
    return f"{protocol}+ov" if rec.get("overlap") and overlap_marked(rec) else protocol


def _order(key: tuple, reg: Registry) -> list:
    """Stages in transform order, then each configuration (size, grid, ...), its algorithms in pstswm's order."""
    stage_, algorithm, *rest = key
    return [
        STAGES.index(stage_) if stage_ in STAGES else len(STAGES),
        sort_key(stage_),
        *(sort_key(k) for k in rest),
        reg.order(algorithm),
        sort_key(algorithm),
    ]


def _extras(points: list[dict]) -> list[str]:
    return [k for k in EXTRA if varying([p for p in points if p.get(k) is not None], (k,))]


def cases(rs: RecordSet) -> dict[tuple, list[dict]]:
    """{(stage, algorithm, size, grid, extras...): one record per alternative (protocol, overlap), its fastest}."""
    reg = algorithms.of(rs)
    points = [dict(p, stage=stage(p, reg)) for p in rs.points(BENCH) if number(p, "t_min") is not None]
    keys = ("stage", "algorithm", *CONFIG, *_extras(points))
    out = {}
    for key, pts in group_by(points, *keys).items():
        out[key] = sorted(
            (best(g) for g in group_by(pts, "protocol", "overlap").values()),
            key=lambda r: (r["t_min"], sort_key(label(r))),
        )
    return dict(sorted(out.items(), key=lambda kv: _order(kv[0], reg)))


def key_columns(all_cases: dict[tuple, list[dict]]) -> list[str]:
    width = max((len(k) for k in all_cases), default=2 + len(CONFIG))
    points = [r for alts in all_cases.values() for r in alts]
    return ["stage", "algorithm", *CONFIG, *_extras(points)][:width]


def sensitivity(alternatives: list[dict]) -> dict:
    """Worley 1999's figures over one algorithm's alternatives (each its t_min), as pstswm's summary names them."""
    top = alternatives[0]
    spread = stats.spread([a["t_min"] for a in alternatives])
    return {
        "nalternatives": spread.n,
        "best": label(top),
        "best_s": top["t_min"],
        "median_rel": spread.median_rel,
        "max_rel": spread.max_rel,
        "level": spread.sensitivity,
        "fastest": [label(a) for a in alternatives[:5]],
    }


def generic(alternatives: list[dict]) -> dict | None:
    """The 0,6 alternative without overlap (the `gen` preset's choice), or None when it was not run."""
    return next(
        (a for a in alternatives if a.get("protocol") == GENERIC_PROTOCOL and not a.get("overlap")),
        None,
    )


def collective_for(key: tuple, all_cases: dict[tuple, list[dict]], reg: Registry) -> dict | None:
    """The MPI collective measured on the same stage and configuration as the algorithm of `key`."""
    name = reg.collective_of(str(key[1]))
    if name is None:
        return None
    alts = all_cases.get((key[0], name, *key[2:]))
    return alts[0] if alts else None


def library_samples(rs: RecordSet) -> list[tuple[dict, list[float], list[float], float, float]]:
    """Each MPI library alternative (ialltoallv, neighbor, allreduce_init, ...) with the stage's collective:
    the kernel's Table 4 summary, the alternative's rounds (its point) and the collective's (the summary
    carries them: they ran in the same rounds), and the run's confidence and margin."""
    reg = algorithms.of(rs)
    headers = {h.get("run_id"): h for h in rs.headers()}
    points = {
        (p.get("run_id"), stage(p, reg), p.get("algorithm"), p.get("size"), p.get("grid")): p
        for p in rs.points(BENCH)
        if reg.is_library(str(p.get("algorithm")))
    }
    out = []
    for s in rs.summaries(BENCH, "generic"):
        if not reg.is_library(str(s.get("algorithm"))):
            continue
        p = points.get((s.get("run_id"), stage(s, reg), s.get("algorithm"), s.get("size"), s.get("grid")))
        alt, coll = verdicts.round_times(p or {}), verdicts.round_times({"round_s": s.get("coll_round_s")})
        if not alt or not coll or len(alt) != len(coll):
            continue
        h = headers.get(s.get("run_id"), {})
        out.append((s, alt, coll, number(h, "confidence") or 0.95, number(h, "margin") or 0.02))
    return out


def library_ratios(rs: RecordSet) -> list[tuple[dict, stats.PairedRatio]]:
    """Per run: the summary and collective / alternative, paired by round."""
    return [(s, stats.paired_ratio(coll, alt, conf, margin)) for s, alt, coll, conf, margin in library_samples(rs)]


def by_stage(cases_: list[verdicts.Case], reg: Registry) -> dict[tuple, list[verdicts.Case]]:
    out: dict[tuple, list[verdicts.Case]] = {}
    for c in sorted(cases_, key=lambda c: _order((c.key[0], c.key[1], *c.key[2:]), reg)):
        out.setdefault((c.key[0], c.key[2], c.key[3]), []).append(c)
    return out


def _best_times(rs: RecordSet) -> dict:
    out: dict[tuple, tuple[float, str]] = {}
    for key, alts in cases(rs).items():
        top = alts[0]
        if key[:4] not in out or top["t_min"] < out[key[:4]][0]:
            out[key[:4]] = (top["t_min"], label(top))
    return out


METRICS = [
    Metric(
        "Kernel time with its best protocol",
        ("stage", "algorithm", "size", "grid"),
        "t_min µs",
        fmt_us,
        False,
        _best_times,
        "The detail column names the best alternative (protocol, '+ov' for overlap; 'coll' for an MPI collective).",
    )
]


def tie_name(key: tuple) -> str:
    """A verdict's key (VERDICT_KEY) as a reader names it: 'swtrans fft T42L4 2x1'."""
    fields = dict(zip(VERDICT_KEY, key, strict=True))
    return f"{fields['algorithm']} {fields['stage']} {fields['size']} {fields['grid']}"


@memo.per_record_set
def verdict_cases(rs: RecordSet) -> list[verdicts.Case]:
    """The verdicts of kernel records: protocol x overlap per algorithm and configuration, with the
    collective paired in from the generic summary (it ran in the same rounds)."""
    reg = algorithms.of(rs)
    points = [dict(p, stage=stage(p, reg)) for p in rs.points("kernel") if not is_collective(p, reg)]
    sums = [dict(s, stage=stage(s, reg)) for s in rs.summaries("kernel", "sensitivity")]
    generic = [dict(s, stage=stage(s, reg)) for s in rs.summaries("kernel", "generic")]
    cases = verdicts.build(points, sums, VERDICT_KEY, label, rs.headers())
    colls = group_by(generic, *VERDICT_KEY)
    for c in cases:
        samples = [s for s in colls.get(c.key, []) if verdicts.round_times({"round_s": s.get("coll_round_s")})]
        joined = [t for s in sorted(samples, key=launch_of) for t in s["coll_round_s"][: c.per_launch]]
        if samples and len(joined) == len(next(iter(c.rounds.values()))):
            c.comparators[COLL_PROTOCOL] = joined
    return cases
