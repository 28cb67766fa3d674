"""`pstswm match` in the report: the cost of MPI message matching (Song 2013; the facts: pstlab.benches.match).

The report shows pstswm's fit of the per-match cost M, its interval and the per-n values pstswm
derived, or Song 2013's quotient Diff / (n(n−1)/2) when the records carry no per-n values.
"""

from pstlab.benches.match import BENCH, KEYS, batches, fits, m_interval, per_n_m, queue_verdicts
from pstlab.core.grouping import group_by
from pstlab.core.units import fmt_num, fmt_us
from pstlab.io.records import RecordSet, number
from pstlab.report.doc import Section, Table, Text
from pstlab.report.plots import Panel, Series, figure
from pstlab.stats import stats

TITLE = "Message matching cost (Song 2013)"


def fmt_m(s: dict) -> str:
    """M in ns, or what an inconclusive fit is: '≈ 0: the interval includes 0'."""
    ci = m_interval(s)
    if ci and ci[0] <= 0 <= ci[1]:
        return "≈ 0: the interval includes 0"
    return fmt_num(number(s, "m_ns"))


def fit_table(rs: RecordSet) -> Table | None:
    """Song 2013 Table 8 per configuration, with pstswm's queue verdict for its queue, wildcard and length."""
    queues = queue_verdicts(rs)
    rows = []
    for s in fits(rs):
        ci = m_interval(s)
        verdict = queues.get((s.get("queue"), s.get("wildcard"), s.get("length")))
        if verdict is None and s.get("wildcard") in (None, "none"):
            verdict = queues.get(
                (s.get("queue"), None, s.get("length")), queues.get((s.get("queue"), "none", s.get("length")))
            )
        rows.append(
            [
                *(str(s.get(k, "–")) for k in KEYS),
                fmt_m(s),
                f"[{fmt_num(ci[0])}, {fmt_num(ci[1])}]" if ci else "–",
                fmt_num(number(s, "r2"), 4),
                fmt_num(number(s, "song_m_ns" if "song_m_ns" in s else "seed_m_ns")),  # older records' name
                verdict or "–",
            ]
        )
    if not rows:
        return None
    return Table(
        "Fitted cost per failed match M (Song 2013 Table 8); One queue per communicator? (communicator vs tag "
        "algorithm)",
        ["algorithm", "queue", "wildcard", "length", "M ns", "95% CI ns", "R²", "Song-method M ns", "queues"],
        rows,
        "pstswm's least-squares fit over all n at once (the model it states in each record); 'Song-method M' is "
        "Song 2013's average of per-n quotients, where recorded, for comparison. Queues: pstswm's verdict for the "
        "queue and length. If the library keeps one queue per communicator, messages on distinct communicators "
        "never fail to match each other and the communicator algorithm's Diff stays ≈ 0; a shared queue makes it "
        "grow like n².",
    )


def _short(key: tuple) -> str:
    algorithm, queue, wildcard, length, *rest = key
    wild = f" {wildcard}" if wildcard not in (None, "none") else ""
    return " ".join([f"{algorithm} {queue}{wild} L{length}", *map(str, rest)])


def _per_n_cells(per_n: dict[int, dict[str, float]], n: int, recorded_m: dict[int, float] | None) -> list[str]:
    times = per_n.get(n, {})
    iot, rot = times.get("iot"), times.get("rot")
    diff = rot - iot if iot is not None and rot is not None else None
    if recorded_m is not None:
        m_ns = recorded_m.get(n)
    else:
        m_s = stats.per_match_s(diff, n) if diff is not None else None
        m_ns = m_s * 1e9 if m_s is not None else None
    return [f"{fmt_us(iot)} / {fmt_us(rot)}", fmt_us(diff), fmt_num(m_ns)]


def batch_table(all_batches: dict[tuple, dict[int, dict[str, float]]], recorded: dict[tuple, dict]) -> Table:
    """One row per batch size n; per configuration (algorithm, queue, length) its IOT / ROT, Diff, per-n M."""
    ns = sorted({n for per_n in all_batches.values() for n in per_n})
    columns = ["n"]
    for key in all_batches:
        columns += [f"{_short(key)}: IOT / ROT µs", "Diff µs", "per-n M ns"]
    rows = [
        [str(n), *(c for key, per_n in all_batches.items() for c in _per_n_cells(per_n, n, recorded.get(key[:4])))]
        for n in ns
    ]
    source = "as pstswm derived it" if recorded else "Diff / (n(n−1)/2), Song 2013's per-n quotient"
    return Table(
        "IOT, ROT and Diff vs n (Song 2013 Tables 1–6)",
        columns,
        rows,
        "Round-trip times of a batch of n messages received in order (IOT) and in reverse order (ROT) at pstswm's "
        f"stated statistic, per configuration (algorithm, queue, message length L); per-n M {source}.",
    )


