"""`pstswm model`: the runs, their problem and algorithm set, the fastest run per processor grid and the
per-step stages as pstswm records them (Worley 1998 Tables 1 and 5)."""

from pstlab.benches.common import Metric, grid_ranks
from pstlab.core.units import fmt_ms
from pstlab.io import algorithms
from pstlab.io.records import RecordSet, number

BENCH = "model"
IN_ROUNDS = False  # no interleaved rounds of alternatives
ERRORS = ("h_l1", "h_l2", "h_linf", "v_l2", "mass_rel", "energy_rel", "enstrophy_rel")
# Fields ending in _s that are not per-stage times (t_s is the simulated time reached; setup_s
# and fft_plan_s are once per run, before the first step).
NOT_STAGES = ("dt_s", "t_s", "wall_s", "step_s", "t_min", "t_med", "t_mean", "t_max", "setup_s", "fft_plan_s")


def runs(rs: RecordSet) -> list[dict]:
    """The run records (type point); per-step diagnostics ("diag") have no step_s and are left out."""
    return [r for r in rs.points(BENCH) if number(r, "step_s") is not None]


def problem(rec: dict) -> str:
    return f"case {rec.get('case')} T{rec.get('trunc')}L{rec.get('levels')}"


def config(rec: dict) -> str:
    """The algorithm choice: the preset when recorded, else recognised from the algorithms (docs/model.md);
    a transport other than two-sided MPI is named, so rma runs never merge with mpi ones."""
    transport = rec.get("transport")
    suffix = f" [{transport}]" if transport not in (None, "mpi") else ""
    if rec.get("preset"):
        return f"{rec['preset']}{suffix}"
    if grid_ranks(rec.get("grid")) == 1:
        return "serial"
    fft, legendre = rec.get("fft"), rec.get("legendre")
    protocols = {rec.get(k) for k in ("protocol", "fft_protocol", "legendre_protocol")} - {None, "local", "coll"}
    protocol = next(iter(protocols), "coll") if len(protocols) == 1 else None
    overlap = rec.get("overlap") or rec.get("fft_overlap") or rec.get("legendre_overlap")
    # Older records name the collectives 'coll'; newer ones by their registry names.
    collective = {"coll", "serial", *(r["name"] for r in algorithms.BUILTIN.rows if r.get("collective"))}
    if fft in collective and legendre in collective:
        return "coll"
    if fft in ("srtrans", "serial") and legendre in ("halfsum", "serial", None) and protocol == "0,6" and not overlap:
        return f"gen{suffix}"
    protocol_text = protocol or "/".join(sorted(protocols))
    return f"{fft}/{legendre} {protocol_text}{' +overlap' if overlap else ''}{suffix}"


def sorted_grids(recs: list[dict]) -> list[str]:
    return sorted({str(r.get("grid")) for r in recs}, key=lambda g: (grid_ranks(g) or 0, g))


def fastest(recs: list[dict]) -> dict:
    return min(recs, key=lambda r: r["step_s"])


def by_problem_config(recs: list[dict]) -> dict[tuple, dict[str, dict]]:
    """{(problem, config): {grid: fastest run}}."""
    out: dict[tuple, dict[str, dict]] = {}
    for r in recs:
        cell = out.setdefault((problem(r), config(r)), {})
        grid = str(r.get("grid"))
        if grid not in cell or r["step_s"] < cell[grid]["step_s"]:
            cell[grid] = r
    return dict(sorted(out.items(), key=lambda kv: (kv[0][0], kv[0][1] != "opt", kv[0][1])))


def reference_run(table: dict[tuple, dict[str, dict]], prob: str, grid: str) -> dict:
    """t_opt's run: the 'opt' preset when it ran on this grid, else the fastest configuration there."""
    if opt := table.get((prob, "opt"), {}).get(grid):
        return opt
    return fastest(
        [cells[grid] for (p, cfg), cells in table.items() if p == prob and grid in cells and cfg != "serial"]
    )


# The per-step stages as pstswm records them, named, without overlap: fft_s and legendre_s include
# their communication, which gets its own column; blas_*_s are set-up probes of the BLAS choice.
STAGE_COLUMNS = (
    ("FFT compute", "fft_s", "fft_comm_s"),
    ("FFT comm", "fft_comm_s", None),
    ("Legendre compute", "legendre_s", "legendre_comm_s"),
    ("Legendre comm", "legendre_comm_s", None),
    ("Fourier space", "fourier_s", None),
    ("grid point", "grid_s", None),
    ("spectral", "spectral_s", None),
    ("diagnostics", "diag_s", None),
)
SETUP_PREFIXES = ("blas_",)


def _steps(rs: RecordSet) -> dict:
    return {
        (p, g, c): (r["step_s"], "") for (p, c), cells in by_problem_config(runs(rs)).items() for g, r in cells.items()
    }


METRICS = [
    Metric(
        "Model time per step",
        ("problem", "grid", "algorithms"),
        "ms/step",
        fmt_ms,
        False,
        lambda rs: dict(sorted(_steps(rs).items(), key=lambda kv: (kv[0][0], grid_ranks(kv[0][1]) or 0, kv[0]))),
    )
]
