"""Predicted scaling (`pstlab predict`'s records): the predicted and the measured model runs apart, the
prediction's band (the platform's validation error), each algorithm set's step time against ranks,
its parallel efficiency and the fastest set per rank count."""

from pstlab.benches import model
from pstlab.benches.common import grid_ranks
from pstlab.io.records import RecordSet, number
from pstlab.stats import verdicts


def _fastest(recs: list[dict]) -> dict[tuple, dict]:
    """{(problem, set, grid): the record with the smallest step time}."""
    out: dict[tuple, dict] = {}
    for r in recs:
        key = (model.problem(r), model.config(r), r.get("grid"))
        if key not in out or r["step_s"] < out[key]["step_s"]:
            out[key] = r
    return out


def split(rs: RecordSet) -> tuple[dict[tuple, dict], dict[tuple, dict]]:
    """(predicted, measured) model runs, each {(problem, set, grid): record}."""
    runs = model.runs(rs)
    simulated = verdicts.simulated_runs(rs.headers())
    return (
        _fastest([r for r in runs if r.get("run_id") in simulated]),
        _fastest([r for r in runs if r.get("run_id") not in simulated]),
    )


def band(rs: RecordSet) -> float | None:
    entry = (rs.manifest or {}).get("predicted") or {}
    return number(entry, "band")


def efficiency(step_s: float, ranks: int, base: tuple[float, int]) -> float:
    """Parallel efficiency against the problem's base: the fastest set at the fewest ranks predicted."""
    base_s, base_ranks = base
    return base_s * base_ranks / (step_s * ranks)


def curves(predicted: dict[tuple, dict]) -> dict[str, dict[str, dict[int, float]]]:
    """{problem: {set: {ranks: step_s}}} of the predicted runs (split's first dict)."""
    out: dict[str, dict[str, dict[int, float]]] = {}
    for (prob, s, g), r in predicted.items():
        out.setdefault(prob, {}).setdefault(s, {})[grid_ranks(g)] = r["step_s"]
    return out


def fastest(curves_s: dict[str, dict[int, float]]) -> dict[int, str]:
    """{ranks: the set with the smallest predicted step time there}: the answer without its band."""
    answers = {}
    for ranks in sorted({p for c in curves_s.values() for p in c}):
        times = {s: c[ranks] for s, c in curves_s.items() if ranks in c}
        answers[ranks] = min(times, key=times.get)
    return answers
