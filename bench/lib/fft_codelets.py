import json, pathlib, re, statistics, sys

out = pathlib.Path(sys.argv[1])
runs, libs = {}, {}
for f in sorted(out.glob("*.jsonl")):
    which, m, _ = re.match(r"(distro|site)-T(\d+)-P(\d+)\.jsonl", f.name).groups()
    recs = [json.loads(line) for line in f.read_text().splitlines()]
    libs[which] = recs[0]["math_libraries"]
    point = next(r for r in recs if r.get("type") == "point" and "step_s" in r)
    runs.setdefault((int(m), which), []).append(point)
yard = {}
for line in (out / "yardsticks.txt").read_text().splitlines():
    y = json.loads(line)
    yard.setdefault((y["trunc"], y["which"]), []).append(y["t_med"])
for which, l in libs.items():
    print(f"# {which}: {l['fftw_version']}, SIMD sets this CPU runs {'+'.join(l['fftw_simd'] or [])} "
          f"(fftw_isa {l.get('fftw_isa')}), CPU {l.get('cpu_isa')}")
ms = lambda x: f"{x * 1e3:.4g}"
print(f"{'trunc':>6} {'FFT distro ms':>14} {'FFT site ms':>12} {'site/distro':>12} {'pair range':>14} "
      f"{'step distro':>12} {'step site':>10} {'FFTs alone s/d':>15} {'range':>12}")
for m in sorted({m for m, _ in runs}):
    d, s = runs[(m, "distro")], runs[(m, "site")]
    fd, fs = [p["fft_s"] for p in d], [p["fft_s"] for p in s]
    ratios = [b / a for a, b in zip(fd, fs)]
    yd, ys = yard[(m, "distro")], yard[(m, "site")]
    yr = [b / a for a, b in zip(yd, ys)]
    print(f"{m:>6} {ms(statistics.median(fd)):>14} {ms(statistics.median(fs)):>12} {statistics.median(ratios):>12.3f} "
          f"{min(ratios):>6.3f}-{max(ratios):<7.3f} {ms(statistics.median(p['step_s'] for p in d)):>12} "
          f"{ms(statistics.median(p['step_s'] for p in s)):>10} {statistics.median(yr):>15.3f} {min(yr):>5.3f}-{max(yr):.3f}")
print(f"# FFT: the model's FFT stage per step (fft_s, 1 rank); site/distro < 1: the distribution's codelets hold it back; "
      f"FFTs alone: pst_yardstick fft at its best batch; records in {out}")
