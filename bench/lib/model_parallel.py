"""bench/model-parallel.sh's analysis of its records (RECORDS, one JSON line per launch or yardstick).

    model_parallel.py candidates RECORDS K   the K parallel configurations with the lowest medians
                                             over the search rounds, one a line
    model_parallel.py report RECORDS         the search table, the confirmed candidates' efficiency
                                             with its 95 % interval and verdict, and the yardsticks"""

import math
import statistics
import sys
from collections import defaultdict

from bench_io import records

from pstlab.stats.stats import median_ci, verdict

med = statistics.median
TARGET = 0.90


def phases(recs: list[dict]) -> tuple[dict, dict]:
    """config -> its launches' points, for the search and for the confirming rounds."""
    search, confirm = defaultdict(list), defaultdict(list)
    for r in recs:
        if "bench_phase" in r:
            (search if r["bench_phase"] == "search" else confirm)[r["bench_config"]].append(r)
    return search, confirm


def candidates(recs: list[dict], k: int) -> None:
    search, _ = phases(recs)
    t = {cfg: [r["t_med"] for r in rs] for cfg, rs in search.items() if cfg != "1x1"}
    print("\n".join(sorted(t, key=lambda c: med(t[c]))[:k]))


def interval(lo: float, hi: float) -> str:
    return f"[{lo:.1%}, {hi:.1%}]" if math.isfinite(lo) else "(too few rounds for an interval)"


def search_table(search: dict) -> None:
    serial_search = med(r["t_med"] for r in search["1x1"])
    print(f"search ({len(search['1x1'])} rounds; efficiency against the 1x1 median of the same rounds):")
    print(f"  {'configuration':36} {'median ms':>9} {'comm ms':>8} {'efficiency':>10}")
    for cfg, rs in sorted(search.items(), key=lambda kv: med(r["t_med"] for r in kv[1])):
        t = med(r["t_med"] for r in rs)
        p = rs[0]["px"] * rs[0]["py"]
        print(f"  {cfg:36} {t * 1e3:9.2f} {med(r['comm_s'] for r in rs) * 1e3:8.2f} {serial_search / (p * t):10.1%}")


def confirm_table(confirm: dict) -> None:
    serial = [r["t_med"] for r in confirm["1x1"]]
    cands = {c: [r["t_med"] for r in rs] for c, rs in confirm.items() if c != "1x1"}
    v = verdict(cands)
    print(f"confirmed ({len(serial)} fresh rounds, each 1x1 and every candidate once; "
          f"1x1 median {med(serial) * 1e3:.2f} ms):")
    print(f"  {'configuration':36} {'median ms':>9} {'efficiency, 95 % interval':>30}")
    eff = {}
    for c in sorted(cands, key=lambda c: v.medians[c]):
        p = confirm[c][0]["px"] * confirm[c][0]["py"]
        eff[c] = median_ci([a / (p * b) for a, b in zip(serial, cands[c], strict=False)])
        e, lo, hi = eff[c]
        print(f"  {c:36} {v.medians[c] * 1e3:9.2f} {e:12.1%} {interval(lo, hi):>17}")
    fastest = "fastest: " + (v.best if v.decided else "a tie, " + " ≈ ".join(v.best_set))
    e, lo, hi = eff[v.best]
    target = "met" if lo >= TARGET else "MISSED" if hi < TARGET else "undecided"
    print(f"{fastest}; efficiency >= {TARGET:.2f}: {target} ({v.best}: {e:.1%} {interval(lo, hi)})")
    spread = max(serial) / min(serial) - 1
    if spread > 0.25:
        print(f"warning: 1x1 ranged {min(serial) * 1e3:.1f}..{max(serial) * 1e3:.1f} ms over the confirming rounds "
              f"(+{spread:.0%}): the host's speed moved, read the intervals, not the medians")


def yardsticks(recs: list[dict]) -> None:
    dgemm = [r["gflops_med"] for r in recs if r.get("what") == "dgemm"]
    d1 = med(dgemm)
    d2 = med(r["gflops_med"] for r in recs if r.get("what") == "dgemm_concurrent")
    s1 = med(r["gbs_med"] for r in recs if r.get("what") == "stream_triad")
    s2 = med(r["gbs_med"] for r in recs if r.get("what") == "stream_triad_concurrent")
    print(f"concurrent-DGEMM yardstick: one copy {d1:.1f} GFlop/s ({min(dgemm):.1f}..{max(dgemm):.1f} over the "
          f"rounds), each of two at once {d2:.1f} ({d2 / d1:.1%}): "
          f"the efficiency a perfectly parallel compute-bound code could reach here")
    print(f"concurrent-STREAM yardstick: one copy {s1:.1f} GB/s, each of two at once {s2:.1f} ({s2 / s1:.1%}): "
          f"the same for a memory-bound one (the model's Legendre buffer and previous level stream from memory)")


def main() -> None:
    recs = records(sys.argv[2])
    if sys.argv[1] == "candidates":
        candidates(recs, int(sys.argv[3]))
        return
    search, confirm = phases(recs)
    search_table(search)
    confirm_table(confirm)
    yardsticks(recs)


if __name__ == "__main__":
    main()
