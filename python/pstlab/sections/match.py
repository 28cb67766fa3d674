"""`pstswm match`: the cost of MPI message matching (seed 003).

IOT(n) and ROT(n) are the round-trip times of a batch of n messages received in order and in
reverse order; Diff = ROT − IOT is the cost of the n(n−1)/2 failed matches a reverse-order
receive makes (per direction).  pstswm fits M over all n at once; the report shows that fit and,
as seed 003 tabulates it, the per-n quotient Diff / (n(n−1)/2).
"""

from pstlab import stats
from pstlab.doc import Section, Table, Text, fmt_num, fmt_us
from pstlab.plots import Panel, Series, figure
from pstlab.records import RecordSet, number
from pstlab.sections.common import Metric, group_by, sort_key, varying

BENCH = "match"
TITLE = "Message matching cost (seed 003)"
KEYS = ("algorithm", "queue", "length")


def batches(rs: RecordSet) -> dict[tuple, dict[int, dict[str, float]]]:
    """{(algorithm, queue, length[, transport]): {n: {"iot": s, "rot": s}}}.

    Accepts records that carry iot_s and/or rot_s, or one record per order with the time in t_min.
    """
    points = [p for p in rs.points(BENCH) if p.get("n") is not None]
    keys = (*KEYS, *varying(points, ("transport",)))
    out: dict[tuple, dict[int, dict[str, float]]] = {}
    for p in points:
        times = out.setdefault(tuple(p.get(k) for k in keys), {}).setdefault(int(p["n"]), {})
        iot, rot = number(p, "iot_s"), number(p, "rot_s")
        if iot is None and rot is None and number(p, "t_min") is not None:
            order = str(p.get("order", "in"))
            iot, rot = (number(p, "t_min"), None) if order.startswith("in") else (None, number(p, "t_min"))
        if iot is not None:
            times["iot"] = iot
        if rot is not None:
            times["rot"] = rot
    return dict(sorted(out.items(), key=lambda kv: [sort_key(k) for k in kv[0]]))


def _label(key: tuple) -> str:
    algorithm, queue, length, *rest = key
    return " ".join([f"{algorithm} algorithm", f"queue {queue}", f"length {length}", *map(str, rest)])


def fits(rs: RecordSet) -> list[dict]:
    return sorted(
        (s for s in rs.summaries(BENCH) if number(s, "m_ns") is not None),
        key=lambda s: [sort_key(s.get(k)) for k in KEYS],
    )


def _verdict(s: dict) -> str:
    if s.get("verdict"):
        return str(s["verdict"])
    ci = s.get("m_ns_ci95")
    if s.get("algorithm") != "comm" or not (isinstance(ci, list) and len(ci) == 2 and None not in ci):
        return ""
    return "Diff ≈ 0: a queue per communicator" if ci[0] <= 0 <= ci[1] else "Diff grows like n²: one shared queue"


def fit_table(rs: RecordSet) -> Table | None:
    rows = []
    for s in fits(rs):
        ci = s.get("m_ns_ci95")
        ci_text = f"[{fmt_num(ci[0])}, {fmt_num(ci[1])}]" if isinstance(ci, list) and len(ci) == 2 else "–"
        rows.append(
            [str(s.get(k, "–")) for k in KEYS]
            + [fmt_num(number(s, "m_ns")), ci_text, fmt_num(number(s, "r2"), 4), _verdict(s)]
        )
    if not rows:
        return None
    return Table(
        "Fitted cost per failed match M (seed 003 Table 8)",
        ["algorithm", "queue", "length", "M ns", "95% CI ns", "R²", "verdict"],
        rows,
        "From pstswm's fit of the model IOT = L + n·S, ROT = IOT + n(n−1)/2·M over all n at once (not seed 003's "
        "average of per-n quotients). A communicator-algorithm M whose interval contains 0 means the library keeps "
        "one queue per communicator.",
    )


def batch_table(key: tuple, per_n: dict[int, dict[str, float]]) -> Table:
    rows = []
    for n in sorted(per_n):
        iot, rot = per_n[n].get("iot"), per_n[n].get("rot")
        diff = rot - iot if iot is not None and rot is not None else None
        m = stats.per_match_s(diff, n) if diff is not None else None
        rows.append([str(n), fmt_us(iot), fmt_us(rot), fmt_us(diff), fmt_num(m * 1e9) if m is not None else "–"])
    return Table(
        f"IOT, ROT and Diff vs n: {_label(key)} (seed 003 Tables 1–6)",
        ["n", "IOT µs", "ROT µs", "Diff µs", "Diff/(n(n−1)/2) ns"],
        rows,
    )


