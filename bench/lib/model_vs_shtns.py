import json, pathlib, re, statistics, sys
out = pathlib.Path(sys.argv[1])
rows = {}
for f in sorted(out.glob("T*-R*-*.jsonl")):
    m, r, kernel = re.match(r"T(\d+)-R(\d+)-(\w+)", f.name).groups()
    m, r = int(m), int(r)
    p = next(json.loads(l) for l in f.read_text().splitlines() if '"point"' in l)
    s = json.loads((out / f"shtns-T{m}-R{r}.json").read_text().splitlines()[-1])
    per = {k: p[k + "_s"] / p["levels"] for k in ("fft", "legendre", "fourier")}
    per["set"] = sum(per.values())
    per["shtns"] = s["median_s"]
    rows.setdefault((m, f"{p['nlat']}x{p['nlon']}", kernel), []).append(per)
print(f"{'trunc':>6} {'grid':>9} {'kernel':>10} {'fft':>8} {'legendre':>9} {'fourier':>8} {'pstswm':>8} {'SHTns':>8}  pstswm/SHTns (lowest-highest)")
for (m, grid, kernel), rs in sorted(rows.items()):
    med = {k: statistics.median(r[k] for r in rs) for k in rs[0]}
    ratios = [r["set"] / r["shtns"] for r in rs]
    print(f"{'T%d' % m:>6} {grid:>9} {kernel:>10} " + " ".join(f"{med[k] * 1e3:>8.3f}" for k in ("fft", "legendre", "fourier", "set", "shtns"))
          + f"  {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})")
print(f"# ms per level-step, median over rounds; records in {out}")
