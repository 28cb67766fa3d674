import glob, json, os, statistics, sys
work, mpi, launches = sys.argv[1], sys.argv[2], int(sys.argv[3])
times = {}
for path in glob.glob(os.path.join(work, "*.jsonl")):
    variant = os.path.basename(path).split(".")[0]
    for rec in map(json.loads, open(path)):
        if rec.get("type") == "point":
            times.setdefault((rec["op"], rec["bytes"], variant), []).append(rec["t_med"])
print(f"{mpi}, 2 ranks, {launches} interleaved launches: median over launches of each launch's median "
      "call time [min, max], and its ratio to warm")
for op, nbytes in sorted({(o, b) for o, b, _ in times}):
    warm = statistics.median(times[(op, nbytes, "warm")])
    cells = []
    for v in ("default", "warm", "fresh", "mmap128K"):
        t = times[(op, nbytes, v)]
        cells.append(f"{v} {statistics.median(t)*1e6:8.1f} us [{min(t)*1e6:.0f}, {max(t)*1e6:.0f}] "
                     f"x{statistics.median(t)/warm:.2f}")
    print(f"  {op:<10} {nbytes:>8} B  " + "  ".join(cells))
