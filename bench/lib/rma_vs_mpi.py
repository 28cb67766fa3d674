"""bench/rma-vs-mpi.sh's table (Worley 1998 Table 3 on this machine): per MPI and transport the best
protocol's SWAP bandwidth and 8-byte latency at 8 KB, 128 KB and 2 MB; also written to OUT/table.txt.

    rma_vs_mpi.py OUT MPI..."""

import sys
from pathlib import Path

from bench_io import files, points

SIZES = [(2097152, "2MB"), (131072, "128KB"), (8192, "8KB")]


def best_times(out: Path, mpis: list[str]) -> dict[tuple[str, str, str, int], float]:
    """(mpi, transport, protocol, bytes) -> min over launches of t_min."""
    best_t: dict[tuple[str, str, str, int], float] = {}
    for mpi in mpis:
        for path in files(out, f"{mpi}-*.jsonl"):
            for r in points(path):
                key = (mpi, r["transport"], r["protocol"], r["bytes"])
                best_t[key] = min(best_t.get(key, float("inf")), r["t_min"])
    return best_t


def main() -> None:
    out, mpis = Path(sys.argv[1]), sys.argv[2:]
    best_t = best_times(out, mpis)
    rows = sorted({(m, t) for m, t, _, _ in best_t}, key=lambda k: (mpis.index(k[0]), k[1] != "mpi", k[1]))
    head = "".join(f" | {label:>22}" for _, label in SIZES)
    sub = "".join(f" | {'MB/s':>6} {'lat us':>6} {'prot':>7}" for _ in SIZES)
    lines = [
        "SWAP between 2 ranks; per size the fastest protocol; min over launches of min over reps",
        f"{'MPI':8} {'transport':9}{head}",
        f"{'':8} {'':9}{sub}",
    ]
    for mpi, t in rows:
        cells = ""
        for b, _ in SIZES:
            cand = {p: v for (m, tt, p, bb), v in best_t.items() if (m, tt, bb) == (mpi, t, b)}
            p = min(cand, key=cand.get)
            lat = best_t.get((mpi, t, p, 8), float("nan"))
            cells += f" | {b / cand[p] / 1e6:6.0f} {lat * 1e6:6.2f} {'(' + p + ')':>7}"
        lines.append(f"{mpi:8} {t:9}{cells}")
    text = "\n".join(lines)
    print(text)
    (out / "table.txt").write_text(text + "\n", encoding="utf-8")
    print(f"(records and table.txt in {out})")


if __name__ == "__main__":
    main()
