"""`pstlab predict --sensitivity`: which of a platform's inputs the prediction's answer depends on.

Each input of the platform file (INPUTS) is moved by -20 % and +20 % in turn, the others kept,
and the suite is predicted again on that variant.  The answer is what the report's prediction
section answers: the fastest algorithm set at each rank count of each problem
(analysis/prediction.py).  A row says, per shift, whether that answer changed and by how much the
predicted step times moved (the largest relative change over every set and grid).  An input the
answer changes with is one whose value needs a source a reader can trust; one it does not change
with may be rough.

The default suite (suites/predict-sensitivity.toml) is the predict suite's four sets at its
smallest and a middle grid, so the 19 predictions (the baseline and 9 inputs x 2 shifts) take a
few minutes on two cores.  This host's compute rate is measured once, for all of them.  Every
variant keeps its platform file (OUT/platforms/) and its results directory (OUT/<variant>/), which
`pstlab report` reads like any prediction."""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pstlab.analysis import prediction
from pstlab.core import paths
from pstlab.core.errors import PstlabError
from pstlab.io import records
from pstlab.simulate import platform, platform_dump, predict

DEFAULT_SUITE = "predict-sensitivity"
SHIFTS = (-0.2, 0.2)
BASELINE = "baseline"
REPORT = "sensitivity.md"
FIGURES = "sensitivity.json"


def _rows(table: list[tuple], factor: float) -> list[tuple]:
    """A piecewise table with every value (not its sizes) scaled."""
    return [(size, *(x * factor for x in values)) for size, *values in table]


def _compute(p: platform.Platform, factor: float) -> dict[str, dict[str, float]]:
    return {problem: {k: v * factor for k, v in rates.items()} for problem, rates in p.compute.items()}


# The inputs a platform file gives, each as the platform with that input scaled by a factor.
INPUTS: dict[str, Callable[[platform.Platform, float], platform.Platform]] = {
    "link latency": lambda p, f: dataclasses.replace(p, latency_s=p.latency_s * f),
    "link bandwidth": lambda p, f: dataclasses.replace(p, bandwidth_bytes_per_s=p.bandwidth_bytes_per_s * f),
    "latency factors": lambda p, f: dataclasses.replace(p, lat_factor=_rows(p.lat_factor, f)),
    "bandwidth factors": lambda p, f: dataclasses.replace(p, bw_factor=_rows(p.bw_factor, f)),
    "send overhead": lambda p, f: dataclasses.replace(p, send_overhead=_rows(p.send_overhead, f)),
    "recv overhead": lambda p, f: dataclasses.replace(p, recv_overhead=_rows(p.recv_overhead, f)),
    "isend overhead": lambda p, f: dataclasses.replace(p, isend_overhead=_rows(p.isend_overhead, f)),
    "eager limit": lambda p, f: dataclasses.replace(p, eager_limit_bytes=max(1, round(p.eager_limit_bytes * f))),
    "compute rates": lambda p, f: dataclasses.replace(
        p,
        compute=_compute(p, f),
        shares={k: [(row[0], *(x * f for x in row[1:])) for row in rows] for k, rows in p.shares.items()},
    ),
}


def _node(p: platform.Platform, **scaled: float) -> platform.Platform:
    """p with the [node] fields named scaled by their factors (an absent copy rate stays absent)."""
    if p.node is None:
        return p
    values = {k: getattr(p.node, k) * f for k, f in scaled.items() if getattr(p.node, k) is not None}
    return dataclasses.replace(p, node=dataclasses.replace(p.node, **values))


# What the cores of a node share ([node]): inputs of the platforms that describe it.
NODE_INPUTS: dict[str, Callable[[platform.Platform, float], platform.Platform]] = {
    "node latency": lambda p, f: _node(p, latency_s=f),
    "core bandwidth": lambda p, f: _node(p, core_bandwidth_bytes_per_s=f),
    "node shared bandwidth": lambda p, f: _node(p, shared_bandwidth_bytes_per_s=f),
    "copy rate": lambda p, f: _node(p, copy_bytes_per_s=f),
}


def inputs(p: platform.Platform) -> dict[str, Callable[[platform.Platform, float], platform.Platform]]:
    """The inputs p gives: INPUTS, and NODE_INPUTS when it describes its nodes."""
    return {**INPUTS, **(NODE_INPUTS if p.node else {})}


@dataclass
class Outcome:
    """What one prediction says: the answer per problem and every cell's step time."""

    answer: dict[str, dict[int, str]]  # problem -> {ranks: fastest set}
    step_s: dict[tuple[str, str, int], float]  # (problem, set, ranks) -> predicted step time

    @classmethod
    def of(cls, rs: records.RecordSet) -> Outcome:
        predicted, _ = prediction.split(rs)
        curves = prediction.curves(predicted)
        return cls(
            {prob: prediction.fastest(c) for prob, c in curves.items()},
            {(prob, s, ranks): t for prob, c in curves.items() for s, line in c.items() for ranks, t in line.items()},
        )


@dataclass
class Change:
    """One variant against the baseline."""

    answer_changes: list[str]  # e.g. "case 2 T42L16 at 16 ranks: gen -> coll"
    largest_rel: float  # the largest relative step-time change over the cells both predicted
    largest_cell: tuple[str, str, int] | None


