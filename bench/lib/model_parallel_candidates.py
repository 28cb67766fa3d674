import json, statistics, sys
from collections import defaultdict
t = defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["bench_config"] != "1x1":
        t[r["bench_config"]].append(r["t_med"])
print("\n".join(sorted(t, key=lambda k: statistics.median(t[k]))[: int(sys.argv[2])]))
