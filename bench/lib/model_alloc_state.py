import glob, json, os, statistics, sys
work, mpi, launches = sys.argv[1], sys.argv[2], int(sys.argv[3])
cells = {}
for path in glob.glob(os.path.join(work, "*.jsonl")):
    kind, variant = os.path.basename(path).split(".")[:2]
    for rec in map(json.loads, open(path)):
        if rec.get("type") != "point":
            continue
        if kind == "model" and "step_s" in rec:
            cells.setdefault(("model coll preset T85L8 1x2 step", variant), []).append(rec["step_s"])
        elif kind == "kernel":
            cells.setdefault((f"kernel {rec['algorithm']} ({rec['stage']}, {rec['grid']})", variant), []).append(rec["t_med"])
print(f"{mpi}, 2 ranks, {launches} interleaved launches: median over launches [min, max] in ms; "
      "MALLOC_MMAP_THRESHOLD_ default / 131072 (fresh-like) / 33554432 (warm-like)")
for what in sorted({w for w, _ in cells}):
    row = []
    base = statistics.median(cells[(what, "default")])
    for v in ("default", "131072", "33554432"):
        t = cells[(what, v)]
        row.append(f"{v:>8} {statistics.median(t)*1e3:8.3f} [{min(t)*1e3:.3f}, {max(t)*1e3:.3f}] x{statistics.median(t)/base:.2f}")
    print(f"  {what:<40} " + "  ".join(row))
