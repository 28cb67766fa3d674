import json, statistics, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
med = statistics.median
def ys(what, key="t_med", **match):
    return med([r[key] for r in recs if r.get("what") == what and all(r.get(k) == v for k, v in match.items())])
dgemm, dgemm2 = ys("dgemm", "gflops_med"), ys("dgemm_concurrent", "gflops_med")
worley = {42: 4129859, 85: 24235477}
stream = ys("stream_triad", "gbs_med")
brackets = [r["gflops_med"] for r in recs if r.get("what") == "dgemm_bracket"]
print(f"yardsticks: DGEMM n=1000 {dgemm:.1f} GFlop/s on one core, {dgemm2:.1f} per copy with two at once "
      f"({dgemm2 / dgemm:.2f}); beside the model runs {med(brackets):.1f} [{min(brackets):.1f}, {max(brackets):.1f}]; "
      f"memory (STREAM triad) {stream:.1f} GB/s")
print(f"{'config':8} {'step ms':>8} {'fft ms':>7} {'leg ms':>7} {'four ms':>7} {'grid ms':>8} {'spec ms':>8} "
      f"{'plan s':>7} {'FFTW ms':>8} {'batch':>5} {'fft/FFTW':>8} {'leg/DGEMM':>9} {'leg+four':>8} {'step/DGEMM':>10}  blas, variant")
def rates(pts, dgemm_gflops, yard):
    """The target metrics of model points against yardsticks (medians of what is given)."""
    g = lambda k: med([p[k] for p in pts])
    M, J, L = pts[0]["trunc"], pts[0]["nlat"], pts[0]["levels"]
    # The Legendre stage's flops (flops.h): 56 K J/2 + 4 K per level, K = (M+1)(M+2)/2, J = nlat.
    K = (M + 1) * (M + 2) / 2
    leg_flops = (56 * K * J / 2 + 4 * K) * L
    return dict(leg_rate=leg_flops / g("legendre_s") / 1e9 / dgemm_gflops,
                legfour_rate=leg_flops / (g("legendre_s") + g("fourier_s")) / 1e9 / dgemm_gflops,
                step_rate=worley[M] * L / g("t_med") / 1e9 / dgemm_gflops,
                fft_ratio=g("fft_s") / yard)
rows, per_round = {}, {}
variants = list(dict.fromkeys(r["variant"] for r in recs if r.get("type") == "point"))
rounds = sorted({r["round"] for r in recs})
for (M, nlon), variant in ((c, v) for c in ((42, 128), (85, 256)) for v in variants):
    pts = [r for r in recs if r.get("type") == "point" and r.get("trunc") == M and r["variant"] == variant]
    if not pts:
        continue
    g = lambda k: med([p[k] for p in pts])
    fft_best = [r for r in recs if r.get("what") == "fft_best" and r["nlon"] == nlon]
    yard = med([r["t_med"] for r in fft_best])
    batch = statistics.mode([r["batch"] for r in fft_best])
    L = pts[0]["levels"]
    # Each run against its own DGEMM brackets and its round's FFTW yardstick; a target's figure is
    # the median over the rounds, its spread their range.
    per_round[(M, variant)] = [rates([p for p in pts if p["round"] == k],
                                     ys("dgemm_bracket", "gflops_med", round=k, trunc=M, variant=variant),
                                     ys("fft_best", nlon=nlon, round=k)) for k in rounds]
    figures = {key: med([x[key] for x in per_round[(M, variant)]]) for key in per_round[(M, variant)][0]}
    rows[(M, variant)] = dict(step=g("t_med"), blas=statistics.mode([p["blas"] for p in pts]), fft=g("fft_s"), leg=g("legendre_s"),
                              four=g("fourier_s"), grid=g("grid_s"), spec=g("spectral_s"), plan=g("fft_plan_s"), yard=yard,
                              batch=batch, **figures)
    r = rows[(M, variant)]
    print(f"T{M}L{L:<4} {r['step']*1e3:8.2f} {r['fft']*1e3:7.2f} {r['leg']*1e3:7.2f} {r['four']*1e3:7.2f} "
          f"{r['grid']*1e3:8.2f} {r['spec']*1e3:8.2f} {r['plan']:7.3f} {yard*1e3:8.2f} {batch:5d} {r['fft_ratio']:8.2f} "
          f"{r['leg_rate']:9.2f} {r['legfour_rate']:8.2f} {r['step_rate']:10.2f}  {r['blas']} {variant}")
# The Legendre shapes alone, through the library the default run chose, per round against that
# round's DGEMM: synthesis and analysis together, for each place of the operands.
if (85, "") in rows:
    blas = rows[(85, "")]["blas"]
    def shapes(operands, k):
        t = sum(ys(f"legendre_{w}", blas=blas, operands=operands, round=k) for w in ("synthesis", "analysis"))
        y = next(r for r in recs if r.get("what") == "legendre_synthesis")
        K = (y["trunc"] + 1) * (y["trunc"] + 2) // 2
        flop = 2 * 2 * y["pairs"] * K * y["columns"]  # both passes, 2 flops per coefficient, pair and column
        return flop / t / 1e9 / ys("dgemm", "gflops_med", round=k)
    if any(r.get("what") == "legendre_synthesis" and r.get("blas") == blas for r in recs):
        spread = lambda x: f"{med(x):.2f} [{min(x):.2f}, {max(x):.2f}]"
        at = {o: [shapes(o, k) for k in rounds] for o in ("cache", "buffer", "memory")}
        print(f"T85 Legendre shapes ({blas}, 40 columns) / DGEMM: Fourier operand in L2 {spread(at['cache'])}, "
              f"in the model's buffer {spread(at['buffer'])}, from memory {spread(at['memory'])}; "
              f"the model's T85L16 Legendre stage {spread([x['leg_rate'] for x in per_round[(85, '')]])}")
# (text, truncation, metric, bound, at least?)
targets = [("T85L16 Legendre stage (dgemms) >= 0.60 of DGEMM", 85, "leg_rate", 0.60, True),
           ("T85L16 Legendre stage with its Fourier-space combinations >= 0.60 of DGEMM", 85, "legfour_rate", 0.60, True),
           ("T42L16 FFT stage <= 1.2 x FFTW yardstick", 42, "fft_ratio", 1.2, False),
           ("T85L16 FFT stage <= 1.2 x FFTW yardstick", 85, "fft_ratio", 1.2, False),
           ("T85L16 whole step >= 0.45 of DGEMM", 85, "step_rate", 0.45, True),
           ("T42L16 whole step >= 0.35 of DGEMM (aim)", 42, "step_rate", 0.35, True)]
# A verdict holds when every round agrees; otherwise the run cannot decide it.
print("targets (median over the rounds, their range, rounds meeting it):")
for variant in variants:
    for text, M, key, bound, at_least in targets:
        if (M, variant) not in rows:
            continue
        meets = lambda x: x >= bound if at_least else x <= bound
        each = [r[key] for r in per_round[(M, variant)]]
        k = sum(meets(x) for x in each)
        ok = meets(rows[(M, variant)][key])
        verdict = ("met   " if ok else "MISSED") if k in (0, len(each)) and ok == (k > 0) else "undecided"
        print(f"  {verdict:9} {text}{' with ' + variant if variant else ''}: {rows[(M, variant)][key]:.2f} "
              f"[{min(each):.2f}, {max(each):.2f}], {k} of {len(each)} rounds")
