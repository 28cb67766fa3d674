"""bench/predict-this-machine.sh's comparison: every measured row (median over launches, its spread
and fastest launch) beside the real and skeleton predictions and their errors, and each mode's
median absolute error against the target.

    predict_this_machine.py MEASURED PREDICTED PREDICTED_SKELETON"""

import statistics
import sys

from pstlab.io import records

TARGET = 0.15


def figures(directory: str) -> dict[tuple[str, str], list[float]]:
    """{(what, quantity): [seconds per launch]} of a results directory."""
    out: dict[tuple[str, str], list[float]] = {}
    for p in records.load(directory).points("model"):
        if p.get("step_s") is None:
            continue  # per-step diagnostics
        what = f"T{p['trunc']}L{p['levels']} {p['grid']}"
        for quantity in ("step_s", "fft_comm_s", "legendre_comm_s"):
            out.setdefault((what, quantity), []).append(p[quantity])
    for p in records.load(directory).points("kernel"):
        schedule = " +ov" if p.get("overlap") else ""
        out.setdefault((f"kernel {p['algorithm']} 2 ranks", f"{p['stage']} stage{schedule}"), []).append(p["t_med"])
    return out


def cells(guess: float | None, median: float, fastest: float, errors: tuple[list, list]) -> str:
    """One mode's prediction and its errors against the median and the fastest launch."""
    error = error_fastest = ""
    if guess is None:
        error = "none"
    elif median == 0:
        error = "no comm" if guess == 0 else "comm?"
    else:
        errors[0].append(abs(guess - median) / median)
        error = f"{(guess - median) / median:+.0%}"
        if fastest > 0:
            errors[1].append(abs(guess - fastest) / fastest)
            error_fastest = f"{(guess - fastest) / fastest:+.0%}"
    shown = f"{guess * 1e3:12.4f}" if guess is not None else f"{'–':>12}"
    return f" {shown} {error:>7} {error_fastest:>7}"


def main() -> None:
    measured = figures(sys.argv[1])
    modes = {"real": figures(sys.argv[2]), "skeleton": figures(sys.argv[3])}
    print(f"{'experiment':<26} {'quantity':<16} {'measured ms':>12} {'spread':>7} {'fastest ms':>11}"
          + "".join(f" {mode + ' ms':>12} {'error':>7} {'vs fast':>7}" for mode in modes))
    errors: dict[str, tuple[list, list]] = {mode: ([], []) for mode in modes}  # against the median, the fastest
    for key in sorted(measured):
        runs = measured[key]
        median, fastest = statistics.median(runs), min(runs)
        spread = (max(runs) - min(runs)) / median if median else 0.0
        line = f"{key[0]:<26} {key[1]:<16} {median * 1e3:12.4f} {spread:7.0%} {fastest * 1e3:11.4f}"
        for mode, predicted in modes.items():
            guess = statistics.median(predicted[key]) if key in predicted else None
            line += cells(guess, median, fastest, errors[mode])
        print(line)
    print("\nspread: (max - min) / median of the measured launches; vs fast: against the fastest launch (a host")
    print("without interference, which is what SMPI simulates)")
    for mode, (against_median, against_fastest) in errors.items():
        if against_median:
            med = statistics.median(against_median)
            verdict = "met" if med <= TARGET else "missed"
            fastest = statistics.median(against_fastest)
            print(f"{mode:>8}: median absolute error {med:.1%} over {len(against_median)} rows "
                  f"(target <= {TARGET:.0%}: {verdict}); against the fastest launch {fastest:.1%}")


if __name__ == "__main__":
    main()
