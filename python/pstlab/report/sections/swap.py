"""`pstswm swap` in the report: Worley 1998 Table 3, Worley 2000's per-protocol model and sensitivity summaries
(the facts: pstlab.benches.swap)."""

from pstlab.analysis import guardrails
from pstlab.benches.common import best, varying
from pstlab.benches.swap import (
    BENCH,
    SIZE_CLASSES,
    MergedFit,
    alpha_s,
    class_tie_set,
    mbytes_per_s,
    protocol_class,
    protocol_fits,
    protocol_label,
    size_points,
    sweeps,
    verdict_cases,
)
from pstlab.core import tiesets
from pstlab.core.grouping import group_by, sort_key
from pstlab.core.units import fmt_bytes, fmt_num, fmt_sci, fmt_us
from pstlab.io import placement
from pstlab.io.records import RecordSet, number
from pstlab.report.doc import Details, Section, Table, Text
from pstlab.report.plots import Panel, Series, figure, time_vs_size_panel
from pstlab.report.sections.common import (
    SEPARATES,
    SEPARATES_NOTE,
    best_first,
    full_lists,
    level_text,
    separates_cell,
    tie_cell,
    with_mark,
)
from pstlab.stats import stats

TITLE = "Point-to-point SWAP (Worley 1998 and 2000)"


def table3(rs: RecordSet) -> Table | None:
    points = size_points(rs)
    if not points:
        return None
    extra = varying(points, ("cache", "pair", "locality"))
    columns = ["transport", "class", *extra]
    for size in SIZE_CLASSES:
        columns += [f"{fmt_bytes(size)} MB/s", f"{fmt_bytes(size)} lat µs", f"{fmt_bytes(size)} tie set"]
    paired = {c.key: c for c in verdict_cases(rs)}
    ordered = tiesets.catalogue(points)
    rows = []
    for key, group in sorted(
        group_by(points, "transport", "cache", "pair", "locality").items(), key=lambda kv: [sort_key(k) for k in kv[0]]
    ):
        for cls in ("unordered", "ordered"):
            members = [p for p in group if protocol_class(p) == cls]
            if not members:
                continue
            row = [str(key[0]), cls, *(str(members[0].get(k)) for k in extra)]
            sizes = sorted({p["bytes"] for p in members})
            for target in SIZE_CLASSES:
                size = stats.nearest_in_log(sizes, target)
                top = best(p for p in members if p["bytes"] == size) if size else None
                if top is None:
                    row += ["–", "–", "–"]
                    continue
                where = "" if size == target else f" @{fmt_bytes(size)}"
                case = paired.get((key[0], key[1], key[2], size, 1, key[3]))
                row += [
                    fmt_num(mbytes_per_s(top), 4),
                    fmt_us(alpha_s(rs, top, members)),
                    class_tie_set(case, cls, ordered) + where,
                ]
            rows.append(row)
    return Table(
        "Peak bandwidth, latency and best protocol per size class (Worley 1998 Table 3)",
        columns,
        rows,
        "MB/s = bytes per direction / t_min (the class's highest), MB = 10^6 B; lat = the fitted per-message "
        "overhead α over the whole sweep of the protocol with that t_min (Worley 1998's 'typical SWAP overhead'). "
        "Tie set: the class's protocols not shown slower than its best beyond the margin at 95 %, paired by round "
        "(docs/statistics.md); a single code is a decided verdict; 'no rounds' when the records carry none. A class "
        "without a measurement within a factor 2 shows –; a nearby measured size is named after the set (@4K).",
    )


def _family_name(slugs: list[str]) -> str:
    """'unordered.isend.overlap', ... -> 'unordered, overlap': what the protocols of one i,x share."""
    parts = [p.split(".") for p in slugs if p]
    if not parts:
        return ""
    shared = [parts[0][0], *(w for w in parts[0][2:] if all(w in p[2:] for p in parts))]
    return ", ".join(shared) if all(p[0] == parts[0][0] for p in parts) else ""


def _fit_cell(fit: MergedFit | None) -> str:
    if fit is None:
        return ""
    if fit.why:
        return f"FIT NOT OK ({fit.why}, {fit.failed} of {fit.launches})"
    alpha_us, beta = number(fit.summary, "alpha_s") * 1e6, number(fit.summary, "beta_mbytes_per_s")
    return f"{fmt_num(alpha_us, 2)} / {fmt_num(beta, 2)}"


