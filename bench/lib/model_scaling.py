"""bench/model-scaling.sh's analysis: a markdown table of the median step and each stage's share per
configuration, each stage's fitted growth c·M^p over the one-level runs, and a log-log plot.

    model_scaling.py RECORDS PLOT.png"""

import math
import statistics
import sys

from bench_io import records

STAGES = ["fft", "legendre", "fourier", "grid", "spectral"]


def med(rs: list[dict], k: str) -> float:
    return statistics.median(x[k] for x in rs)


def fit(ms: list[int], ys: list[float]) -> tuple[float, float]:
    """Least-squares slope and intercept of log y against log M."""
    xs = [math.log(m) for m in ms]
    ls = [math.log(y) for y in ys]
    mx, my = statistics.fmean(xs), statistics.fmean(ls)
    p = sum((x - mx) * (y - my) for x, y in zip(xs, ls, strict=True)) / sum((x - mx) ** 2 for x in xs)
    return p, math.exp(my - p * mx)


def table(rows: dict[tuple[int, int], list[dict]]) -> None:
    print("| config | step ms | " + " | ".join(f"{s} %" for s in STAGES) + " | FFTW planning s | max RSS MB |")
    print("|---|---:|" + "---:|" * len(STAGES) + "---:|---:|")
    for (m, levels), rs in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        parts = [med(rs, s + "_s") for s in STAGES]
        total = sum(parts)
        print(
            f"| T{m}L{levels} | {med(rs, 't_med') * 1e3:.3f} | " + " | ".join(f"{100 * p / total:.0f}" for p in parts)
            + f" | {med(rs, 'fft_plan_s'):.3f} | {med(rs, 'max_rss_bytes') / 1e6:.0f} |"
        )


def plot(ms: list[int], series: dict[str, list[float]], fits: dict[str, tuple[float, float]], path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("# matplotlib not available: no plot (make venv installs it)")
        return
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for name, ys in series.items():
        p = fits[name][0]
        ax.loglog(ms, [y * 1e3 for y in ys], "o-" if name == "step" else "o--", label=f"{name} (M^{p:.2f})")
    ax.set_xticks(ms, [f"T{m}" for m in ms])
    ax.minorticks_off()
    ax.set_xlabel("truncation (one level, case 2)")
    ax.set_ylabel("time per step, ms")
    ax.set_title("pstswm model cost against truncation, 1 rank")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"# plot: {path}")


def main() -> None:
    rows: dict[tuple[int, int], list[dict]] = {}
    for r in records(sys.argv[1]):
        rows.setdefault((r["trunc"], r["levels"]), []).append(r)
    table(rows)
    one = sorted((m, rs) for (m, levels), rs in rows.items() if levels == 1)
    ms = [m for m, _ in one]
    print(f"\nfitted growth, one level, time ∝ M^p over T{ms[0]}..T{ms[-1]}:")
    series = {"step": [med(rs, "t_med") for _, rs in one]}
    for s in STAGES:
        series[s] = [med(rs, s + "_s") for _, rs in one]
    fits = {}
    for name, ys in series.items():
        fits[name] = fit(ms, ys)
        print(f"  {name:9} p = {fits[name][0]:.2f}")
    plot(ms, series, fits, sys.argv[2])


if __name__ == "__main__":
    main()
