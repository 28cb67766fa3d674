"""bench/fft-codelets.sh's table: per truncation the model's FFT stage and step with the
distribution's FFTW and with the site's, the site/distro ratio over pairs, and the FFTs alone.

    fft_codelets.py OUT"""

import json
import re
import statistics
import sys
from pathlib import Path

from bench_io import files, records

med = statistics.median


def ms(x: float) -> str:
    return f"{x * 1e3:.4g}"


def model_runs(out: Path) -> tuple[dict, dict]:
    """(trunc, which) -> the runs' model points; which -> its run header's math libraries."""
    runs: dict[tuple[int, str], list[dict]] = {}
    libs = {}
    for f in files(out, "*.jsonl"):
        which, m, _ = re.match(r"(distro|site)-T(\d+)-P(\d+)\.jsonl", f.name).groups()
        recs = records(f)
        libs[which] = recs[0]["math_libraries"]
        point = next(r for r in recs if r.get("type") == "point" and "step_s" in r)
        runs.setdefault((int(m), which), []).append(point)
    return runs, libs


def row(m: int, d: list[dict], s: list[dict], yd: list[float], ys: list[float]) -> str:
    fd, fs = [p["fft_s"] for p in d], [p["fft_s"] for p in s]
    ratios = [b / a for a, b in zip(fd, fs, strict=True)]
    yr = [b / a for a, b in zip(yd, ys, strict=True)]
    return (
        f"{m:>6} {ms(med(fd)):>14} {ms(med(fs)):>12} {med(ratios):>12.3f} "
        f"{min(ratios):>6.3f}-{max(ratios):<7.3f} {ms(med(p['step_s'] for p in d)):>12} "
        f"{ms(med(p['step_s'] for p in s)):>10} {med(yr):>15.3f} {min(yr):>5.3f}-{max(yr):.3f}"
    )


def main() -> None:
    out = Path(sys.argv[1])
    runs, libs = model_runs(out)
    yard: dict[tuple[int, str], list[float]] = {}
    for line in (out / "yardsticks.txt").read_text(encoding="utf-8").splitlines():
        y = json.loads(line)
        yard.setdefault((y["trunc"], y["which"]), []).append(y["t_med"])
    for which, lib in libs.items():
        print(
            f"# {which}: {lib['fftw_version']}, SIMD sets this CPU runs {'+'.join(lib['fftw_simd'] or [])} "
            f"(fftw_isa {lib.get('fftw_isa')}), CPU {lib.get('cpu_isa')}"
        )
    print(
        f"{'trunc':>6} {'FFT distro ms':>14} {'FFT site ms':>12} {'site/distro':>12} {'pair range':>14} "
        f"{'step distro':>12} {'step site':>10} {'FFTs alone s/d':>15} {'range':>12}"
    )
    for m in sorted({m for m, _ in runs}):
        print(row(m, runs[(m, "distro")], runs[(m, "site")], yard[(m, "distro")], yard[(m, "site")]))
    print(
        "# FFT: the model's FFT stage per step (fft_s, 1 rank); site/distro < 1: the distribution's codelets "
        f"hold it back; FFTs alone: pst_yardstick fft at its best batch; records in {out}"
    )


if __name__ == "__main__":
    main()
