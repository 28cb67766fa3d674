"""The node's ceiling (bench/node-ceiling.sh): what one core's DGEMM and STREAM triad reach alone and
what each core keeps while every core runs one at once, as the threads of one process and as one
process per core (as ranks are), in interleaved rounds.

A round's ratio is its concurrent per-core rate over its one-core rate (the slowest copy sets the
concurrent rate: a split waits for its slowest rank or thread).  Repetition by repetition, as a
split waits at each of its synchronisations: a process's threads start each repetition together
and it takes as long as the slowest (pst_yardstick); one process per core, the copies' repetitions
are matched by their index (t_reps) and each takes its slowest copy's time.  The median over
rounds, with the lowest and highest, is the ceiling of a split's parallel efficiency on this node:
a model split at efficiency 0.80 on a node whose concurrent-DGEMM ceiling is 0.82 is at the node's
limit, not the model's.  The samples are JSON lines in <results>/node-ceiling.samples (not *.jsonl: they are
yardsticks, not pstswm records), each a pst_yardstick line tagged with its mode, round and copy.
"""

import json
import statistics
from dataclasses import dataclass
from pathlib import Path

SAMPLES = "node-ceiling.samples"
RATE = {"dgemm": ("gflops_med", "GFlop/s"), "stream_triad": ("gbs_med", "GB/s")}
MODES = ("one", "threads", "ranks")


@dataclass
class Ceiling:
    kernel: str  # dgemm | stream_triad
    mode: str  # one | threads | ranks
    copies: int  # cores running at once
    rates: list[float]  # per round: the per-core rate (the slowest copy's)
    ratios: list[float]  # per round: rate over that round's one-core rate (empty for mode one)

    @property
    def rate(self) -> float:
        return statistics.median(self.rates)

    @property
    def ratio(self) -> float | None:
        return statistics.median(self.ratios) if self.ratios else None


def load(directory: Path) -> list[dict]:
    """The samples of a results directory; [] when node-ceiling.sh did not run there."""
    path = Path(directory) / SAMPLES
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def slowest_copy_rate(copies: list[dict], field: str) -> float:
    """A round's per-core rate: the median over repetitions of the slowest copy's rate, the copies'
    repetitions matched by index; the slowest copy's median for samples without their repetitions."""
    reps = [c.get("t_reps") for c in copies]
    if len(copies) == 1 or not all(reps) or len({len(r) for r in reps}) != 1:
        return min(c[field] for c in copies)
    work = [c[field] * c["t_med"] for c in copies]  # rate x time: the same work for every copy
    return statistics.median(min(w / r[k] for w, r in zip(work, reps, strict=True)) for k in range(len(reps[0])))


def ceilings(samples: list[dict]) -> dict[tuple[str, str], Ceiling]:
    """{(kernel, mode): Ceiling} over the rounds that ran the kernel's one-core case."""
    per_round: dict[tuple[str, str, str], list[dict]] = {}
    for s in samples:
        if s.get("what") in RATE and s.get("mode") in MODES:
            per_round.setdefault((s["what"], s["mode"], str(s["round"])), []).append(s)
    out: dict[tuple[str, str], Ceiling] = {}
    for kernel, (field, _) in RATE.items():
        rounds = sorted({r for k, m, r in per_round if k == kernel and m == "one"})
        for mode in MODES:
            rates, ratios, copies = [], [], 1
            for r in rounds:
                copies_run = per_round.get((kernel, mode, r))
                if not copies_run:
                    continue
                rate = slowest_copy_rate(copies_run, field)
                copies = max(len(copies_run), *(int(c.get("threads", 1)) for c in copies_run))
                rates.append(rate)
                if mode != "one":
                    ratios.append(rate / per_round[(kernel, "one", r)][0][field])
            if rates:
                out[(kernel, mode)] = Ceiling(kernel, mode, copies, rates, ratios)
    return out


def for_split(table: dict[tuple[str, str], Ceiling], ranks: int, threads: int, kernel: str = "dgemm") -> Ceiling | None:
    """The ceiling that bounds a split of ranks x threads: one process of threads, else one process per
    core (a mixed split's ranks are processes too); None for one core or a ceiling not measured."""
    if ranks * threads <= 1:
        return None
    return table.get((kernel, "threads" if ranks == 1 else "ranks"))


def fmt_ratio(c: Ceiling | None) -> str:
    """'0.97 [0.93, 0.99]': the ceiling's median ratio with its lowest and highest round."""
    if c is None or c.ratio is None:
        return "–"
    return f"{c.ratio:.2f} [{min(c.ratios):.2f}, {max(c.ratios):.2f}]"


def lines(table: dict[tuple[str, str], Ceiling]) -> list[str]:
    """The ceiling table as text, one row per kernel and mode."""
    out = [f"{'kernel':>12}  {'mode':>7}  {'cores':>5}  {'per-core rate (median, low-high)':>34}  ceiling [low, high]"]
    for (kernel, mode), c in table.items():
        unit = RATE[kernel][1]
        rate = f"{c.rate:.2f} {unit} ({min(c.rates):.2f}-{max(c.rates):.2f})"
        out.append(f"{kernel:>12}  {mode:>7}  {c.copies:>5}  {rate:>34}  {fmt_ratio(c) if mode != 'one' else '1'}")
    return out
