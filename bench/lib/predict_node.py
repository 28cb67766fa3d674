"""Predict a node's model runs from its calibration records, and compare (bench/predict-node.sh).

  predict_node.py RECORDS OUT

RECORDS holds pstswm records of one node: the calibration experiments (ping-pong, swap, kernel,
serial model runs) and model runs on more ranks, the held-out truth.  The calibration sees only
files without a multi-rank model run; every multi-rank model run is then predicted in skeleton
mode on the calibrated platform, with the run's own command line, and compared: the step time
(median over the launches of each grid) and each stage's communication time.  Prints the table,
the median absolute step error (target 15 %), and draws measured against predicted speed-up
(OUT/speedup.png)."""

from __future__ import annotations

import json
import shlex
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from pstlab.io import records

ROOT = Path(__file__).resolve().parents[2]  # bench/lib/ -> the checkout
TARGET = 0.15
# Settings of every prediction: no probe of this host's noise, FFTW plans by estimate and one
# dgemm library (in skeleton mode they change no simulated time, only the simulation's cost).
FIXED = ["--compute", "skeleton", "--noise-probe", "0", "--fftw-plan", "estimate", "--blas", "openblas"]


def model_points(path: Path) -> list[dict]:
    return [r for r in map(json.loads, path.read_text().splitlines()) if r.get("bench") == "model" and r.get("step_s")]


def split(records_dir: Path, calibration: Path) -> list[Path]:
    """Copy the calibration files to `calibration`; return the files of multi-rank model runs."""
    held_out = []
    calibration.mkdir(parents=True)
    for path in sorted(records_dir.glob("*.jsonl")):
        if any(p["ranks"] > 1 for p in model_points(path)):
            held_out.append(path)
        else:
            shutil.copy(path, calibration / path.name)
    return held_out


def replay(header: dict, point: dict, platform_file: Path, out: Path, host_mflops: float) -> dict:
    """The run's own command on the simulated node, in skeleton mode; its model point."""
    args = shlex.split(header["command"])[2:]  # after "pstswm model"
    if "--out" in args:
        del args[args.index("--out") : args.index("--out") + 2]
    # Records written before the Legendre kernel choice ran the tables (dgemm).
    kernel = point.get("legendre_kernel") or "dgemm"
    problem = f"T{point['trunc']}L{point['levels']}"
    cmd = [str(ROOT / "scripts/pstrun"), "--mpi", "smpi", "--platform", str(platform_file)]
    cmd += ["--problem", problem, "--host-mflops", f"{host_mflops:.9g}", "-n", str(point["ranks"])]
    cmd += [str(ROOT / "build/smpi/pstswm"), "model", *args, *FIXED, "--legendre-kernel", kernel, "--out", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=900, check=False)
    if done.returncode != 0:
        why = done.stderr[-2000:]
        sys.exit(f"predict-node: the prediction failed (exit {done.returncode}): {shlex.join(cmd)}\n{why}")
    return model_points(out)[-1]


def main() -> int:
    records_dir, out = Path(sys.argv[1]), Path(sys.argv[2])
    calibration = out / "calibration"
    held_out = split(records_dir, calibration)
    if not held_out:
        sys.exit(f"predict-node: {records_dir} has no model run on more than one rank to predict")
    platform_file = out / "node.toml"
    cal = subprocess.run(
        [sys.executable, "-m", "pstlab", "calibrate", str(calibration), "--out", str(platform_file)],
        capture_output=True,
        text=True,
        check=False,
    )
    print(cal.stdout, end="")
    if cal.returncode not in (0, 3):  # 3: a calibration target missed, the platform still written
        sys.exit(f"predict-node: calibrate failed (exit {cal.returncode}):\n{cal.stderr}")
    serial = [p for f in calibration.glob("*.jsonl") for p in model_points(f) if p["ranks"] == 1]
    measured: dict[str, list[dict]] = {}
    headers = {}
    for path in held_out:
        rs = records.load(path)
        for p in model_points(path):
            measured.setdefault(p["grid"], []).append(p)
            headers[p["grid"]] = rs.headers()[0]
    predicted = {}
    (out / "predicted").mkdir()
    for grid in sorted(measured, key=lambda g: measured[g][0]["ranks"]):
        p = measured[grid][0]
        same = [s["mflops"] for s in serial if (s["trunc"], s["levels"]) == (p["trunc"], p["levels"])]
        rate = statistics.median(same)
        predicted[grid] = replay(headers[grid], p, platform_file, out / "predicted" / f"{grid}.jsonl", rate)
    serial_s = statistics.median(s["step_s"] for s in serial)
    table(measured, predicted, serial_s)
    plot(measured, predicted, serial_s, out / "speedup.png")
    return 0