def _panels(rs: RecordSet) -> list[Panel]:
    panels = []
    for (algorithm, queue, *_), group in group_by_prefix(batches(rs)).items():
        times = Panel(
            f"{algorithm}, queue {queue}: IOT (solid) and ROT (dashed)",
            "messages per batch n",
            "round trip (µs)",
            ylog=True,
        )
        diff = Panel(f"{algorithm}, queue {queue}: Diff = ROT − IOT", "messages per batch n", "Diff (µs)")
        for key, per_n in group:
            ns = sorted(n for n in per_n if "iot" in per_n[n] and "rot" in per_n[n])
            name = f"length {key[2]}"
            times.series.append(Series(f"{name} IOT", ns, [per_n[n]["iot"] * 1e6 for n in ns], group=name))
            times.series.append(Series(f"{name} ROT", ns, [per_n[n]["rot"] * 1e6 for n in ns], style="--", group=name))
            diff.series.append(Series(name, ns, [(per_n[n]["rot"] - per_n[n]["iot"]) * 1e6 for n in ns], group=name))
        panels += [times, diff]
    return panels


def group_by_prefix(data: dict[tuple, dict]) -> dict[tuple, list]:
    """Group batches by (algorithm, queue): one pair of panels each."""
    groups: dict[tuple, list] = {}
    for key, per_n in data.items():
        groups.setdefault(key[:2], []).append((key, per_n))
    return groups


def _m_panel(sets: list[tuple[str, RecordSet]]) -> Panel | None:
    panel = Panel("Fitted M vs message length (95% CI)", "message length", "M (ns per failed match)", xlog=True)
    for (label, rs), style in zip(sets, ("-", "--"), strict=False):
        for (algorithm, queue), unsorted in group_by(fits(rs), "algorithm", "queue").items():
            group = sorted((s for s in unsorted if isinstance(s.get("length"), int | float)), key=lambda s: s["length"])
            cis = [s.get("m_ns_ci95") for s in group]
            yerr = (
                [tuple(c) for c in cis]
                if all(isinstance(c, list) and len(c) == 2 and None not in c for c in cis)
                else None
            )
            name = f"{algorithm}, queue {queue}"
            panel.series.append(
                Series(
                    f"{label}: {name}" if label else name,
                    [s["length"] for s in group],
                    [s["m_ns"] for s in group],
                    yerr=yerr,
                    style=style,
                    group=name,
                )
            )
    return panel if panel.series else None


def section(rs: RecordSet) -> Section:
    sec = Section(TITLE)
    sec.add(
        Text(
            "A multi-message ping-pong: n messages per batch received in order (IOT) or in reverse order (ROT); "
            "the tag algorithm forces the match order with distinct tags, the communicator algorithm with one "
            "communicator per message."
        ),
        fit_table(rs),
    )
    m_panel = _m_panel([("", rs)])
    if m_panel:
        sec.add(figure("match-m", "Fitted matching cost M per message length.", [m_panel], columns=1))
    if panels := _panels(rs):
        sec.add(figure("match", "IOT/ROT and Diff vs messages per batch, one colour per message length.", panels))
    sec.add(*(batch_table(key, per_n) for key, per_n in batches(rs).items()))
    return sec


def headline(rs: RecordSet) -> list[str]:
    lines = []
    for (algorithm, queue), group in group_by(fits(rs), "algorithm", "queue").items():
        ms = ", ".join(f"{fmt_num(s['m_ns'])} ns (length {s.get('length')})" for s in group[:3])
        more = f" (+{len(group) - 3} lengths)" if len(group) > 3 else ""
        lines.append(f"match {algorithm} algorithm, queue {queue}: M = {ms}{more}")
    return lines


def _m(rs: RecordSet) -> dict:
    return {tuple(s.get(k) for k in KEYS): (s["m_ns"], "") for s in fits(rs)}


METRICS = [Metric("Fitted cost per failed match", KEYS, "M ns", fmt_num, False, _m)]


def overlay(sets: list[tuple[str, RecordSet]]) -> list:
    panel = _m_panel(sets)
    return [figure("match-overlay", "Matching cost M: A solid, B dashed.", [panel], columns=1)] if panel else []
