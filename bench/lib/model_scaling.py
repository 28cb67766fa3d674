import json, math, statistics, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
stages = ["fft", "legendre", "fourier", "grid", "spectral"]
rows = {}
for r in recs:
    rows.setdefault((r["trunc"], r["levels"]), []).append(r)
med = lambda rs, k: statistics.median(x[k] for x in rs)
print("| config | step ms | " + " | ".join(f"{s} %" for s in stages) + " | FFTW planning s | max RSS MB |")
print("|---|---:|" + "---:|" * len(stages) + "---:|---:|")
for (M, L), rs in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    t = med(rs, "t_med")
    parts = [med(rs, s + "_s") for s in stages]
    total = sum(parts)
    print(f"| T{M}L{L} | {t * 1e3:.3f} | " + " | ".join(f"{100 * p / total:.0f}" for p in parts)
          + f" | {med(rs, 'fft_plan_s'):.3f} | {med(rs, 'max_rss_bytes') / 1e6:.0f} |")
one = sorted((M, rs) for (M, L), rs in rows.items() if L == 1)
Ms = [M for M, _ in one]
def fit(ys):
    """Least-squares slope and intercept of log y against log M."""
    xs = [math.log(M) for M in Ms]
    ls = [math.log(y) for y in ys]
    mx, my = statistics.fmean(xs), statistics.fmean(ls)
    p = sum((x - mx) * (y - my) for x, y in zip(xs, ls)) / sum((x - mx) ** 2 for x in xs)
    return p, math.exp(my - p * mx)
print("\nfitted growth, one level, time ∝ M^p over T%d..T%d:" % (Ms[0], Ms[-1]))
series = {"step": [med(rs, "t_med") for _, rs in one]}
for s in stages:
    series[s] = [med(rs, s + "_s") for _, rs in one]
fits = {}
for name, ys in series.items():
    fits[name] = fit(ys)
    print(f"  {name:9} p = {fits[name][0]:.2f}")
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("# matplotlib not available: no plot (make venv installs it)")
    sys.exit(0)
fig, ax = plt.subplots(figsize=(6.4, 4.4))
for name, ys in series.items():
    p, c = fits[name]
    line, = ax.loglog(Ms, [y * 1e3 for y in ys], "o-" if name == "step" else "o--", label=f"{name} (M^{p:.2f})")
ax.set_xticks(Ms, [f"T{M}" for M in Ms])
ax.minorticks_off()
ax.set_xlabel("truncation (one level, case 2)")
ax.set_ylabel("time per step, ms")
ax.set_title("pstswm model cost against truncation, 1 rank")
ax.grid(True, which="both", alpha=0.3)
ax.legend()
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=110)
print(f"# plot: {sys.argv[2]}")
