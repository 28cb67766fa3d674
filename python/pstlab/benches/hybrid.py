"""Ranks x threads: which split of a node's cores into MPI ranks and OpenMP threads per rank runs
the model fastest (a suite's `splits = "cores"` experiment, docs/howto-ranks-threads.md).

Each split is its own pstswm launch, so there are no rounds to pair: the launch is the unit.  The
suite interleaves the splits' launches (launch k of every split, then launch k + 1), so launch k of
one split pairs with launch k of the others, and the verdict is pstlab's verdict over launches
(stats.launch_verdict: each launch's median step time, Student's t over the launches' log-ratios)
at pstswm's default confidence and margin.  One launch gives no interval: every split ties.
"""

import statistics
from dataclasses import dataclass, field

from pstlab.benches import model
from pstlab.io.records import RecordSet, launch_of
from pstlab.stats import launch_floor, stats, verdicts

CONFIDENCE, MARGIN = 0.95, 0.02  # pstswm's defaults, as its other verdicts
HEADER = "_header"  # a run's header, kept beside its point (not a record field)


@dataclass
class Case(verdicts.Case):
    """A ranks x threads verdict; runs: per launch used, {split label: that split's run}."""

    runs: list[dict[str, dict]] = field(default_factory=list)


def split_of(point: dict, header: dict) -> tuple[int, int] | None:
    """(ranks per node, threads per rank) of a model run that asked for --threads, else None."""
    threads, ranks = header.get("threads"), point.get("ranks")
    if header.get("threads_source") != "--threads" or not isinstance(threads, int) or not isinstance(ranks, int):
        return None
    nodes = header.get("nodes") if isinstance(header.get("nodes"), int) and header.get("nodes") > 0 else 1
    return ranks // nodes, threads


def label(split: tuple[int, int]) -> str:
    return f"{split[0]}x{split[1]}"


def _runs(rs: RecordSet) -> dict[tuple, dict[int, dict[str, dict]]]:
    """{(problem, nodes, cores per node): {launch: {split label: run}}}.  Not by algorithms: one rank
    runs serially whatever the preset, so its record names no parallel algorithms."""
    headers = {h.get("run_id"): h for h in rs.headers()}
    out: dict[tuple, dict[int, dict[str, dict]]] = {}
    for p in model.runs(verdicts.measured(rs)):
        h = headers.get(p.get("run_id"), {})
        split = split_of(p, h)
        if split is None:
            continue
        key = (model.problem(p), h.get("nodes") or 1, split[0] * split[1])
        out.setdefault(key, {}).setdefault(launch_of(p), {})[label(split)] = {**p, HEADER: h}
    return out


def _order(labels) -> list[str]:
    return sorted(labels, key=lambda s: -int(s.split("x")[0]))


def cases(rs: RecordSet) -> list[Case]:
    """One verdict per problem, nodes and cores per node that ran two splits or more,
    over the launches that ran every split."""
    out = []
    for key, by_launch in sorted(_runs(rs).items(), key=str):
        splits = _order({s for runs in by_launch.values() for s in runs})
        full = [by_launch[k] for k in sorted(by_launch) if len(by_launch[k]) == len(splits)]
        if len(splits) < 2 or not full:
            continue
        rounds = {s: [runs[s]["step_s"] for runs in full] for s in splits}
        over = any(runs[s][HEADER].get("oversubscribed") for runs in full for s in splits)
        case = Case(key, rounds, len(full), ["oversubscribed"] if over else [], per_launch=1, runs=full)
        if len(full) > 1:
            case.verdict = stats.launch_verdict(
                [{s: [runs[s]["step_s"]] for s in splits} for runs in full], CONFIDENCE, MARGIN
            )
        else:
            case.verdict = stats.verdict(rounds, CONFIDENCE, MARGIN)
        out.append(case)
    # Each configuration's launches are its own, and each split ran its own launch: two draws per log-ratio.
    launch_floor.apply(out, [c.key for c in out], draws=2)
    return out


# --sync-wait's barriers before each communication (null without it), and the stages with no
# communication inside: their slowest rank's time over their fastest's is the ranks' imbalance in
# computation (every rank gets the same work there on the default grids).
WAITS = ("fft_wait_s", "legendre_wait_s")
LOCAL_STAGES = ("fourier", "grid", "spectral")


def sync_wait_s(point: dict) -> float | None:
    """The wait for the slowest rank a --sync-wait run measured per step; None for a run without it."""
    waits = [point[w] for w in WAITS if isinstance(point.get(w), int | float)]
    return sum(waits) if waits else None


def rank_imbalance(point: dict) -> float | None:
    """The local stages' slowest rank's time over their fastest rank's: the model's own per-rank sums
    (local_stages), else from the point's events, stage by stage (None without either: one rank, or
    records before pstswm kept the events)."""
    local = point.get("local_stages") or {}
    if isinstance(local.get("imbalance"), int | float):
        return float(local["imbalance"])
    events = {e.get("name"): e for e in point.get("events") or []}
    slowest = sum(events[s].get("slowest_s") or 0 for s in LOCAL_STAGES if s in events)
    fastest = sum(events[s].get("fastest_s") or 0 for s in LOCAL_STAGES if s in events)
    return slowest / fastest if fastest > 0 else None


def one_core_step(rs: RecordSet, case: Case) -> float | None:
    """The median step time of the case's problem on 1x1 (per node), when the records hold such runs:
    the base of a split's efficiency T(1x1) / (cores x T(split))."""
    problem, nodes, _ = case.key
    runs = [r["1x1"]["step_s"] for r in _runs(rs).get((problem, nodes, 1), {}).values() if "1x1" in r]
    return statistics.median(runs) if runs else None


def what(case: Case) -> str:
    """'T42L16 gen, 2 cores' / 'T42L16 gen, 2 nodes x 4 cores': the configuration a verdict is about
    (the algorithms those of the split with the most ranks)."""
    prob, nodes, cores = case.key
    cfg = model.config(case.runs[0][next(iter(case.rounds))])
    where = f"{nodes} nodes x {cores} cores" if nodes > 1 else f"{cores} cores"
    return f"{prob.removeprefix('case 2 ')} {cfg}, {where}"
