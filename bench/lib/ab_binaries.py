import glob, json, os, random, statistics, sys
work, mpi, launches = sys.argv[1], sys.argv[2], int(sys.argv[3])

def launch_time(path):
    for rec in map(json.loads, open(path)):
        if rec.get("type") != "point":
            continue
        if rec.get("bench") == "model":
            return rec["step_s"]
        if rec.get("bench") == "pingpong" and rec["bytes"] == 8:
            return rec["t_med"]
        if rec.get("bench") == "swap":
            return rec["t_med"]
    raise SystemExit(f"ab-binaries: no timed point in {path}")

names = sorted({os.path.basename(p).split(".")[0] for p in glob.glob(os.path.join(work, "*.jsonl"))})
rng = random.Random(1)
print(f"{mpi}, {launches} interleaved launch pairs; per launch its own median; ratio = after/before")
print(f"{'workload':18} {'before':>11} {'after':>11} {'ratio':>7} {'95% interval':>17} {'pair ratios':>15}  verdict")
for name in names:
    b = [launch_time(os.path.join(work, f"{name}.before.{i}.jsonl")) for i in range(1, launches + 1)]
    a = [launch_time(os.path.join(work, f"{name}.after.{i}.jsonl")) for i in range(1, launches + 1)]
    ratio = statistics.median(a) / statistics.median(b)
    boot = []
    for _ in range(2000):
        idx = [rng.randrange(launches) for _ in range(launches)]
        boot.append(statistics.median(a[i] for i in idx) / statistics.median(b[i] for i in idx))
    boot.sort()
    lo, hi = boot[int(0.025 * len(boot))], boot[int(0.975 * len(boot)) - 1]
    pairs = [x / y for x, y in zip(a, b)]
    verdict = "no measurable change" if lo <= 1 <= hi else ("faster" if hi < 1 else "slower")
    print(f"{name:18} {statistics.median(b) * 1e6:9.2f}us {statistics.median(a) * 1e6:9.2f}us {ratio:7.3f} "
          f"[{lo:6.3f}, {hi:6.3f}] {min(pairs):6.2f}-{max(pairs):<6.2f}  {verdict}")
