import glob, json, os, sys

work, mpi, launches = sys.argv[1], sys.argv[2], int(sys.argv[3])
best = {}  # (method, bytes) -> min half round trip over launches, seconds

def keep(method, nbytes, t):
    best[method, nbytes] = min(t, best.get((method, nbytes), float("inf")))

for f in glob.glob(os.path.join(work, "swap.*.jsonl")):
    for r in map(json.loads, open(f)):
        if r["type"] == "point":
            keep(f"swap 1,0 cache {r['cache']}", r["bytes"], r["t_min"] / 2)
for f in glob.glob(os.path.join(work, "pingpong.*.jsonl")):
    for r in map(json.loads, open(f)):
        if r["type"] == "point" and r["bytes"] > 0:
            keep("pingpong send", r["bytes"], r["t_min"])
for f in glob.glob(os.path.join(work, "np.*.out")):
    for line in open(f):
        nbytes, mbps, _half_rtt = line.split()
        if int(nbytes) not in (8, 1048576):
            continue
        # The rate column has 6 decimals where the time column has 10 ns steps: derive t from it.
        keep("NetPIPE", int(nbytes), int(nbytes) * 8 / (float(mbps) * 1e6))

methods = ["swap 1,0 cache 1", "swap 1,0 cache 10", "pingpong send", "NetPIPE"]
print(f"half round trip, 2 ranks, {mpi}, min over {launches} launches (us); ratio = ours / NetPIPE")
short = ["swap c1", "swap c10", "pingpong"]
print(f"  {'':8}" + "".join(f"{m:>19}" for m in methods) + "".join(f"{'ratio ' + s:>16}" for s in short))
for nbytes, label in [(8, "8 B"), (1048576, "1 MiB")]:
    ref = best.get(("NetPIPE", nbytes))
    cells = "".join(f"{best.get((m, nbytes), float('nan')) * 1e6:19.3f}" for m in methods)
    ratios = "".join(f"{best.get((m, nbytes), float('nan')) / ref:16.2f}" for m in methods[:3])
    print(f"  {label:8}{cells}{ratios}")