def protocol_table(rs: RecordSet) -> list[Table]:
    """pstswm's protocol models as a matrix over the catalogue's codes i,j: one row per family i, one cell
    per protocol (α µs / β MB/s, launches merged); a fit failing its checks in any launch shows why."""
    tables = []
    sweeps_: dict[tuple, list[MergedFit]] = {}
    for fit in protocol_fits(rs):
        s = fit.summary
        sweeps_.setdefault((fit.sweep, s.get("cache"), s.get("transport"), s.get("pair")), []).append(fit)
    for (sweep, cache, _transport, _pair), group in sweeps_.items():
        by_code = {str(f.summary.get("protocol")): f for f in group if "," in str(f.summary.get("protocol"))}
        families = sorted({c.split(",")[0] for c in by_code}, key=sort_key)
        seconds = sorted({c.split(",")[1] for c in by_code}, key=sort_key)
        rows = []
        for i in families:
            slugs = [str(by_code[f"{i},{j}"].summary.get("slug", "")) for j in seconds if f"{i},{j}" in by_code]
            cells = [_fit_cell(by_code.get(f"{i},{j}")) for j in seconds]
            rows.append([f"{i},x {_family_name(slugs)}".strip(), *cells])
        failing = sum(1 for f in group if f.why)
        tables.append(
            Table(
                f"Per-protocol bandwidth and latency model (Worley 2000): {sweep} sweep, cache {cache}",
                ["family", *(f"x,{j}" for j in seconds)],
                rows,
                "α µs / β MB/s per protocol code i,j, from pstswm's protocol summaries with launches merged (the "
                "median over launches): T = nmsg·α + volume/β, piecewise where pstswm found breakpoints (α of the "
                "first segment, β of the last), fitted with relative weights; empty: not run. "
                f"{failing} of {len(group)} fits fail their checks in some launch (error above 15 %, or a negative "
                "latency or bandwidth): FIT NOT OK with why and in how many launches, never numbers.",
            )
        )
    return tables


def _folded_models(tables: list[Table]) -> Details | None:
    """The per-protocol model matrices, folded into report.html: α and β per code are detail; the
    classes' bandwidth and latency (table3) and the verdicts are the answers."""
    if not tables:
        return None
    cells = [c for t in tables for row in t.rows for c in row[1:] if c]
    failing = sum("FIT NOT OK" in c for c in cells)
    what = f"{len(tables)} sweep{'s' if len(tables) > 1 else ''}, {failing} of {len(cells)} fits failing"
    return Details(f"Per-protocol bandwidth and latency model (Worley 2000), {what}", tables, html_only=True)


def verdict_tables(rs: RecordSet) -> list[Table | Details]:
    """Per sweep (transport, cache, pair): the tie set over protocols at each size, with confidence; every
    member of the sets named in short in a folded section after them."""
    tables: list[Table | Details] = []
    ordered = tiesets.catalogue(rs.points(BENCH))
    full: list[tuple[str, list[str]]] = []
    grouped = group_by([{"k": (*c.key[:3], c.key[5]), "c": c} for c in verdict_cases(rs)], "k")
    for ((transport, cache, pair, locality),), entries in grouped.items():
        where = f", {placement.name(locality)}" if locality is not None else ""
        rows = []
        for c in sorted((e["c"] for e in entries), key=lambda c: (c.key[4], c.key[3])):
            v = c.verdict
            lo, hi = v.median_rel_ci
            rows.append(
                [
                    fmt_bytes(c.key[3]),
                    str(c.key[4]),
                    str(len(v.medians)),
                    f"{v.rounds}" + (f" ({c.launches} launches)" if c.launches > 1 else ""),
                    tie_cell(v, ordered),
                    fmt_us(v.medians[v.best]),
                    f"{v.median_rel:.3f} [{lo:.3f}, {hi:.3f}]",
                    level_text(v),
                    ", ".join(c.caveats) or "ok",
                    separates_cell(c),
                ]
            )
            config = f"transport {transport}, cache {cache}, pair {pair}{where}"
            full.append((config, f"{fmt_bytes(c.key[3])} × {c.key[4]}", best_first(v)))
        tables.append(
            Table(
                f"Fastest protocols per message size, with confidence: transport {transport}, cache {cache}, "
                f"pair {pair}{where}",
                [
                    "msg size",
                    "nmsg",
                    "protocols",
                    "rounds",
                    "best (tie set)",
                    "best µs",
                    "spread [CI]",
                    "sensitivity",
                    "caveats",
                    SEPARATES,
                ],
                rows,
                "The protocols of one size ran in interleaved rounds and are compared paired by round; the tie set "
                "holds every protocol not shown slower than the best beyond the margin (default 2 %) at 95 % "
                "confidence, in order of their medians. Spread: the median over protocols of their paired ratio to "
                "the best, minus 1, with its interval; sensitivity (low ≤ 5 %, high ≥ 15 %) is 'undetermined' when "
                "the interval's ends fall in different classes (docs/statistics.md). " + SEPARATES_NOTE,
            )
        )
    return [*tables, *filter(None, [full_lists("protocol tie sets", full)])]


