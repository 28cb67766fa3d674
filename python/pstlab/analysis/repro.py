"""`pstlab repro DIR DIR [DIR ...]`: do the verdicts of several runs of one suite agree?

A verdict is pstswm's tie set over alternatives: kernel per (stage, algorithm, grid, size), swap
per (transport, cache, pair, bytes, nmsg).  Two runs agree on a verdict when their best sets
intersect; the figure is the share of verdicts on which every pair of runs agrees, with the size
of the best sets as a share of the alternatives (a tool that answers "all of them" agrees
trivially).  Verdicts of runs with more ranks than CPUs do not count.  Each directory is one run;
a directory of several launches (`--launches`) gives the verdict of its merged rounds.
"""

import itertools
import json
import statistics
from pathlib import Path

from pstlab.benches.registry import BENCHES as ALL_BENCHES
from pstlab.core.errors import PstlabError
from pstlab.io.records import RecordSet, load

# The targets of a tool whose verdicts can be trusted on a quiet machine.
TARGET_CONSISTENT = 0.95
TARGET_MEDIAN_SET = 0.25
TARGET_P90_SET = 0.50
# The subcommands whose verdicts are compared: those whose facts have verdict_cases.
BENCHES = {bench.BENCH: bench for bench in ALL_BENCHES if hasattr(bench, "verdict_cases")}


def _fallback(rs: RecordSet, bench: str) -> dict[tuple, tuple[frozenset, int]]:
    """Verdicts of records without rounds: pstswm's own summaries (best_set, else the lone best)."""
    out = {}
    for s in rs.summaries(bench, "sensitivity"):
        if "oversubscribed" in (s.get("verdict_caveats") or []):
            continue
        key = tuple(s.get(k) for k in (verdicts_key(bench)))
        best = s.get("best_set") or [s.get("best") or s.get("best_protocol")]
        n = s.get("nalternatives") or s.get("nprotocols") or len(best)
        out[key] = (frozenset(map(str, best)), int(n))
    return out


def verdicts_key(bench: str) -> tuple[str, ...]:
    return BENCHES[bench].VERDICT_KEY


def run_verdicts(rs: RecordSet, bench: str) -> tuple[dict[tuple, tuple[frozenset, int]], int]:
    """{key: (best set, number of alternatives)} of one run, and how many were left out as oversubscribed."""
    oversubscribed = {h.get("_file") for h in rs.headers() if h.get("oversubscribed")}
    kept = RecordSet(rs.path, [r for r in rs.records if r.get("_file") not in oversubscribed], rs.manifest)
    cases = BENCHES[bench].verdict_cases(kept)
    skipped = sum(1 for c in BENCHES[bench].verdict_cases(rs) if "oversubscribed" in c.caveats) if oversubscribed else 0
    if not cases:
        return _fallback(kept, bench), skipped
    return {c.key: (frozenset(c.verdict.best_set), len(c.verdict.medians)) for c in cases}, skipped


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]


def analyse(dirs: list[str | Path]) -> dict:
    if len(dirs) < 2:
        raise PstlabError("repro needs two or more results directories (runs of the same suite)")
    sets = [load(d) for d in dirs]
    result = {"runs": [str(d) for d in dirs], "benches": {}}
    for bench in BENCHES:
        per_run, skipped = zip(*(run_verdicts(rs, bench) for rs in sets), strict=True)
        keys = set.intersection(*(set(v) for v in per_run))
        if not keys:
            if any(per_run):
                result["benches"][bench] = {"verdicts": 0, "skipped_oversubscribed": sum(skipped)}
            continue
        inconsistent = [
            {"key": list(k), "best_sets": [sorted(v[k][0]) for v in per_run]}
            for k in sorted(keys, key=str)
            if not all(a[k][0] & b[k][0] for a, b in itertools.combinations(per_run, 2))
        ]
        shares = [len(v[k][0]) / v[k][1] for v in per_run for k in keys if v[k][1]]
        consistent = len(keys) - len(inconsistent)
        entry = {
            "verdicts": len(keys),
            "consistent": consistent,
            "share": consistent / len(keys),
            "median_set_share": statistics.median(shares),
            "p90_set_share": _p90(shares),
            "skipped_oversubscribed": sum(skipped),
            "inconsistent": inconsistent,
        }
        entry["targets_met"] = (
            entry["share"] >= TARGET_CONSISTENT
            and entry["median_set_share"] <= TARGET_MEDIAN_SET
            and entry["p90_set_share"] <= TARGET_P90_SET
        )
        result["benches"][bench] = entry
    return result


def render(result: dict) -> str:
    n = len(result["runs"])
    lines = []
    for bench, e in result["benches"].items():
        if not e["verdicts"]:
            lines.append(f"{bench}: no verdicts common to all {n} runs ({e['skipped_oversubscribed']} oversubscribed)")
            continue
        lines.append(
            f"{bench}: {e['verdicts']} verdicts in all {n} runs, best sets intersect in every pair for "
            f"{e['consistent']}/{e['verdicts']} = {e['share']:.0%} (target ≥ {TARGET_CONSISTENT:.0%}); best set "
            f"median {e['median_set_share']:.0%} (≤ {TARGET_MEDIAN_SET:.0%}), 90th percentile {e['p90_set_share']:.0%} "
            f"(≤ {TARGET_P90_SET:.0%}) of the alternatives — {'targets met' if e['targets_met'] else 'TARGETS NOT MET'}"
            + (
                f"; {e['skipped_oversubscribed']} oversubscribed verdicts left out"
                if e["skipped_oversubscribed"]
                else ""
            )
        )
        lines += [
            f"  differs: {' '.join(str(k) for k in i['key'] if k is not None)}: "
            + " | ".join(" ≈ ".join(s) for s in i["best_sets"])
            for i in e["inconsistent"]
        ]
    return "\n".join(lines) if lines else f"no kernel or swap verdicts common to all {n} runs"


def exit_code(result: dict) -> int:
    """0: every bench with common verdicts meets the targets; 1: some does not; 2: nothing to compare."""
    benches = [e for e in result["benches"].values() if e["verdicts"]]
    if not benches:
        return 2
    return 0 if all(e["targets_met"] for e in benches) else 1


def add_parser(sub, name: str, summary: str) -> None:
    p = sub.add_parser(
        name,
        help=summary,
        description="The share of verdicts whose best sets intersect in every pair of runs, and the best sets' "
        "size. Exit 0 when the targets are met (>= 95 %% consistent, best set median <= 25 %%, 90th percentile "
        "<= 50 %% of the alternatives), 1 when not, 2 when the runs share no verdict.",
    )
    p.add_argument("results", nargs="+", help="two or more results directories of the same suite")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")


def command(args) -> int:
    result = analyse(args.results)
    print(json.dumps(result, indent=2) if args.json else render(result))
    return exit_code(result)
