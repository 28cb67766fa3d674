"""bench/model.sh's analysis: the serial model's stages against the yardsticks measured in the same
rounds (DGEMM, FFTW, STREAM, the Legendre shapes), and the performance targets with their verdicts.

    model.py RECORDS"""

import statistics
import sys

from bench_io import records

med = statistics.median
# Flops per level-step of the whole step (Worley 1998).
WORLEY_FLOPS = {42: 4129859, 85: 24235477}
# (text, truncation, metric, bound, at least?)
TARGETS = [
    ("T85L16 Legendre stage (dgemms) >= 0.60 of DGEMM", 85, "leg_rate", 0.60, True),
    ("T85L16 Legendre stage with its Fourier-space combinations >= 0.60 of DGEMM", 85, "legfour_rate", 0.60, True),
    ("T42L16 FFT stage <= 1.2 x FFTW yardstick", 42, "fft_ratio", 1.2, False),
    ("T85L16 FFT stage <= 1.2 x FFTW yardstick", 85, "fft_ratio", 1.2, False),
    ("T85L16 whole step >= 0.45 of DGEMM", 85, "step_rate", 0.45, True),
    ("T42L16 whole step >= 0.35 of DGEMM (aim)", 42, "step_rate", 0.35, True),
]


class Run:
    """The records of one bench/model.sh run and the figures computed from them."""

    def __init__(self, recs: list[dict]):
        self.recs = recs
        self.variants = list(dict.fromkeys(r["variant"] for r in recs if r.get("type") == "point"))
        self.rounds = sorted({r["round"] for r in recs})
        self.rows: dict[tuple[int, str], dict] = {}
        self.per_round: dict[tuple[int, str], list[dict]] = {}

    def ys(self, what: str, key: str = "t_med", **match) -> float:
        """The median of a yardstick's figure over the records that match."""
        return med([r[key] for r in self.recs
                    if r.get("what") == what and all(r.get(k) == v for k, v in match.items())])

    def yardsticks(self) -> None:
        dgemm, dgemm2 = self.ys("dgemm", "gflops_med"), self.ys("dgemm_concurrent", "gflops_med")
        stream = self.ys("stream_triad", "gbs_med")
        brackets = [r["gflops_med"] for r in self.recs if r.get("what") == "dgemm_bracket"]
        print(f"yardsticks: DGEMM n=1000 {dgemm:.1f} GFlop/s on one core, {dgemm2:.1f} per copy with two at once "
              f"({dgemm2 / dgemm:.2f}); beside the model runs {med(brackets):.1f} [{min(brackets):.1f}, "
              f"{max(brackets):.1f}]; memory (STREAM triad) {stream:.1f} GB/s")

    def add_row(self, trunc: int, nlon: int, variant: str) -> None:
        pts = [r for r in self.recs if r.get("type") == "point" and r.get("trunc") == trunc and r["variant"] == variant]
        if not pts:
            return

        def g(k: str) -> float:
            return med([p[k] for p in pts])

        fft_best = [r for r in self.recs if r.get("what") == "fft_best" and r["nlon"] == nlon]
        yard = med([r["t_med"] for r in fft_best])
        batch = statistics.mode([r["batch"] for r in fft_best])
        # Each run against its own DGEMM brackets and its round's FFTW yardstick; a target's figure is
        # the median over the rounds, its spread their range.
        each = [rates([p for p in pts if p["round"] == k],
                      self.ys("dgemm_bracket", "gflops_med", round=k, trunc=trunc, variant=variant),
                      self.ys("fft_best", nlon=nlon, round=k)) for k in self.rounds]
        self.per_round[(trunc, variant)] = each
        figures = {key: med([x[key] for x in each]) for key in each[0]}
        r = self.rows[(trunc, variant)] = {
            "step": g("t_med"), "blas": statistics.mode([p["blas"] for p in pts]), "fft": g("fft_s"),
            "leg": g("legendre_s"), "four": g("fourier_s"), "grid": g("grid_s"), "spec": g("spectral_s"),
            "plan": g("fft_plan_s"), "yard": yard, "batch": batch, **figures,
        }
        print(f"T{trunc}L{pts[0]['levels']:<4} {r['step'] * 1e3:8.2f} {r['fft'] * 1e3:7.2f} {r['leg'] * 1e3:7.2f} "
              f"{r['four'] * 1e3:7.2f} {r['grid'] * 1e3:8.2f} {r['spec'] * 1e3:8.2f} {r['plan']:7.3f} "
              f"{yard * 1e3:8.2f} {batch:5d} {r['fft_ratio']:8.2f} {r['leg_rate']:9.2f} {r['legfour_rate']:8.2f} "
              f"{r['step_rate']:10.2f}  {r['blas']} {variant}")

    def legendre_shapes(self) -> None:
        """The Legendre shapes alone, through the library the default run chose, per round against that
        round's DGEMM: synthesis and analysis together, for each place of the operands."""
        if (85, "") not in self.rows:
            return
        blas = self.rows[(85, "")]["blas"]
        if not any(r.get("what") == "legendre_synthesis" and r.get("blas") == blas for r in self.recs):
            return
        y = next(r for r in self.recs if r.get("what") == "legendre_synthesis")
        k_coef = (y["trunc"] + 1) * (y["trunc"] + 2) // 2
        flop = 2 * 2 * y["pairs"] * k_coef * y["columns"]  # both passes, 2 flops per coefficient, pair and column

        def shapes(operands: str, k: int) -> float:
            t = sum(self.ys(f"legendre_{w}", blas=blas, operands=operands, round=k) for w in ("synthesis", "analysis"))
            return flop / t / 1e9 / self.ys("dgemm", "gflops_med", round=k)

        def spread(x: list[float]) -> str:
            return f"{med(x):.2f} [{min(x):.2f}, {max(x):.2f}]"

        at = {o: [shapes(o, k) for k in self.rounds] for o in ("cache", "buffer", "memory")}
        print(f"T85 Legendre shapes ({blas}, 40 columns) / DGEMM: Fourier operand in L2 {spread(at['cache'])}, "
              f"in the model's buffer {spread(at['buffer'])}, from memory {spread(at['memory'])}; "
              f"the model's T85L16 Legendre stage {spread([x['leg_rate'] for x in self.per_round[(85, '')]])}")

    def targets(self) -> None:
        """A verdict holds when every round agrees; otherwise the run cannot decide it."""
        print("targets (median over the rounds, their range, rounds meeting it):")
        for variant in self.variants:
            for text, trunc, key, bound, at_least in TARGETS:
                if (trunc, variant) not in self.rows:
                    continue
                each = [r[key] for r in self.per_round[(trunc, variant)]]
                k = sum(meets(x, bound, at_least) for x in each)
                figure = self.rows[(trunc, variant)][key]
                ok = meets(figure, bound, at_least)
                verdict = ("met   " if ok else "MISSED") if k in (0, len(each)) and ok == (k > 0) else "undecided"
                print(f"  {verdict:9} {text}{' with ' + variant if variant else ''}: {figure:.2f} "
                      f"[{min(each):.2f}, {max(each):.2f}], {k} of {len(each)} rounds")


