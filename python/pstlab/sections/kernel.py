"""`pstswm kernel`: protocol sensitivity of each parallel algorithm (seed 001; seed 000 Table 4)."""

from pstlab import stats
from pstlab.doc import Section, Table, Text, fmt_pct, fmt_us
from pstlab.records import RecordSet, number
from pstlab.sections.common import Metric, best, group_by, sort_key, varying

BENCH = "kernel"
TITLE = "Parallel algorithm kernels: protocol sensitivity (seeds 000 Table 4, 001)"
GENERIC_PROTOCOL = "0,6"  # MPI_Sendrecv: what a code uses when it knows nothing about protocols

# Which transform an algorithm serves when a record does not say (`stage`).  The transposes and
# coll serve both; without a stage they are taken as FFT algorithms, as seed 000 §6 studies them.
LEGENDRE_ONLY = ("exchsum", "halfsum", "ringsum", "ringpipe")


def stage(rec: dict) -> str:
    if rec.get("stage"):
        return str(rec["stage"])
    return "legendre" if rec.get("algorithm") in LEGENDRE_ONLY else "fft"


def variant(rec: dict) -> str:
    """A protocol choice: the code, plus the overlap flag when set."""
    return f"{rec.get('protocol')}{' +overlap' if rec.get('overlap') else ''}"


def cases(rs: RecordSet) -> dict[tuple, list[dict]]:
    """{(stage, algorithm, size, ...): points over protocol variants}, fastest variant per (protocol, overlap)."""
    points = [dict(p, stage=stage(p)) for p in rs.points(BENCH) if number(p, "t_min") is not None]
    keys = ("stage", "algorithm", "size", *varying(points, ("transport", "grid", "ranks")))
    out = {}
    for key, pts in group_by(points, *keys).items():
        out[key] = [best(g) for g in group_by(pts, "protocol", "overlap").values()]
    return dict(sorted(out.items(), key=lambda kv: [sort_key(k) for k in kv[0]]))


def table(rs: RecordSet) -> Table:
    rows = []
    all_cases = cases(rs)
    extra = max((len(k) for k in all_cases), default=3) - 3
    for key, variants in all_cases.items():
        top = best(variants)
        spread = stats.spread([v["t_min"] for v in variants])
        generic = best(v for v in variants if v.get("protocol") == GENERIC_PROTOCOL)
        rows.append(
            [
                *(str(k) for k in key),
                str(len(variants)),
                variant(top),
                fmt_us(top["t_min"]),
                f"{spread.median_rel:.2f}",
                f"{spread.max_rel:.2f}",
                spread.sensitivity,
                fmt_pct(stats.rel_excess(generic["t_min"], top["t_min"])) if generic else "–",
            ]
        )
    return Table(
        "Best protocol and protocol sensitivity per algorithm",
        [
            "stage",
            "algorithm",
            "size",
            *(["variant"] * extra),
            "protocols",
            "best",
            "t_min µs",
            "(median−min)/min",
            "(max−min)/min",
            "sensitivity",
            f"{GENERIC_PROTOCOL} vs best",
        ],
        rows,
        "Over the protocol × overlap variants run, each taken at its t_min. Sensitivity as seed 001 classes it: "
        f"low ≤ 5 %, high ≥ 15 % (median−min)/min. '{GENERIC_PROTOCOL} vs best' is seed 000 Table 4's "
        "(t(0,6) − t_opt)/t_opt: what using MPI_Sendrecv instead of the best protocol costs.",
    )


def section(rs: RecordSet) -> Section:
    sec = Section(TITLE)
    sec.add(
        Text(
            "Each parallel algorithm alone on synthetic data sized like a model run, once per communication "
            "protocol and overlap setting."
        ),
        table(rs),
    )
    return sec


def headline(rs: RecordSet) -> list[str]:
    picks = [
        f"{key[1]} {variant(best(v))} ({stats.spread([p['t_min'] for p in v]).sensitivity})"
        for key, v in cases(rs).items()
    ]
    return [f"kernel best protocol (sensitivity): {', '.join(picks)}"] if picks else []


def _best_times(rs: RecordSet) -> dict:
    return {(key[0], key[1], key[2]): (best(v)["t_min"], variant(best(v))) for key, v in cases(rs).items()}


METRICS = [
    Metric(
        "Kernel time with its best protocol",
        ("stage", "algorithm", "size"),
        "t_min µs",
        fmt_us,
        False,
        _best_times,
        "The detail column names the best protocol.",
    )
]


def overlay(_sets: list[tuple[str, RecordSet]]) -> list:
    return []
