import json, re, sys
tv = open(sys.argv[1]).read()
def field(name):
    return re.search(rf"{re.escape(name)}: (.*)", tv).group(1).strip()
parts = [float(x) for x in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")]
wall = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
rss_gb = int(field("Maximum resident set size (kbytes)")) * 1024 / 1e9
pss_gb = int(sys.argv[7]) * 1024 / 1e9
status = sys.argv[6]
step = comm = efficiency = "-"
try:
    records = [json.loads(line) for line in open(sys.argv[2])]
    point = next(r for r in records if r.get("type") == "point")
    step, comm = f"{point['step_s'] * 1e3:.2f}", f"{point['comm_s'] * 1e3:.2f}"
    # Parallel efficiency against the problem's first run: its rank-seconds over this one's.
    try:
        first_ranks, first_step_s = map(float, open(sys.argv[9]).read().split())
    except OSError:
        first_ranks, first_step_s = int(sys.argv[5]), point["step_s"]
        open(sys.argv[9], "w").write(f"{first_ranks} {first_step_s!r}\n")
    efficiency = f"{first_ranks * first_step_s / (int(sys.argv[5]) * point['step_s']):.2f}"
    engine = next(r for r in records if r.get("type") == "header")["simulation"]["engine"]
    if not engine.startswith((f"SimGrid {sys.argv[8]}.", f"SimGrid {sys.argv[8]} ")):
        status = f"failed: ran {engine}, not smpirun's SimGrid {sys.argv[8]}"
except (OSError, StopIteration):
    pass
if status == "ok":
    missed = [t for t, bad in (("10 min", wall > 600), ("8 GB", pss_gb > 8)) if bad]
    status = "met" if not missed else "missed " + ", ".join(missed)
print(f"| {sys.argv[3]} | {sys.argv[4]} | {sys.argv[5]} | {wall:.0f} | {cpu:.0f} | {pss_gb:.2f} | {rss_gb:.2f} | {step} | {comm} | {efficiency} | {status} |")
