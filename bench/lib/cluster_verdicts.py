import glob, json, os, sys

work, mpi = sys.argv[1], sys.argv[2]

def verdicts(path):
    """(what, where) -> 'best (level)' for every summary that names a best."""
    out = {}
    for r in map(json.loads, open(path)):
        if r["type"] != "summary" or not r.get("best"):
            continue
        what = r["bench"] + " " + " ".join(
            f"{k}={r[k]}" for k in ("summary", "stage", "algorithm", "family", "cache", "bytes", "nmsg") if r.get(k) is not None)
        out[what] = f"{r['best']} ({r.get('level', '?')}{'' if r.get('decided', True) else ', undecided'})"
    return out

differ = 0
for name in sorted({os.path.basename(f).split(".")[0] for f in glob.glob(os.path.join(work, "*.jsonl"))}):
    across, inside = (verdicts(os.path.join(work, f"{name}.{p}.jsonl")) for p in ("across", "inside"))
    print(f"== {mpi} {name}: {len(across)} verdicts across nodes, {len(inside)} inside a node")
    for what in sorted(set(across) | set(inside)):
        a, i = across.get(what, "-"), inside.get(what, "-")
        same = a.split()[0] == i.split()[0]
        differ += not same
        print(f"  {'   ' if same else 'DIF'} {what}: across {a} | inside {i}")
print(f"{differ} verdicts name a different best across nodes than inside a node")