def compare(base: Outcome, varied: Outcome) -> Change:
    changes = [
        f"{prob} at {ranks} ranks: {best} → {varied.answer.get(prob, {}).get(ranks, 'none')}"
        for prob, answers in base.answer.items()
        for ranks, best in answers.items()
        if varied.answer.get(prob, {}).get(ranks) != best
    ]
    moves = {cell: varied.step_s[cell] / t - 1 for cell, t in base.step_s.items() if cell in varied.step_s}
    cell = max(moves, key=lambda c: abs(moves[c]), default=None)
    if cell is None or moves[cell] == 0:  # nothing moved: no cell to name
        return Change(changes, 0.0, None)
    return Change(changes, moves[cell], cell)


def variant_name(input_name: str, shift: float) -> str:
    return f"{input_name.replace(' ', '-')}{shift:+.0%}".replace("%", "pct")


# A runner predicts the suite on one platform file into one results directory.
Runner = Callable[[Path, Path], Outcome]


def table(changes: dict[str, dict[float, Change]]) -> str:
    """The Markdown table input x shift, and the sentence that sums it up."""

    def cell(c: Change) -> str:
        moved = f"{c.largest_rel:+.1%}"
        if c.largest_cell:
            prob, s, ranks = c.largest_cell
            moved += f" ({s}, {ranks} ranks)"
        return ("**changed**: " + "; ".join(c.answer_changes) if c.answer_changes else "same") + f" | {moved}"

    heads = " | ".join(f"{shift:+.0%}: answer | {shift:+.0%}: largest time change" for shift in SHIFTS)
    lines = [f"| input | {heads} |", "|---" * (1 + 2 * len(SHIFTS)) + "|"]
    for name, by_shift in changes.items():
        lines.append(f"| {name} | " + " | ".join(cell(by_shift[s]) for s in SHIFTS) + " |")
    depends = [name for name, by_shift in changes.items() if any(c.answer_changes for c in by_shift.values())]
    summary = (
        f"The answer depends on: {', '.join(depends)}."
        if depends
        else f"The answer depends on none of the inputs within ±{max(map(abs, SHIFTS)):.0%}."
    )
    return "\n".join(lines) + "\n\n" + summary + "\n"


def analyse(p: platform.Platform, out: Path, runner: Runner, echo=print) -> dict[str, dict[float, Change]]:
    """Predict the baseline and every variant of p; return {input: {shift: change}}."""
    files = out / "platforms"
    files.mkdir(parents=True, exist_ok=True)

    def predict_on(name: str, variant: platform.Platform, why: str) -> Outcome:
        path = files / f"{name}.toml"
        path.write_text(platform_dump.dumps(variant, f"{why}\n(pstlab predict --sensitivity, from {p.path})"), "utf-8")
        echo(f"pstlab predict --sensitivity: {name}")
        return runner(path, out / name)

    base = predict_on(BASELINE, p, f"{p.path} as it is")
    if not base.answer:
        raise PstlabError(f"{out / BASELINE}: the suite predicted no model runs: no answer to test the inputs on")
    changes: dict[str, dict[float, Change]] = {}
    for name, vary in inputs(p).items():
        for shift in SHIFTS:
            why = f"{p.path} with its {name} {shift:+.0%}"
            varied = predict_on(variant_name(name, shift), vary(p, 1 + shift), why)
            changes.setdefault(name, {})[shift] = compare(base, varied)
    return changes


def _figures(changes: dict[str, dict[float, Change]]) -> dict:
    return {
        name: {
            f"{shift:+.0%}": {
                "answer_changes": c.answer_changes,
                "largest_rel": c.largest_rel,
                "largest_cell": list(c.largest_cell) if c.largest_cell else None,
            }
            for shift, c in by_shift.items()
        }
        for name, by_shift in changes.items()
    }


def suite_runner(opts: predict.Options, rates: dict[str, float]) -> Runner:
    """Predict opts' suite on a platform file with pstlab predict's machinery and this host's rates."""

    def run(platform_file: Path, out: Path) -> Outcome:
        one = dataclasses.replace(opts, platform=str(platform_file), out=str(out), resume=opts.resume and out.is_dir())
        return Outcome.of(records.load(predict.predict(one, echo=lambda _: None, rates=rates)))

    return run


def sensitivity(opts: predict.Options, echo=print, runner: Runner | None = None) -> Path:
    """Run the analysis on opts.platform; write OUT/sensitivity.md and .json; return OUT."""
    p = platform.load(opts.platform)
    if opts.dry_run:
        raise PstlabError(
            f"--sensitivity runs the suite {1 + len(inputs(p)) * len(SHIFTS)} times: drop --dry-run "
            "(try it on the suite alone first)"
        )
    if opts.out:
        out = Path(opts.out)
    else:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        out = paths.results_dir() / f"{stamp}-sensitivity-{p.name}"
    if runner is None:
        runner = suite_runner(opts, predict.host_rates(opts, p, echo))
    changes = analyse(p, out, runner, echo)
    text = table(changes)
    shifts = " and ".join(f"{s:+.0%}" for s in SHIFTS)
    (out / REPORT).write_text(
        f"# Sensitivity of the prediction on {p.path}\n\nEach input moved by {shifts}, the others kept; "
        "the answer is the fastest algorithm set at each rank count.\n\n" + text,
        "utf-8",
    )
    (out / FIGURES).write_text(json.dumps(_figures(changes), indent=1) + "\n", "utf-8")
    echo(text + f"\nwritten: {out / REPORT}")
    return out
