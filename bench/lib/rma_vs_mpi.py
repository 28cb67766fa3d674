import glob, json, os, sys
out, mpis = sys.argv[1], sys.argv[2:]
sizes = [(2097152, "2MB"), (131072, "128KB"), (8192, "8KB")]
best_t = {}  # (mpi, transport, protocol, bytes) -> min over launches of t_min
for mpi in mpis:
    for path in sorted(glob.glob(os.path.join(out, f"{mpi}-*.jsonl"))):
        for line in open(path, encoding="utf-8"):
            r = json.loads(line)
            if r.get("type") != "point":
                continue
            key = (mpi, r["transport"], r["protocol"], r["bytes"])
            best_t[key] = min(best_t.get(key, float("inf")), r["t_min"])
rows = sorted({(m, t) for m, t, _, _ in best_t}, key=lambda k: (mpis.index(k[0]), k[1] != "mpi", k[1]))
head = "".join(f" | {label:>22}" for _, label in sizes)
sub = "".join(f" | {'MB/s':>6} {'lat us':>6} {'prot':>7}" for _ in sizes)
lines = ["SWAP between 2 ranks; per size the fastest protocol; min over launches of min over reps",
         f"{'MPI':8} {'transport':9}{head}", f"{'':8} {'':9}{sub}"]
for mpi, t in rows:
    cells = ""
    for b, _ in sizes:
        cand = {p: v for (m, tt, p, bb), v in best_t.items() if (m, tt, bb) == (mpi, t, b)}
        p = min(cand, key=cand.get)
        lat = best_t.get((mpi, t, p, 8), float("nan"))
        cells += f" | {b / cand[p] / 1e6:6.0f} {lat * 1e6:6.2f} {'(' + p + ')':>7}"
    lines.append(f"{mpi:8} {t:9}{cells}")
text = "\n".join(lines)
print(text)
open(os.path.join(out, "table.txt"), "w", encoding="utf-8").write(text + "\n")
print(f"(records and table.txt in {out})")
