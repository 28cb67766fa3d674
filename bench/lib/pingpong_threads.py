import json, math, statistics, sys
from pstlab.stats.stats import paired_ratio
work, launches, threads, mpi, cores = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
def t_med(mode, i):
    recs = [json.loads(l) for l in open(f"{work}/{mode}.{i}.jsonl")]
    return {r["bytes"]: r["t_med"] for r in recs if r.get("type") == "point" and r["bytes"] > 0}
runs = {m: [t_med(m, i) for i in range(1, launches + 1)] for m in ("single", "funneled", "multiple", "level")}
def ratio(nbytes, a, b, slower):
    pr = paired_ratio([r[nbytes] for r in runs[a]], [r[nbytes] for r in runs[b]], 0.95)
    if not math.isfinite(pr.lo):
        return f"{pr.ratio:.3f} undetermined (too few launches)"
    verdict = "tie" if pr.lo <= 1 <= pr.hi else (slower if pr.lo > 1 else "faster")
    return f"{pr.ratio:.3f} [{pr.lo:.3f}, {pr.hi:.3f}] {verdict}"
print(f"pingpong --threads {threads}, {mpi}, {launches} launches: time per message (us), median over launches")
if 2 * threads > cores:
    print(f"(2 ranks x {threads} threads > {cores} cores: the streams take turns on the cores; multiple/funneled is the scheduler's, not a verdict)")
print(f"{'bytes':>8} {'single':>10} {'level MT':>10} {'funneled':>10} {'multiple':>10}  level MT/single [95 %]  multiple/funneled [95 %]")
for nbytes in sorted(runs["single"][0]):
    med = {m: statistics.median(r[nbytes] for r in runs[m]) for m in runs}
    print(f"{nbytes:>8} {med['single']*1e6:>10.3f} {med['level']*1e6:>10.3f} {med['funneled']*1e6:>10.3f} {med['multiple']*1e6:>10.3f}"
          f"  {ratio(nbytes, 'level', 'single', 'MULTIPLE costs')}  {ratio(nbytes, 'multiple', 'funneled', 'slower')}")
