"""bench/model-vs-shtns.sh's table: per truncation, grid and Legendre kernel pstswm's FFT, Legendre
and Fourier stages per level-step, their sum, SHTns's set and its FFTs alone, and the ratio over the
rounds (with 6 rounds or more its median's 95 % interval and where that lies against 1); then the
bound: the ratio pstswm would reach if its Legendre and Fourier stages took no longer than SHTns's
set less its FFTs, its own FFT stage unchanged (13 FFTs per level against SHTns's 10: the
algorithm's, docs/model.md): where the FFTs leave pstswm with Legendre work as fast as SHTns's.

    model_vs_shtns.py OUT"""

import json
import math
import re
import statistics
import sys
from pathlib import Path

from bench_io import files, points

from pstlab.stats.stats import median_ci

FIGURES = ("fft", "legendre", "fourier", "set", "shtns", "shtns_fft")


def main() -> None:
    out = Path(sys.argv[1])
    rows: dict[tuple[int, str, str], list[dict]] = {}
    for f in files(out, "T*-R*-*.jsonl"):
        m, r, kernel = re.match(r"T(\d+)-R(\d+)-(\w+)", f.name).groups()
        p = points(f)[0]
        s = json.loads((out / f"shtns-T{m}-R{r}.json").read_text(encoding="utf-8").splitlines()[-1])
        per = {k: p[k + "_s"] / p["levels"] for k in ("fft", "legendre", "fourier")}
        per["set"] = sum(per.values())
        per["shtns"] = s["median_s"]
        per["shtns_fft"] = s.get("fft_median_s", math.nan)  # records from before SHTns's FFTs were timed lack it
        rows.setdefault((int(m), f"{p['nlat']}x{p['nlon']}", kernel), []).append(per)
    print(
        f"{'trunc':>6} {'grid':>9} {'kernel':>10} {'fft':>8} {'legendre':>9} {'fourier':>8} {'pstswm':>8} "
        f"{'SHTns':>8} {'its FFTs':>8}  {'pstswm/SHTns [95 %] (lowest-highest) against 1':<46}  bound (lowest-highest)"
    )
    for (m, grid, kernel), rs in sorted(rows.items()):
        med = {k: statistics.median(r[k] for r in rs) for k in rs[0]}
        ratios = [r["set"] / r["shtns"] for r in rs]
        bounds = [(r["fft"] + r["shtns"] - r["shtns_fft"]) / r["shtns"] for r in rs if not math.isnan(r["shtns_fft"])]
        print(
            f"{f'T{m}':>6} {grid:>9} {kernel:>10} " + " ".join(cell(med[k]) for k in FIGURES)
            + f"  {against_one(ratios):<46}  {spread(bounds) if bounds else '–'}"
        )
    print(f"# ms per level-step, median over rounds; records in {out}")
    print("# bound: (pstswm's FFT stage + SHTns's set less its FFTs) / SHTns's set, per round: the ratio if pstswm's")
    print("# Legendre and Fourier stages were as fast as SHTns's Legendre work, with the 13 FFTs of its algorithm")


def cell(seconds: float) -> str:
    """A figure in ms, or a dash where the records lack it."""
    return f"{'–':>8}" if math.isnan(seconds) else f"{seconds * 1e3:>8.3f}"


def spread(values: list[float]) -> str:
    """The median with the lowest and highest."""
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def against_one(ratios: list[float]) -> str:
    """The median ratio, its distribution-free 95 % interval (6 rounds at least), the range, and where
    the interval lies against 1: below, above, or holding it (a tie)."""
    med, lo, hi = median_ci(ratios)
    if math.isnan(lo):  # too few rounds for an interval
        return f"{med:.2f} ({min(ratios):.2f}-{max(ratios):.2f}) few rounds"
    side = "below 1" if hi < 1 else "above 1" if lo > 1 else "tie with 1"
    return f"{med:.2f} [{lo:.2f}, {hi:.2f}] ({min(ratios):.2f}-{max(ratios):.2f}) {side}"


if __name__ == "__main__":
    main()
