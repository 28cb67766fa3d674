"""bench/predict-scale.sh's helpers.

    predict_scale.py platform SRC DST RANKS PROBLEM
        a copy of the T3E platform with one node per rank on the 3-D torus closest to a cube,
        and PROBLEM's compute rate (the T85L16 one where the platform has none)
    predict_scale.py row TIME RECORDS PROBLEM GRID RANKS STATUS PEAK_PSS_KB SIMGRID FIRST
        the run's table row from /usr/bin/time -v's report and its records; FIRST keeps the
        problem's first run (ranks and step) for the efficiency column"""

import re
import sys
from pathlib import Path

import tomllib
from bench_io import records


def platform(src: str, dst: str, ranks: int, problem: str) -> None:
    text = Path(src).read_text(encoding="utf-8")
    divisors = [d for d in range(1, ranks + 1) if ranks % d == 0]
    shapes = ([a, b, ranks // (a * b)] for a in divisors for b in divisors if ranks % (a * b) == 0)
    dims = sorted(min(shapes, key=lambda t: (max(t), -min(t))), reverse=True)
    count = f"count = {ranks}  # bench/predict-scale.sh: one node per simulated rank"
    text = re.sub(r"(?m)^count = \d+.*$", count, text)
    text = re.sub(r"(?m)^torus_dims = .*$", f"torus_dims = {dims}", text)
    if problem not in tomllib.loads(text)["compute"]:
        rate = tomllib.loads(text)["compute"]["T85L16"]["mflops"]
        note = "bench/predict-scale.sh: the T85L16 rate, no published figure"
        text += f"\n[compute.{problem}]\nmflops = {rate}  # {note}\n"
    Path(dst).write_text(text, encoding="utf-8")


def time_report(path: str) -> tuple[float, float, float]:
    """Wall and CPU seconds and the maximum resident set, GB, from /usr/bin/time -v's report."""
    tv = Path(path).read_text(encoding="utf-8")

    def field(name: str) -> str:
        return re.search(rf"{re.escape(name)}: (.*)", tv).group(1).strip()

    parts = [float(x) for x in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")]
    wall = sum(p * 60**i for i, p in enumerate(reversed(parts)))
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    return wall, cpu, int(field("Maximum resident set size (kbytes)")) * 1024 / 1e9


def model_figures(path: str, ranks: int, simgrid: str, first: Path) -> tuple[str, str, str, str | None]:
    """Step, communication and efficiency as shown, and a failure when the run used another SimGrid."""
    recs = records(path)
    point = next(r for r in recs if r.get("type") == "point")
    step, comm = f"{point['step_s'] * 1e3:.2f}", f"{point['comm_s'] * 1e3:.2f}"
    # Parallel efficiency against the problem's first run: its rank-seconds over this one's.
    try:
        first_ranks, first_step_s = map(float, first.read_text(encoding="utf-8").split())
    except OSError:
        first_ranks, first_step_s = ranks, point["step_s"]
        first.write_text(f"{first_ranks} {first_step_s!r}\n", encoding="utf-8")
    efficiency = f"{first_ranks * first_step_s / (ranks * point['step_s']):.2f}"
    engine = next(r for r in recs if r.get("type") == "header")["simulation"]["engine"]
    failed = None
    if not engine.startswith((f"SimGrid {simgrid}.", f"SimGrid {simgrid} ")):
        failed = f"failed: ran {engine}, not smpirun's SimGrid {simgrid}"
    return step, comm, efficiency, failed


def row(args: list[str]) -> None:
    time_file, records_file, problem, grid, ranks, status, peak_pss_kb, simgrid, first = args
    wall, cpu, rss_gb = time_report(time_file)
    pss_gb = int(peak_pss_kb) * 1024 / 1e9
    step = comm = efficiency = "-"
    try:
        step, comm, efficiency, failed = model_figures(records_file, int(ranks), simgrid, Path(first))
        status = failed or status
    except (OSError, StopIteration):
        pass
    if status == "ok":
        missed = [t for t, bad in (("10 min", wall > 600), ("8 GB", pss_gb > 8)) if bad]
        status = "met" if not missed else "missed " + ", ".join(missed)
    print(f"| {problem} | {grid} | {ranks} | {wall:.0f} | {cpu:.0f} | {pss_gb:.2f} | {rss_gb:.2f} | {step} | {comm} "
          f"| {efficiency} | {status} |")


def main() -> None:
    if sys.argv[1] == "platform":
        platform(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    else:
        row(sys.argv[2:])


if __name__ == "__main__":
    main()
