"""`pstlab checksums FILE|DIR ...`: did model runs of the same problem compute the same bits?

pstswm model's point and diag records carry a digest of the spectral state per field
(`checksums`: FNV-1a 64 of each field's coefficients in (m, n) order, whatever the decomposition).
Records of the same problem at the same step are compared: their digests match when the runs
computed the same bits.  When they differ, the configuration fields and the run header's rounding
choices that differ between the records are named, so the report says why.  Records without
digests (pstswm before them, --compute skeleton) are reported; under --fail-if-different they
make the check fail with exit 2, as does finding nothing to compare.
"""

import json
from pathlib import Path

from pstlab.core.errors import PstlabError
from pstlab.io.records import load

# What makes two records the same problem at the same time: the state must then be the same.
PROBLEM = ("case", "alpha", "trunc", "levels", "nlat", "nlon", "scheme", "dt_s", "steps")
# What may differ between runs of one problem, reported when their digests do.
CONFIGURATION = (
    "ranks",
    "grid",
    "fft",
    "legendre",
    "fft_protocol",
    "legendre_protocol",
    "threads",
    "comm_threads",
    "blas",
    "legendre_kernel",
    "level_block",
    "pair_chunk",
    "chain_levels",
    "chunks",
    "level_pipeline",
)


def _record_rows(path: str | Path) -> list[dict]:
    """The model point and diag records of a file or directory, each with its header's choices."""
    rs = load(path)
    headers = {(h.get("_file"), h.get("run_id")): h for h in rs.headers() if h.get("bench") == "model"}
    rows = []
    for r in rs.records:
        if r.get("bench") != "model" or r.get("type") not in ("point", "diag"):
            continue
        header = headers.get((r.get("_file"), r.get("run_id")), {})
        choices = {
            c.get("choice"): (c.get("value"), c.get("how"))
            for c in header.get("rounding_choices") or []
            if isinstance(c, dict)
        }
        rows.append(
            {
                "source": f"{Path(path).name}/{r.get('_file')}" if Path(path).is_dir() else str(r.get("_file")),
                "record": r,
                "choices": choices,
                "reproducible": header.get("reproducible"),
                "mpi": header.get("mpi_build"),
            }
        )
    return rows


def _key(r: dict) -> tuple:
    step = r.get("step") if r.get("type") == "diag" else r.get("steps")
    return (*(r.get(k) for k in PROBLEM), step)


def _value(row: dict, name: str) -> str:
    """A configuration field of the record, a header choice ("header NAME") or the MPI build, as text."""
    if name == "mpi_build":
        return json.dumps(row["mpi"])
    if name.startswith("header "):
        return json.dumps(row["choices"].get(name[7:], (None, None))[0])
    return json.dumps(row["record"].get(name))


def _explanations(classes: list[list[dict]]) -> dict[str, list[str]]:
    """What is the same within every class of equal digests but not across them: why they differ."""
    rows = [row for c in classes for row in c]
    names = list(CONFIGURATION) + [f"header {n}" for n in sorted({n for row in rows for n in row["choices"]})]
    out = {}
    for name in [*names, "mpi_build"]:
        per_class = [{_value(row, name) for row in c} for c in classes]
        if all(len(v) == 1 for v in per_class) and len(set().union(*per_class)) > 1:
            out[name] = [next(iter(v)) for v in per_class]
    return out


def _group(key: tuple, rows: list[dict]) -> dict:
    with_sums = [row for row in rows if isinstance(row["record"].get("checksums"), dict)]
    classes: dict[str, list[dict]] = {}
    for row in with_sums:
        classes.setdefault(json.dumps(row["record"]["checksums"], sort_keys=True), []).append(row)
    timed = sorted({n for row in with_sums for n, (_, how) in row["choices"].items() if how == "timed"})
    return {
        "problem": dict(zip(PROBLEM, key[:-1], strict=True)),
        "kind": rows[0]["record"]["type"],
        "step": key[-1],
        "records": len(rows),
        "without_checksums": [row["source"] for row in rows if row not in with_sums],
        "distinct": len(classes),
        "match": len(with_sums) >= 2 and len(classes) == 1,
        "classes": [
            {"checksums": c[0]["record"]["checksums"], "sources": [row["source"] for row in c]}
            for c in classes.values()
        ],
        "differs_in": _explanations(list(classes.values())) if len(classes) > 1 else {},
        "timed_choices": timed,
    }


