import json, math, pathlib, re, statistics, sys
from pstlab.benches import ceiling
from pstlab.stats.stats import paired_ratio

out, cores = pathlib.Path(sys.argv[1]), int(sys.argv[2])
# stage: (field, its communication to take off); comm: fft_comm_s + legendre_comm_s (comm_s)
STAGES = (("fft", "fft_s", "fft_comm_s"), ("legendre", "legendre_s", "legendre_comm_s"), ("fourier", "fourier_s", None),
          ("grid", "grid_s", None), ("spectral", "spectral_s", None))
runs = {}
for f in sorted(out.glob("*.jsonl")):
    problem, split, _ = re.match(r"(T\d+L\d+)-(\d+x\d+(?:@\d+x\d+)?)-L(\d+)\.jsonl", f.name).groups()
    recs = [json.loads(line) for line in f.read_text().splitlines()]
    header = recs[0]
    point = next(r for r in recs if r.get("type") == "point" and "step_s" in r)
    runs.setdefault((problem, split), []).append((point, header.get("oversubscribed")))
ms = lambda x: f"{x * 1e3:.3g}"
node = ceiling.ceilings(ceiling.load(out))
cols = ["split", "problem", "step ms", "low-high", *(s for s, _, _ in STAGES), "comm", "efficiency", "ceiling",
        "eff/ceil", "vs best [95 %]", ""]
steps = lambda key: [p["step_s"] for p, _ in runs[key]]
best = {pr: min((k for k in runs if k[0] == pr), key=lambda k: statistics.median(steps(k))) for pr, _ in runs}

def vs_best(key):
    """The row's step over the fastest row's of its problem, paired by launch."""
    if key == best[key[0]]:
        return "best"
    a, b = steps(key), steps(best[key[0]])
    n = min(len(a), len(b))
    pr = paired_ratio(a[:n], b[:n], 0.95)
    if not math.isfinite(pr.lo):
        return f"{pr.ratio:.2f} (few launches)"
    return f"{pr.ratio:.2f} [{pr.lo:.2f}, {pr.hi:.2f}]{' tie' if pr.lo <= 1 <= pr.hi else ''}"

print("  ".join(f"{c:>10}" for c in cols))
by_rank = lambda key: (key[0], -int(key[1].split("x")[0]) if key[1] != "1x1" else -10**9, key[1])
for problem, split in sorted(runs, key=by_rank):
    pts = [p for p, _ in runs[(problem, split)]]
    med = lambda field, minus=None: statistics.median(p.get(field, 0) - (p.get(minus, 0) if minus else 0) for p in pts)
    step = med("step_s")
    base = statistics.median(steps((problem, "1x1"))) if (problem, "1x1") in runs else None
    eff = base / (cores * step) if base and split != "1x1" else None
    ranks, threads = (int(x) for x in split.split("@")[0].split("x"))
    ceil = ceiling.for_split(node, ranks, threads)
    over = "oversubscribed" if any(o for _, o in runs[(problem, split)]) else ""
    row = [split, problem, ms(step), f"{ms(min(p['step_s'] for p in pts))}-{ms(max(p['step_s'] for p in pts))}",
           *(ms(med(f, m)) for _, f, m in STAGES), ms(med("comm_s")), f"{eff:.2f}" if eff else "–",
           ceiling.fmt_ratio(ceil), f"{eff / ceil.ratio:.2f}" if eff and ceil else "–", vs_best((problem, split)), over]
    print("  ".join(f"{c:>10}" for c in row))
print(f"# step: median over launches of each run's median step; stages: compute less communication; "
      f"efficiency: T(1x1) / ({cores} x T(split)); ceiling: the node's concurrent-DGEMM per-core rate over "
      f"one core's in the same launches, median [lowest, highest] (threads for 1xT, processes otherwise); "
      f"eff/ceil: efficiency over its median; records in {out}")
if node:
    print("# the node's ceiling (bench/node-ceiling.sh, one round per launch):")
    for line in ceiling.lines(node):
        print("#", line)