def _panels(rs: RecordSet) -> list[Panel]:
    panels = []
    groups: dict[tuple, list] = {}
    for key, per_n in batches(rs).items():
        groups.setdefault((key[0], key[1], key[2]), []).append((key, per_n))
    for (algorithm, queue, wildcard), group in groups.items():
        what = f"{algorithm}, queue {queue}" + (f", wildcard {wildcard}" if wildcard not in (None, "none") else "")
        times = Panel(
            f"{what}: IOT (solid), ROT (dashed)", "messages per batch n", "round trip (µs)", ylog=True, xinteger=True
        )
        diff = Panel(f"{what}: Diff = ROT − IOT", "messages per batch n", "Diff (µs)", xinteger=True)
        for key, per_n in group:
            ns = sorted(n for n in per_n if "iot" in per_n[n] and "rot" in per_n[n])
            name = f"length {key[3]}"
            times.series.append(Series(f"{name} IOT", ns, [per_n[n]["iot"] * 1e6 for n in ns], group=name))
            times.series.append(Series(f"{name} ROT", ns, [per_n[n]["rot"] * 1e6 for n in ns], style="--", group=name))
            diff.series.append(Series(name, ns, [(per_n[n]["rot"] - per_n[n]["iot"]) * 1e6 for n in ns], group=name))
        panels += [times, diff]
    return panels


def _m_panel(sets: list[tuple[str, RecordSet]]) -> Panel | None:
    panel = Panel("Fitted M vs message length (95% CI)", "message length", "M (ns per failed match)", xlog=True)
    for (label, rs), style in zip(sets, ("-", "--"), strict=False):
        for (algorithm, queue, wildcard), unsorted in group_by(fits(rs), "algorithm", "queue", "wildcard").items():
            group = sorted((s for s in unsorted if isinstance(s.get("length"), int | float)), key=lambda s: s["length"])
            cis = [m_interval(s) for s in group]
            name = f"{algorithm}, queue {queue}" + (f", wildcard {wildcard}" if wildcard not in (None, "none") else "")
            panel.series.append(
                Series(
                    f"{label}: {name}" if label else name,
                    [s["length"] for s in group],
                    [s["m_ns"] for s in group],
                    yerr=cis if all(cis) else None,
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
    if m_panel := _m_panel([("", rs)]):
        sec.add(figure("match-m", "Fitted matching cost M per message length.", [m_panel], columns=1))
    if panels := _panels(rs):
        sec.add(figure("match", "IOT/ROT and Diff vs messages per batch, one colour per message length.", panels))
    if all_batches := batches(rs):
        sec.add(batch_table(all_batches, per_n_m(rs)))
    return sec


def _m_line(s: dict) -> str:
    ci = m_interval(s)
    interval = f" [{fmt_num(ci[0])}, {fmt_num(ci[1])}]" if ci else ""
    if ci and ci[0] <= 0 <= ci[1]:
        return f"≈ 0: the interval{interval} ns includes 0"
    return f"= {fmt_num(number(s, 'm_ns'))} ns{interval}"


def headline(rs: RecordSet) -> list[str]:
    lines = []
    for (algorithm, queue, wildcard), group in group_by(fits(rs), "algorithm", "queue", "wildcard").items():
        ms = ", ".join(f"{_m_line(s)} (length {s.get('length')})" for s in group[:2])
        more = f" (+{len(group) - 2} lengths)" if len(group) > 2 else ""
        wild = f", wildcard {wildcard}" if wildcard not in (None, "none") else ""
        lines.append(f"match {algorithm} algorithm, queue {queue}{wild}: M {ms}{more}")
    lines += [
        f"match queues ({s.get('queue')}, length {s.get('length')}): {s['verdict']}"
        for s in rs.summaries(BENCH)
        if s.get("verdict")
    ][:2]
    return lines


def overlay(sets: list[tuple[str, RecordSet]]) -> list:
    panel = _m_panel(sets)
    return [figure("match-overlay", "Matching cost M: A solid, B dashed.", [panel], columns=1)] if panel else []