def analyse(paths: list[str | Path]) -> dict:
    rows = [row for p in paths for row in _record_rows(p)]
    if not rows:
        raise PstlabError("no pstswm model point or diag records in " + ", ".join(str(p) for p in paths))
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault(_key(row["record"]), []).append(row)
    compared = [_group(k, g) for k, g in groups.items() if len(g) >= 2]
    return {
        "records": len(rows),
        "without_checksums": sum(1 for row in rows if not isinstance(row["record"].get("checksums"), dict)),
        "alone": sum(1 for g in groups.values() if len(g) < 2),
        "groups": compared,
    }


def _problem_text(g: dict) -> str:
    p = g["problem"]
    where = f"step {g['step']}" if g["kind"] == "diag" else f"end (step {g['step']})"
    return f"case {p['case']} T{p['trunc']}L{p['levels']} {p['nlat']}x{p['nlon']} dt {p['dt_s']:g} s, {where}"


def _digest_text(sums: dict) -> str:
    return " ".join(f"{k} {v}" for k, v in sums.items())


def _sources_text(sources: list[str], most: int = 4) -> str:
    more = f" and {len(sources) - most} more" if len(sources) > most else ""
    return ", ".join(sources[:most]) + more


def _group_lines(g: dict) -> list[str]:
    head = f"{_problem_text(g)}: {g['records']} records, "
    if g["match"]:
        return [head + f"checksums match ({_digest_text(g['classes'][0]['checksums'])})"]
    if g["distinct"] < 2:
        return [head + "fewer than two carry checksums: nothing to compare"]
    lines = [head + f"checksums DIFFER ({g['distinct']} distinct)"]
    for c in g["classes"]:
        lines.append(f"  {_digest_text(c['checksums'])}: {len(c['sources'])} x {_sources_text(c['sources'])}")
    lines += [f"  differs in {k}: {' | '.join(v)}" for k, v in g["differs_in"].items()]
    if not g["differs_in"]:
        timed = ", ".join(g["timed_choices"]) or "none recorded"
        lines.append(f"  no configuration field or fixed choice tells them apart; chosen by timing at set-up: {timed}")
    return lines


def render(result: dict) -> str:
    lines = []
    for g in result["groups"]:
        lines += _group_lines(g)
        if g["without_checksums"]:
            lines.append(f"  without checksums: {_sources_text(g['without_checksums'])}")
    if result["without_checksums"]:
        lines.append(
            f"{result['without_checksums']} of {result['records']} model records carry no checksums "
            "(written by a pstswm before them, or --compute skeleton)"
        )
    if not result["groups"]:
        lines.append(f"no two of the {result['records']} model records share a problem and a step: nothing to compare")
    return "\n".join(lines)


def exit_code(result: dict, fail_if_different: bool) -> int:
    """0: reported (or, with fail_if_different, every compared group matched); 1: a group differs;
    2 under fail_if_different: nothing compared, or a compared record without checksums."""
    if not fail_if_different:
        return 0
    groups = result["groups"]
    if not groups or any(g["without_checksums"] for g in groups) or not any(g["distinct"] for g in groups):
        return 2
    return 1 if any(g["distinct"] > 1 for g in groups) else 0


def add_parser(sub, name: str, summary: str) -> None:
    p = sub.add_parser(
        name,
        help=summary,
        description="Groups pstswm model point and diag records by problem (case, alpha, truncation, levels, grid, "
        "scheme, time step, steps) and step, and says whether each group's state checksums match; when they differ, "
        "which configuration fields and run-header rounding choices differ. Exit 0 after the report; with "
        "--fail-if-different 1 when some group's checksums differ, 2 when nothing could be compared or a record "
        "compared carries no checksums.",
    )
    p.add_argument("results", nargs="+", help="record files (.jsonl) or results directories of pstswm model runs")
    p.add_argument("--fail-if-different", action="store_true", help="exit 1 when checksums differ, 2 when missing")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")


def command(args) -> int:
    result = analyse(args.results)
    print(json.dumps(result, indent=2) if args.json else render(result))
    return exit_code(result, args.fail_if_different)
