"""The verdict box: the answer in 30 seconds, at the top of the report and the end of the summary.

At most MAX_BULLETS actions of at most MAX_WIDTH characters, built only from paired verdicts:
pstswm's family verdicts (which algorithm, all candidates in one set of rounds) and the kernel and
swap verdicts recomputed from their rounds (which protocol; a hand-written algorithm against the
MPI collective it replaces), each with its interval and, where launches disagree, in how many it
holds.  Then the scope (host, MPI, ranks, nodes), a Kernels line when a run's BLAS ran older kernels
than its CPU has (the times of its compute stages are then the library's limit, not the CPU's), and
one Trust line with its reason.
"""

import math
from dataclasses import dataclass, field

from pstlab.analysis import family, guardrails, narrowing, trust
from pstlab.benches import hybrid, kernel, swap
from pstlab.core import tiesets
from pstlab.io import algorithms, placement
from pstlab.io.headers import blas_behind_short, short_library
from pstlab.io.records import RecordSet
from pstlab.stats import stats, verdicts

MAX_BULLETS = 8
MAX_WIDTH = 120
GENERIC = kernel.GENERIC_PROTOCOL
COLLECTIVE_NAMES = {"alltoallv": "MPI_Alltoallv", "allreduce": "MPI_Allreduce", "reduce_scatter": "MPI_Reduce_scatter"}
STAGE_NAMES = {
    ("fft", "transpose"): "FFT transposes",
    ("legendre", "transpose"): "Legendre transposes",
    ("legendre", "vsum"): "Legendre sums",
}


@dataclass
class Bullet:
    kind: str  # family | collective | protocol | swap | hybrid
    text: str
    facts: dict = field(default_factory=dict)  # what the text states, for verdicts.json and its test


@dataclass
class Box:
    bullets: list[Bullet]
    scope: str
    trust: str  # high | medium | low
    reason: str
    kernels: str | None = None  # "Kernels behind the avx512 CPU: OpenBLAS Prescott (sse3); use ..." or None
    wide: list[str] = field(default_factory=list)  # per bench, what would narrow its wide ties
    ties: list[tuple[str, narrowing.Tie, str]] = field(default_factory=list)  # (bench, tie, its status)

    def scope_lines(self) -> list[str]:
        return [self.scope] + ([self.kernels] if self.kernels else []) + self.wide

    def lines(self) -> list[str]:
        return [f"- {b.text}" for b in self.bullets] + self.scope_lines() + [f"Trust: {self.trust} — {self.reason}"]

    def to_json(self) -> dict:
        return {
            "scope": self.scope,
            "kernels": self.kernels,
            "wide_ties": self.wide,
            "wide_tie_detail": [
                {
                    "bench": b,
                    "verdict": t.name,
                    "best_set_share": t.share,
                    "launches": t.launches,
                    "needed": t.needed,
                    "status": status,
                }
                for b, t, status in self.ties
            ],
            "trust": {"level": self.trust, "reason": self.reason},
            "verdicts": [{"kind": b.kind, "text": b.text, **b.facts} for b in self.bullets],
        }


def stage_name(stage: str, fam: str) -> str:
    return STAGE_NAMES.get((stage, fam), f"{stage} {fam}")


def fmt_interval(q: stats.PairedRatio) -> str:
    return f"{q.ratio:.2f}× [{q.lo:.2f}, {q.hi:.2f}]" if math.isfinite(q.lo) else f"{q.ratio:.2f}× [no interval]"


def _conclusion(q: stats.PairedRatio) -> str:
    if not q.significant:
        return "tie"
    return "slower" if q.ratio > 1 else "faster"


