"""Ranks x threads in the report: the verdict lines and the time per step by split (the facts:
pstlab.benches.hybrid), with each split's efficiency against 1x1 beside the node's ceiling
(pstlab.benches.ceiling) where the records hold a 1x1 run and bench/node-ceiling.sh's samples."""

import statistics

from pstlab.benches import ceiling
from pstlab.benches.hybrid import (
    CONFIDENCE,
    LOCAL_STAGES,
    MARGIN,
    Case,
    cases,
    one_core_step,
    rank_imbalance,
    sync_wait_s,
    what,
)
from pstlab.benches.model import STAGE_COLUMNS
from pstlab.core.units import fmt_ms
from pstlab.io.records import RecordSet, number
from pstlab.report.doc import Section, Table, Text
from pstlab.report.sections import model

TITLE = "Ranks x threads per rank"


def _median_of(runs: list[dict], field: str) -> float | None:
    values = [v for r in runs if (v := number(r, field)) is not None]
    return statistics.median(values) if values else None


def _ratio_cell(case: Case, split: str) -> str:
    if split == case.verdict.best:
        return "best"
    q = case.ratio(split)
    interval = f" [{q.lo:.2f}, {q.hi:.2f}]" if q is not None and q.lo == q.lo else " [no interval]"
    return f"{q.ratio:.2f}×{interval}" if q is not None else "–"


def _wait_cells(runs: list[dict]) -> list[str]:
    """The --sync-wait wait per step and the ranks' imbalance in the local stages, medians over launches."""
    waits = [w for r in runs if (w := sync_wait_s(r)) is not None]
    imbalances = [i for r in runs if (i := rank_imbalance(r)) is not None]
    return [
        fmt_ms(statistics.median(waits)) if waits else "–",
        f"{statistics.median(imbalances):.2f}" if imbalances else "–",
    ]


def _efficiency_cells(case: Case, split: str, base: float | None, node: dict) -> list[str]:
    """Efficiency T(1x1) / (cores x T(split)), the node's concurrent-DGEMM ceiling for the split, their ratio."""
    ranks, threads = (int(x) for x in split.split("x"))
    eff = base / (case.key[2] * statistics.median(case.rounds[split])) if base else None
    ceil = ceiling.for_split(node, ranks, threads)
    ratio = f"{eff / ceil.ratio:.2f}" if eff and ceil and ceil.ratio else "–"
    return [f"{eff:.2f}" if eff else "–", ceiling.fmt_ratio(ceil), ratio]


def table(all_cases: list[Case], rs: RecordSet) -> Table:
    stages = STAGE_COLUMNS
    node = ceiling.ceilings(ceiling.load(rs.path)) if rs.path.is_dir() else {}
    rows = []
    for case in all_cases:
        base = one_core_step(rs, case)
        for split in case.rounds:
            runs = [launch[split] for launch in case.runs]
            med = {f: _median_of(runs, f) for _, f, _ in stages}
            rows.append(
                [
                    what(case),
                    split,
                    str(case.launches),
                    fmt_ms(statistics.median(case.rounds[split])),
                    *(model.stage_ms({k: v for k, v in med.items() if v is not None}, f, m) for _, f, m in stages),
                    fmt_ms(_median_of(runs, "comm_s")),
                    *_wait_cells(runs),
                    *_efficiency_cells(case, split, base, node),
                    _ratio_cell(case, split),
                    "yes" if split in case.verdict.best_set else "",
                ]
            )
    return Table(
        "Ranks x threads: time per step by split (ms, median over launches)",
        [
            "problem, cores",
            "ranks x threads",
            "launches",
            "step",
            *(c[0] for c in stages),
            "comm",
            "wait",
            "imbalance",
            "efficiency",
            "ceiling",
            "eff / ceiling",
            "vs best",
            "tie set",
        ],
        rows,
        f"Each split of a node's cores (ranks per node x threads per rank), its launches interleaved with the "
        f"others'. vs best: the split's time over the best's with its {CONFIDENCE:.0%} interval over launches; "
        f"tie set: not excluded at that confidence (margin {MARGIN:.0%}). Stages as in the model section. "
        f"wait: the barriers before each communication of a --sync-wait run, the wait for the slowest rank; "
        f"imbalance: the slowest rank's time in the {', '.join(LOCAL_STAGES)} stages over the fastest's (the same "
        f"work on every rank: a core the host runs slower shows here). "
        f"efficiency: T(1x1) / (cores x T(split)), where a 1x1 run is among the records; ceiling: what each core "
        f"keeps of its one-core DGEMM rate while every core runs one (bench/node-ceiling.sh's samples beside the "
        f"records; one process's threads for 1xT, a process per core otherwise), median [lowest, highest] round; "
        f"eff / ceiling near 1: the split is at the node's limit, well below 1: the model's.",
    )


def section(rs: RecordSet, lines: list[str]) -> Section | None:
    """The verdict lines (the box's, given) and the per-split table; None without a ranks x threads run."""
    all_cases = cases(rs)
    if not all_cases:
        return None
    sec = Section(TITLE)
    sec.add(Text("\n".join(f"- {line}" for line in lines)), table(all_cases, rs))
    return sec
