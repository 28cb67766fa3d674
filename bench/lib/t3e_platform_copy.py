import math, re, sys, tomllib
src, dst, ranks, problem = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
text = open(src).read()
# The torus closest to a cube that holds exactly one node per rank.
divisors = [d for d in range(1, ranks + 1) if ranks % d == 0]
dims = min(([a, b, ranks // (a * b)] for a in divisors for b in divisors if ranks % (a * b) == 0), key=lambda t: (max(t), -min(t)))
dims = sorted(dims, reverse=True)
text = re.sub(r"(?m)^count = \d+.*$", f"count = {ranks}  # bench/predict-scale.sh: one node per simulated rank", text)
text = re.sub(r"(?m)^torus_dims = .*$", f"torus_dims = {dims}", text)
if problem not in tomllib.loads(text)["compute"]:
    rate = tomllib.loads(text)["compute"]["T85L16"]["mflops"]
    text += f"\n[compute.{problem}]\nmflops = {rate}  # bench/predict-scale.sh: the T85L16 rate, no published figure\n"
open(dst, "w").write(text)