def launch_ratios(case: verdicts.Case, a: list[float], b: list[float]) -> list[stats.PairedRatio]:
    """a/b within each launch alone (case.rounds holds case.launches runs of case.per_launch rounds)."""
    n = case.per_launch or len(a)
    v = case.verdict
    return [
        stats.paired_ratio(a[i * n : (i + 1) * n], b[i * n : (i + 1) * n], v.confidence, v.margin)
        for i in range(len(a) // n)
    ]


def holding(case: verdicts.Case, a: list[float], b: list[float]) -> tuple[stats.PairedRatio, int, int]:
    """The merged a/b and in how many of the launches alone it reaches the same conclusion."""
    merged = case.paired(a, b)
    alone = launch_ratios(case, a, b)
    return merged, sum(_conclusion(q) == _conclusion(merged) for q in alone), len(alone)


def holds_text(held: int, launches: int, case: verdicts.Case | None = None) -> str:
    text = "" if held == launches or launches < 2 else f"; holds in {held} of {launches} launches"
    if case is not None and (needed := getattr(case, "launches_to_decide", None)):
        text += f"; ~{needed} launches to decide"
    return text


def where(locality, across: bool) -> str:
    """' across nodes' / ' inside a node' where the record set measured across nodes, else ''."""
    return f" {placement.name(locality)}" if across and locality not in (None, "None") else ""


def fitted(head: str, *optional: str) -> str:
    """head, then each optional part in turn while the bullet ('- ' + text) stays within MAX_WIDTH."""
    for part in optional:
        if len(head) + len(part) + 2 <= MAX_WIDTH:
            head += part
    return head


def _mark(marked: bool) -> str:
    return f"{guardrails.MARK} " if marked else ""


def family_bullets(rs: RecordSet, g: guardrails.Guardrails) -> list[Bullet]:
    """Per stage and family, the algorithms tied in every launch; those out in every launch, how much slower."""
    out, seen = [], set()
    all_verdicts = family.verdicts(rs)
    across = placement.multi_locality({v.locality for v in all_verdicts} - {"None"})
    for v in all_verdicts:
        over = any(f in g.oversubscribed for f in v.files)
        # an oversubscribed configuration speaks only where no other answers for its stage and family
        if over and any(
            (o.stage, o.family) == (v.stage, v.family)
            and o is not v
            and not any(f in g.oversubscribed for f in o.files)
            for o in all_verdicts
        ):
            continue
        if (v.stage, v.family, v.grid, v.locality) in seen:
            continue
        seen.add((v.stage, v.family, v.grid, v.locality))
        tie = tiesets.name(v.always, v.alternatives) if v.always else "no algorithm tied in every launch"
        held = f" in all {v.launches} launches" if v.launches > 1 else ""
        slow = ""
        if v.never:
            lo, hi = v.slower(v.never[0])
            spread = f"{lo:.2f}×" if v.launches == 1 or f"{lo:.2f}" == f"{hi:.2f}" else f"{lo:.2f}–{hi:.2f}×"
            slow = f"; {v.never[0]} {spread} slower"
        marked = any(g.marked(f) for f in v.files)
        text = fitted(
            f"{_mark(marked)}{stage_name(v.stage, v.family)} {v.size} {v.grid}{where(v.locality, across)}: "
            f"use {tie}{held}",
            f"; {tiesets.listed(v.sometimes)} tied in {max(map(v.in_best, v.sometimes))} of {v.launches}"
            if v.sometimes
            else "",
            slow,
        )
        out.append(
            Bullet(
                "family",
                text,
                {
                    "stage": v.stage,
                    "family": v.family,
                    "size": v.size,
                    "grid": v.grid,
                    "locality": v.locality,
                    "launches": v.launches,
                    "tied_in_every_launch": v.always,
                    "tied_in_some": {a: v.in_best(a) for a in v.sometimes},
                    "slower_in_every_launch": v.never,
                    "best_sets": v.best_sets,
                    "marked": marked,
                },
            )
        )
    return out


def _clean(cases: list[verdicts.Case]) -> list[verdicts.Case]:
    return [c for c in cases if "oversubscribed" not in c.caveats] or cases


def collective_bullets(cases: list[verdicts.Case], reg: algorithms.Registry) -> list[Bullet]:
    """Per stage, configuration and collective: the hand-written algorithm that fares best against it."""
    groups: dict[tuple, list[verdicts.Case]] = {}
    for c in _clean(cases):
        if kernel.COLL_PROTOCOL in c.comparators:
            groups.setdefault((c.key[0], c.key[2], c.key[3], reg.collective_of(str(c.key[1])), c.key[-1]), []).append(c)
    out = []
    across = placement.multi_locality({c.key[-1] for c in cases})
    for (stage, size, grid, coll, _locality), group in groups.items():
        top = max(group, key=lambda c: c.ratio(kernel.COLL_PROTOCOL).ratio)
        v = top.verdict
        q, held, launches = holding(top, top.comparators[kernel.COLL_PROTOCOL], top.rounds[v.best])
        alg, mpi = f"{top.key[1]} {v.best}", COLLECTIVE_NAMES.get(coll, coll)
        what = "sums" if coll != "alltoallv" else "transposes"
        head = f"{_mark(bool(top.caveats))}{stage.capitalize() if stage != 'fft' else 'FFT'} {what} {size} {grid}"
        head += where(top.key[-1], across)
        inverse = stats.PairedRatio(1 / q.ratio, 1 / q.hi, 1 / q.lo, q.n, q.significant)
        if _conclusion(q) == "slower":  # the collective takes longer: the algorithm wins
            text = f"{head}: use {alg}: {fmt_interval(q)} faster than {mpi}"
        elif _conclusion(q) == "faster":
            text = f"{head}: use {mpi}: {fmt_interval(inverse)} faster than {alg}"
        elif 1 / (1 + v.margin) <= q.lo and q.hi <= 1 + v.margin:  # equivalent: the whole interval in the band
            text = f"{head}: {alg} ≈ {mpi}: {fmt_interval(inverse)}, within {v.margin:.0%}"
        else:  # neither shown: the interval reaches outside the band on the side it does not exclude
            text = f"{head}: {alg} vs {mpi} undecided: {fmt_interval(inverse)}"
        out.append(
            Bullet(
                "collective",
                fitted(text, holds_text(held, launches, top)),
                {
                    "stage": stage,
                    "size": size,
                    "grid": grid,
                    "algorithm": top.key[1],
                    "protocol": v.best,
                    "collective": coll,
                    "collective_over_algorithm": [q.ratio, q.lo, q.hi],
                    "significant": q.significant,
                    "holds_in_launches": held,
                    "launches": launches,
                    "caveats": top.caveats,
                },
            )
        )
    return out


def protocol_bullet(cases: list[verdicts.Case]) -> Bullet | None:
    """How often the generic protocol 0,6 is among the fastest; where it is not, by how much."""
    with_generic = [c for c in _clean(cases) if GENERIC in c.rounds]
    if not with_generic:
        return None
    tied = [c for c in with_generic if GENERIC in c.verdict.best_set]
    text = f"Protocol {GENERIC} (MPI_Sendrecv) ties with the best in {len(tied)} of {len(with_generic)} kernel verdicts"
    facts: dict = {"protocol": GENERIC, "tied": len(tied), "verdicts": len(with_generic)}
    out_of = [c for c in with_generic if c not in tied]
    if out_of:
        worst = max(out_of, key=lambda c: c.ratio(GENERIC).ratio)
        q, held, launches = holding(worst, worst.rounds[GENERIC], worst.rounds[worst.verdict.best])
        where = f"{worst.key[1]} {worst.key[3]}"
        text = fitted(
            text + f"; worst {where}: {fmt_interval(q)} the time of {worst.verdict.best}",
            holds_text(held, launches, worst),
        )
        facts |= {
            "worst": {
                "algorithm": worst.key[1],
                "grid": worst.key[3],
                "best": worst.verdict.best,
                "generic_over_best": [q.ratio, q.lo, q.hi],
                "holds_in_launches": held,
                "launches": launches,
            }
        }
    mark = any(c.caveats for c in with_generic if "noisy" in c.caveats or "oversubscribed" in c.caveats)
    return Bullet("protocol", _mark(mark) + text, facts)


def swap_bullets(cases: list[verdicts.Case], ordered: dict[str, bool]) -> list[Bullet]:
    """Point-to-point, per locality measured (inside a node, across nodes)."""
    by_locality: dict = {}
    for c in _clean(cases):
        by_locality.setdefault(c.key[-1], []).append(c)
    across = placement.multi_locality(set(by_locality))
    bullets = (swap_bullet(group, ordered, where(loc, across)) for loc, group in sorted(by_locality.items(), key=str))
    return [b for b in bullets if b]


def swap_bullet(cases: list[verdicts.Case], ordered: dict[str, bool], place: str = "") -> Bullet | None:
    """Point-to-point, one message per exchange: at how many sizes 0,6 ties; the size where it loses most."""
    sizes = [c for c in cases if c.key[4] == 1 and GENERIC in c.rounds]
    if not sizes:
        return None
    tied = [c for c in sizes if GENERIC in c.verdict.best_set]
    text = f"Point-to-point{place}: {GENERIC} ties with the best at {len(tied)} of {len(sizes)} sizes"
    facts: dict = {"protocol": GENERIC, "tied_sizes": len(tied), "sizes": len(sizes), "locality": sizes[0].key[-1]}
    out_of = [c for c in sizes if c not in tied]
    if out_of:
        worst = max(out_of, key=lambda c: c.ratio(GENERIC).ratio)
        v = worst.verdict
        q, held, launches = holding(worst, worst.rounds[GENERIC], worst.rounds[v.best])
        use = tiesets.name(v.best_set, list(v.medians), ordered)
        # the interval always shows; the tie set to use, as far as the line allows (the report lists it)
        text = fitted(
            text + f"; at {worst.key[3]} B {GENERIC} takes {fmt_interval(q)} as long as the best",
            f" (use {use})",
            holds_text(held, launches, worst),
        )
        facts |= {
            "worst": {
                "bytes": worst.key[3],
                "best_set": v.best_set,
                "generic_over_best": [q.ratio, q.lo, q.hi],
                "holds_in_launches": held,
                "launches": launches,
            }
        }
    return Bullet("swap", text, facts)


def hybrid_bullets(rs: RecordSet) -> list[Bullet]:
    """Ranks x threads: the split to use (the tie set at the verdict's confidence) and what each
    other split costs against the best, per configuration (benches/hybrid.py)."""
    out = []
    for case in hybrid.cases(rs):
        v = case.verdict
        others = [s for s in case.rounds if s != v.best]
        costs = {s: case.ratio(s) for s in others}
        tie = tiesets.name(sorted(v.best_set, key=lambda s: (s != v.best, v.medians[s])), list(case.rounds))
        alone = " (1 launch: no interval)" if case.launches == 1 else ""
        text = fitted(
            f"{_mark(bool(case.caveats))}Ranks x threads {hybrid.what(case)}: use {tie}{alone}",
            *(f"; {s} {fmt_interval(costs[s])}" for s in others),
        )
        facts = {
            "configuration": list(case.key),
            "best": v.best,
            "tie_set": v.best_set,
            "launches": case.launches,
            "over_best": {s: [q.ratio, q.lo, q.hi] for s, q in costs.items()},
            "caveats": case.caveats,
        }
        out.append(Bullet("hybrid", text, facts))
    return out


def scope(rs: RecordSet) -> str:
    headers = rs.headers()
    hosts = sorted({str(h) for hd in headers for h in (hd.get("hosts") or [])})
    libraries = sorted({short_library(h.get("mpi_library")) for h in headers})
    ranks = sorted({int(h["ranks"]) for h in headers if isinstance(h.get("ranks"), int)})
    nodes = max((int(h.get("nodes") or 1) for h in headers), default=1)
    launches = len(rs.launches()) or 1
    span = (f"{ranks[0]}–{ranks[-1]} ranks" if len(ranks) > 1 else plural(ranks[0], "rank")) if ranks else "? ranks"
    text = (
        f"Scope: {', '.join(hosts[:3]) or '?'} · {', '.join(libraries) or '?'} · {span} · "
        f"{plural(nodes, 'node')} · {plural(launches, 'launch', 'launches')}"
    )
    return text[:MAX_WIDTH]


def kernels(rs: RecordSet) -> str | None:
    """'Kernels behind the avx512 CPU: OpenBLAS Prescott (sse3); use ...' when a run's header says its BLAS
    lags its CPU (math_libraries.blas_behind_cpu), else None: the compute stages' times are then the
    library's limit, not the CPU's."""
    lines = list(dict.fromkeys(b for h in rs.headers() if (b := blas_behind_short(h.get("math_libraries"), MAX_WIDTH))))
    return "; ".join(lines) or None


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def trust_line(g: guardrails.Guardrails, bullets: list[Bullet], agreement: trust.Agreement) -> tuple[str, str]:
    """The level measured by held-out launches (analysis/trust.py), the guardrails as its reasons.
    Without launches to leave out, the guardrails decide as before: low when the box states verdicts
    of a noisy or oversubscribed run or most verdicts are imprecise."""
    reasons = []
    if g.noisy:
        reasons.append(f"noise lost in {len(g.noisy)} of {g.runs} runs")
    if g.oversubscribed:
        reasons.append(f"{len(g.oversubscribed)} of {g.runs} runs oversubscribed")
    if g.imprecise_verdicts:
        reasons.append(f"precision not reached in {g.imprecise_verdicts} of {g.verdicts} verdicts")
    if g.failing_fits:
        reasons.append(f"{len(g.failing_fits)} of {g.fits} fits failing")
    level = trust.level_of(agreement)
    if level is None:
        marked = any(b.text.startswith(guardrails.MARK) for b in bullets)
        low = marked or g.imprecise_verdicts * 2 > max(g.verdicts, 1)
        level = "low" if low else "medium" if reasons else "high"
    reason = "; ".join([trust.statement(agreement), *reasons])
    width = MAX_WIDTH - len(f"Trust: {level} — ")
    while len(reason) > width and "; " in reason:
        reason = reason.rsplit("; ", 1)[0]
    return level, reason


def build(rs: RecordSet) -> Box:
    rs = verdicts.measured(rs)  # predictions never enter a verdict (pstlab predict's records)
    kernel_cases, swap_cases = kernel.verdict_cases(rs), swap.verdict_cases(rs)
    g = guardrails.check(rs, kernel_cases + swap_cases)
    ordered = tiesets.catalogue(rs.points("swap") + rs.points("kernel"))
    bullets = family_bullets(rs, g) + collective_bullets(kernel_cases, algorithms.of(rs))
    bullets += [b for b in (protocol_bullet(kernel_cases),) if b] + swap_bullets(swap_cases, ordered)
    # the ranks x threads lines keep their place however many others there are
    splits = hybrid_bullets(rs)[:MAX_BULLETS]
    bullets = bullets[: MAX_BULLETS - len(splits)] + splits
    level, reason = trust_line(g, bullets, trust.agreement(kernel_cases + swap_cases))
    wide, ties = [], []
    for bench, cases in ((kernel, kernel_cases), (swap, swap_cases)):
        seconds = narrowing.launch_seconds(rs, bench.BENCH)
        found = narrowing.wide_ties(cases, bench.tie_name)
        wide.append(narrowing.line(bench.BENCH, found, narrowing.counted(cases), seconds))
        ties += [(bench.BENCH, t, t.status(seconds)) for t in found]
    return Box(bullets, scope(rs), level, reason, kernels(rs), [w for w in wide if w], ties)