def table(measured: dict[str, list[dict]], predicted: dict[str, dict], serial_s: float) -> None:
    print(f"\nserial step (calibration runs, median): {serial_s * 1e3:.3f} ms")
    print(
        f"{'grid':>5} {'ranks':>5} {'step ms':>9} {'spread':>7} {'predicted':>10} {'error':>7}"
        f" {'fft comm ms':>12} {'predicted':>10} {'leg comm ms':>12} {'predicted':>10}"
        f" {'speed-up':>9} {'predicted':>10}"
    )
    errors = []
    for grid, guess in predicted.items():
        runs = measured[grid]
        step = statistics.median(p["step_s"] for p in runs)
        spread = (max(p["step_s"] for p in runs) - min(p["step_s"] for p in runs)) / step
        error = (guess["step_s"] - step) / step
        errors.append(abs(error))
        comm = {q: statistics.median(p[q] for p in runs) for q in ("fft_comm_s", "legendre_comm_s")}
        print(
            f"{grid:>5} {runs[0]['ranks']:>5} {step * 1e3:9.3f} {spread:7.0%}"
            f" {guess['step_s'] * 1e3:10.3f} {error:+7.1%}"
            f" {comm['fft_comm_s'] * 1e3:12.3f} {guess['fft_comm_s'] * 1e3:10.3f}"
            f" {comm['legendre_comm_s'] * 1e3:12.3f} {guess['legendre_comm_s'] * 1e3:10.3f}"
            f" {serial_s / step:9.2f} {serial_s / guess['step_s']:10.2f}"
        )
    median = statistics.median(errors)
    verdict = "met" if median <= TARGET else "missed"
    print(f"median absolute step error {median:.1%} over {len(errors)} grids (target <= {TARGET:.0%}: {verdict})")
    print("spread: (max - min) / median of the grid's measured launches; speed-up: serial step / step")


def plot(measured: dict[str, list[dict]], predicted: dict[str, dict], serial_s: float, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grids = list(predicted)
    ranks = [1] + [measured[g][0]["ranks"] for g in grids]  # the serial step is 1 on both curves
    measured_up = [1.0] + [serial_s / statistics.median(p["step_s"] for p in measured[g]) for g in grids]
    predicted_up = [1.0] + [serial_s / predicted[g]["step_s"] for g in grids]
    fig, ax = plt.subplots(figsize=(5, 4))
    ax.plot(ranks, measured_up, "o-", label="measured")
    ax.plot(ranks, predicted_up, "s--", label="predicted (skeleton)")
    ax.plot(ranks, ranks, ":", color="grey", label="ideal")
    for r, g, up in zip(ranks[1:], grids, predicted_up[1:], strict=True):
        ax.annotate(g, (r, up), textcoords="offset points", xytext=(4, -10), fontsize=8)
    ax.set(xlabel="ranks", ylabel="speed-up over the serial step", xscale="log", yscale="log")
    ax.set_xticks(ranks, [str(r) for r in ranks])
    ax.minorticks_off()
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"speed-up plot: {path}")


if __name__ == "__main__":
    sys.exit(main())