def sensitivity_tables(rs: RecordSet) -> list[Table | Details]:
    if with_rounds := verdict_tables(rs):
        return with_rounds
    titles = {(s.run_id, s.cache, s.pair): s.title for s in sweeps(rs)}
    tables = []
    for (run_id, cache, pair), recs in group_by(rs.summaries(BENCH, "sensitivity"), "run_id", "cache", "pair").items():
        rows = [
            [
                fmt_bytes(r.get("bytes")),
                str(r.get("nmsg", 1)),
                fmt_sci(number(r, "min_s")),
                fmt_sci(number(r, "min_s_per_msg")),
                fmt_num(number(r, "max_mbytes_per_s"), 4),
                *(
                    f"{number(r, k):.2f}" if number(r, k) is not None else "–"
                    for k in ("mean_rel", "median_rel", "max_rel")
                ),
                " ".join(r.get("fastest") or []),
                *(str(r.get(k, "–")) for k in ("within_1pct", "within_5pct", "within_25pct")),
            ]
            for r in sorted(recs, key=lambda r: r.get("bytes", 0))
        ]
        nprot = recs[0].get("nprotocols", "?")
        tables.append(
            Table(
                f"Protocol sensitivity summary ({nprot} protocols): {titles.get((run_id, cache, pair), run_id)}",
                [
                    "msg size",
                    "nmsg",
                    "min s",
                    "min s/msg",
                    "max MB/s",
                    "(mean−min)/min",
                    "(median−min)/min",
                    "(max−min)/min",
                    "five fastest",
                    "≤1%",
                    "≤5%",
                    "≤25%",
                ],
                rows,
                "Worley 2000's summary: each protocol's time is its min over repetitions; the relative columns are "
                "over protocols; the last three count the protocols within 1/5/25 % of the fastest.",
            )
        )
    return tables


def _merged(points: list[dict]) -> dict[tuple, dict[tuple, dict]]:
    """{(transport, cache, pair): {(protocol label): {bytes: best point}}} across runs."""
    panels: dict = {}
    for p in points:
        curve = panels.setdefault((p.get("transport"), p.get("cache"), p.get("pair")), {}).setdefault(
            protocol_label(p), {}
        )
        if p["bytes"] not in curve or (number(p, "t_min") or 1e300) < (number(curve[p["bytes"]], "t_min") or 1e300):
            curve[p["bytes"]] = p
    return panels


def _size_panels(points: list[dict]) -> tuple[list[Panel], list[Panel]]:
    bandwidth, latency = [], []
    for (transport, cache, pair), curves in sorted(_merged(points).items(), key=lambda kv: str(kv[0])):
        where = f"cache {cache}, pair {pair}, {transport}"
        bw = Panel(
            f"Bandwidth ({where})", "message size (bytes)", "MB/s per direction (from t_min)", xlog=True, xbytes=True
        )
        lat = time_vs_size_panel(f"Time per exchange ({where})")
        for label, curve in sorted(curves.items(), key=lambda kv: sort_key(kv[0].split()[0])):
            sizes = sorted(b for b in curve if number(curve[b], "t_min"))
            bw.series.append(Series(label, sizes, [mbytes_per_s(curve[b]) for b in sizes]))
            lat.series.append(Series(label, sizes, [curve[b]["t_min"] * 1e6 for b in sizes]))
        bandwidth.append(bw)
        latency.append(lat)
    return bandwidth, latency


