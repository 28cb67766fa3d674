"""Which algorithm to use per stage: pstswm's paired family verdicts, one per configuration, launches merged.

pstswm kernel runs each family's algorithms (each with its fastest protocol), the MPI library forms
and the collective together in interleaved rounds and writes the verdict as a `family` summary.
Every launch writes its own; the protocol an algorithm ran with may differ between launches, so
the merged verdict names algorithms, and says in how many launches each was in the best set.
"""

from dataclasses import dataclass

from pstlab.benches.common import grid_ranks
from pstlab.core.grouping import group_by, sort_key
from pstlab.io.records import RecordSet, launch_of, number

KEY = ("stage", "family", "size", "grid", "locality")  # locality: absent before pstswm recorded it


def algorithm(alternative: str) -> str:
    """'srtrans 2,2' -> 'srtrans'; a library form ('alltoallv') is its own name."""
    return alternative.split(" ")[0]


@dataclass
class FamilyVerdict:
    stage: str
    family: str
    size: str
    grid: str
    locality: str  # the stage's communicators: intra-node, inter-node, mixed; "None" in older records
    files: list[str]
    best_sets: list[list[str]]  # per launch, algorithm names, best first
    medians_s: list[dict[str, float]]  # per launch, algorithm -> median seconds
    alternatives: list[str]  # algorithm names, in pstswm's order
    rounds: list[int]

    @property
    def launches(self) -> int:
        return len(self.best_sets)

    def in_best(self, name: str) -> int:
        """In how many launches `name` was in the best set."""
        return sum(name in s for s in self.best_sets)

    @property
    def always(self) -> list[str]:
        """Tied with the best in every launch, in order of their median over launches."""
        return sorted((a for a in self.alternatives if self.in_best(a) == self.launches), key=self.median_s)

    @property
    def sometimes(self) -> list[str]:
        return sorted((a for a in self.alternatives if 0 < self.in_best(a) < self.launches), key=self.median_s)

    @property
    def never(self) -> list[str]:
        return sorted((a for a in self.alternatives if not self.in_best(a)), key=self.median_s)

    def median_s(self, name: str) -> float:
        values = sorted(m[name] for m in self.medians_s if name in m)
        return values[len(values) // 2] if values else float("inf")

    def slower(self, name: str) -> tuple[float, float]:
        """name's median over the launch's best median: the lowest and highest over launches."""
        ratios = [m[name] / min(m.values()) for m in self.medians_s if name in m and min(m.values()) > 0]
        return (min(ratios), max(ratios)) if ratios else (float("nan"), float("nan"))


def verdicts(rs: RecordSet) -> list[FamilyVerdict]:
    out = []
    summaries = [s for s in rs.summaries("kernel", "family") if s.get("best_set")]
    for key, unsorted in sorted(group_by(summaries, *KEY).items(), key=lambda kv: [sort_key(k) for k in kv[0]]):
        group = sorted(unsorted, key=launch_of)
        alternatives: list[str] = []
        medians = []
        for s in group:
            names = [algorithm(str(a)) for a in s.get("alternatives", [])]
            alternatives += [a for a in names if a not in alternatives]
            times = [number({"t": t}, "t") for t in s.get("alternative_s", [])]
            medians.append({a: t for a, t in zip(names, times, strict=False) if t is not None})
        out.append(
            FamilyVerdict(
                *(str(k) for k in key),
                files=sorted({str(s.get("_file")) for s in group}),
                best_sets=[[algorithm(str(a)) for a in s["best_set"]] for s in group],
                medians_s=medians,
                alternatives=alternatives,
                rounds=[int(s.get("rounds") or 0) for s in group],
            )
        )
    # transform order, the FFT stage first; the smaller grids first (a one-node suite oversubscribes the larger)
    return sorted(out, key=lambda v: (grid_ranks(v.grid) or 0, v.stage != "fft", v.family != "transpose"))