def meets(x: float, bound: float, at_least: bool) -> bool:
    return x >= bound if at_least else x <= bound


def rates(pts: list[dict], dgemm_gflops: float, yard: float) -> dict[str, float]:
    """The target metrics of model points against yardsticks (medians of what is given)."""

    def g(k: str) -> float:
        return med([p[k] for p in pts])

    trunc, nlat, levels = pts[0]["trunc"], pts[0]["nlat"], pts[0]["levels"]
    # The Legendre stage's flops (flops.h): 56 K J/2 + 4 K per level, K = (M+1)(M+2)/2, J = nlat.
    k_coef = (trunc + 1) * (trunc + 2) / 2
    leg_flops = (56 * k_coef * nlat / 2 + 4 * k_coef) * levels
    return {
        "leg_rate": leg_flops / g("legendre_s") / 1e9 / dgemm_gflops,
        "legfour_rate": leg_flops / (g("legendre_s") + g("fourier_s")) / 1e9 / dgemm_gflops,
        "step_rate": WORLEY_FLOPS[trunc] * levels / g("t_med") / 1e9 / dgemm_gflops,
        "fft_ratio": g("fft_s") / yard,
    }


def main() -> None:
    run = Run(records(sys.argv[1]))
    run.yardsticks()
    print(f"{'config':8} {'step ms':>8} {'fft ms':>7} {'leg ms':>7} {'four ms':>7} {'grid ms':>8} {'spec ms':>8} "
          f"{'plan s':>7} {'FFTW ms':>8} {'batch':>5} {'fft/FFTW':>8} {'leg/DGEMM':>9} {'leg+four':>8} "
          f"{'step/DGEMM':>10}  blas, variant")
    for (trunc, nlon), variant in ((c, v) for c in ((42, 128), (85, 256)) for v in run.variants):
        run.add_row(trunc, nlon, variant)
    run.legendre_shapes()
    run.targets()


if __name__ == "__main__":
    main()