def section(rs: RecordSet) -> Section:
    sec = Section(TITLE)
    sec.add(
        Text(
            "Pairs of ranks exchange messages with each protocol of the catalogue (docs/protocols.md); a point's time "
            "is per exchange (all messages both ways), the max over the participating ranks of each repetition."
        ),
        table3(rs),
        _folded_models(protocol_table(rs)),
    )
    points = size_points(rs)
    if points:
        bandwidth, latency = _size_panels(points)
        sec.add(
            figure("swap-bandwidth", "Swap bandwidth vs message size per protocol (t_min, one direction).", bandwidth),
            figure("swap-latency", "Swap time per exchange vs message size per protocol (t_min).", latency),
        )
    volume_sweeps = [s for s in sweeps(rs) if s.split_volume]
    if volume_sweeps:
        panels = []
        for s in volume_sweeps:
            panel = Panel(
                f"{fmt_bytes(s.points[0].get('volume'))}, cache {s.cache}",
                "message size (bytes)",
                "time per exchange, t_min (ms)",
                xlog=True,
                xbytes=True,
                rank_by_max_y=False,
            )
            for label, unsorted in group_by(s.points, "protocol", "slug").items():
                pts = sorted(unsorted, key=lambda p: p["bytes"])
                panel.series.append(
                    Series(" ".join(map(str, label)), [p["bytes"] for p in pts], [p["t_min"] * 1e3 for p in pts])
                )
            panels.append(panel)
        sec.add(
            figure(
                "swap-volume", "Split-volume study (Worley 2000): a fixed volume sent as messages of each size.", panels
            )
        )
    sec.add(*sensitivity_tables(rs))
    return sec


def headline(rs: RecordSet) -> list[str]:
    """Peak bandwidth (t_min over every protocol and size), and the smallest size's tie set: never a lone winner."""
    points = [p for p in size_points(rs) if mbytes_per_s(p)]
    if not points:
        return []
    top = max(points, key=mbytes_per_s)
    line = f"swap: peak {fmt_num(mbytes_per_s(top), 4)} MB/s at {fmt_bytes(top['bytes'])} (cache {top.get('cache')})"
    one_msg = [c for c in verdict_cases(rs) if c.key[4] == 1]
    if one_msg:
        c = min(one_msg, key=lambda c: c.key[3])
        v = c.verdict
        tie = tiesets.name(v.best_set, list(v.medians), tiesets.catalogue(rs.points(BENCH)))
        line += f"; {fmt_bytes(c.key[3])} B exchange {fmt_us(v.medians[v.best])} µs median: {tie}"
    mark = next((m for f, m in guardrails.marks(rs).items() if f in {p.get("_file") for p in points}), "")
    return [with_mark(line, mark)]


def overlay(sets: list[tuple[str, RecordSet]]) -> list:
    bw = Panel("Best bandwidth over protocols", "message size (bytes)", "MB/s per direction", xlog=True, xbytes=True)
    lat = time_vs_size_panel("Best time per exchange over protocols")
    for (label, rs), style in zip(sets, ("-", "--"), strict=False):
        for key, pts in group_by(size_points(rs), "transport", "cache", "pair").items():
            per_size = {b: best(g) for (b,), g in group_by(pts, "bytes").items()}
            sizes = sorted(b for b, p in per_size.items() if p)
            name = f"cache {key[1]}, pair {key[2]}, {key[0]}"
            bw.series.append(
                Series(f"{label}: {name}", sizes, [mbytes_per_s(per_size[b]) for b in sizes], style=style, group=name)
            )
            lat.series.append(
                Series(f"{label}: {name}", sizes, [per_size[b]["t_min"] * 1e6 for b in sizes], style=style, group=name)
            )
    if not bw.series:
        return []
    return [figure("swap-overlay", "Swap: best over protocols, A solid, B dashed.", [bw, lat])]


