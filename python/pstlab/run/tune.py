"""`pstlab tune`: run the kernel benchmark for a model configuration and write the `opt` preset.

The preset is a small TOML file that `pstswm model --preset opt --tuned FILE` reads: per
transform stage (fft, legendre) the fastest algorithm, and for every algorithm measured the
fastest protocol and overlap setting.  Where the records carry rounds, "fastest" is a tie set
(pstlab.verdicts), and the choice inside it follows TIE_RULE, which the file states:

    [fft]
    algorithm = "dfft"
    dfft = { protocol = "3,1", overlap = true, t_s = 1.2e-04 }
    srtrans = { protocol = "0,1", overlap = false, t_s = 2.3e-04 }
    [legendre]
    algorithm = "halfsum"
    halfsum = { protocol = "1,3", overlap = false, t_s = 8.1e-05 }
"""

import argparse
import datetime
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from pstlab import __version__
from pstlab.benches import kernel
from pstlab.benches.common import best
from pstlab.core import paths
from pstlab.core.errors import PstlabError, RunFailed
from pstlab.core.grouping import group_by
from pstlab.io import algorithms
from pstlab.io.records import RecordSet, load, number
from pstlab.run import launch
from pstlab.stats import verdicts

STAGES = kernel.STAGES
TIE_RULE = (
    "inside a tie set (alternatives not significantly slower than the best), prefer the generic 0,6 "
    "without overlap, then the fastest member without overlap, then the fastest member"
)
# What must be the same for all of a stage's records to tune from them (one model configuration).
CONFIG_KEYS = ("size", "grid", "result", "granularity", "fields")


@dataclass
class Options:
    trunc: int | None = None
    levels: int | None = None
    grid: str | None = None
    protocols: str = "all"
    mpi: str | None = None  # None: as launch.Launch.create
    launcher: str = "mpiexec"
    build: str | None = None
    pstswm: str | None = None
    out: str | None = None
    records: str | None = None  # tune from existing kernel records instead of running
    extra: list[str] = field(default_factory=list)
    timeout_s: float = 3600.0


@dataclass(frozen=True)
class Pick:
    algorithm: str
    protocol: str
    overlap: bool
    t_s: float
    tie_set: str = ""  # 'a ≈ b' when the records carry rounds, else empty
    stat: str = "t_min"


def _in_tie_set(case: verdicts.Case) -> str:
    """The member TIE_RULE picks."""
    v = case.verdict
    if kernel.GENERIC_PROTOCOL in v.best_set:
        return kernel.GENERIC_PROTOCOL
    plain = [a for a in v.best_set if not a.endswith("+ov") and a[:1] in ("0", "1")]
    return min(plain, key=lambda a: v.medians[a]) if plain else v.best


def _pick(algorithm: str, variants: list[dict]) -> Pick:
    """The algorithm's protocol and overlap: by TIE_RULE from rounds, else the t_min of older records."""
    cases = verdicts.build(variants, [], kernel.VERDICT_KEY, kernel.label)
    if len(cases) == 1:
        case = cases[0]
        chosen = _in_tie_set(case)
        top = next(p for p in variants if kernel.label(p) == chosen)
        return Pick(
            algorithm,
            str(top.get("protocol")),
            bool(top.get("overlap")),
            case.verdict.medians[chosen],
            case.verdict.tie_set(),
            "t_med",
        )
    top = best(variants)
    return Pick(algorithm, str(top.get("protocol")), bool(top.get("overlap")), top["t_min"])


def ranks_of_grid(grid: str) -> int:
    m = re.fullmatch(r"([1-9][0-9]*)x([1-9][0-9]*)", grid)
    if not m:
        raise PstlabError(f"--grid: '{grid}' is not PXxPY with positive integers (e.g. 4x2)")
    return int(m[1]) * int(m[2])


@dataclass(frozen=True)
class StageChoice:
    """One transform stage: its fastest algorithm, every algorithm's best alternative, the collectives."""

    fastest: Pick
    picks: list[Pick]
    collectives: list[Pick] = field(default_factory=list)  # MPI collectives measured alongside: not candidates
    config: str = ""  # what the stage ran on besides the size, e.g. "grid 2x2, fields 3"


def _configuration(points: list[dict]) -> str:
    """What a stage ran on besides the problem size: 'grid 1x2, result replicated, fields 3'."""
    values = {k: sorted({str(p[k]) for p in points if p.get(k) is not None}) for k in CONFIG_KEYS if k != "size"}
    return ", ".join(f"{k} {'/'.join(v)}" for k, v in values.items() if v)


def choose(points: list[dict], reg: algorithms.Registry = algorithms.BUILTIN) -> dict[str, StageChoice]:
    """Per stage: the fastest algorithm and every algorithm's fastest protocol/overlap (t_min).

    The stage's MPI collective (alltoallv, allreduce) is no candidate: 'opt' is Worley 1998's tuned
    configuration, which Table 5 compares with the 'coll' preset; its time is kept for the record.  The
    library alternatives (ialltoallv, neighbor, allreduce_init, ...) are candidates, without a protocol.
    """
    timed = [dict(p, stage=kernel.stage(p, reg)) for p in points if number(p, "t_min") is not None]
    out = {}
    for (stage,), pts in group_by(timed, "stage").items():
        picks, collectives = [], []
        for (algorithm,), variants in sorted(
            group_by(pts, "algorithm").items(), key=lambda kv: (reg.order(str(kv[0][0])), str(kv[0][0]))
        ):
            pick = _pick(str(algorithm), variants)
            comparator = str(algorithm) == "coll" or reg.is_comparator(str(algorithm))
            (collectives if comparator else picks).append(pick)
        if not picks:
            continue
        out[stage] = StageChoice(min(picks, key=lambda p: p.t_s), picks, collectives, _configuration(pts))
    return dict(sorted(out.items(), key=lambda kv: STAGES.index(kv[0]) if kv[0] in STAGES else len(STAGES)))


def _toml_key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name)


def preset_text(choice: dict[str, StageChoice], about: list[str]) -> str:
    lines = [
        "# pstswm 'opt' preset: the fastest protocol for each parallel algorithm, and the fastest algorithm",
        "# per transform stage, measured by `pstswm kernel`.  Written by pstlab tune; read by",
        "#   pstswm model --preset opt --tuned THIS_FILE ...",
        *(f"# {line}" for line in about),
        "# t_s: the kernel's time with that choice (seconds; the median over rounds where the records have",
        "# rounds, else the minimum over repetitions); the fastest algorithm is the one with the least t_s.",
        f"# Protocol choice: {TIE_RULE}.",
    ]
    for stage, c in choice.items():
        lines += ["", f"[{_toml_key(stage)}]"]
        if c.config:
            lines.append(f"# {c.config}")
        lines.append(f"algorithm = {json.dumps(c.fastest.algorithm)}")
        for p in c.picks:
            if p.protocol == kernel.COLL_PROTOCOL:
                lines.append(f"# {p.algorithm}: MPI library collective (no protocol): t_s = {p.t_s:.6e}")
                continue
            if p.tie_set:
                lines.append(f"# {p.algorithm}: tie set {p.tie_set}")
            lines.append(
                f"{_toml_key(p.algorithm)} = {{ protocol = {json.dumps(p.protocol)}, "
                f"overlap = {str(p.overlap).lower()}, t_s = {p.t_s:.6e} }}"
            )
        lines += [
            f"# MPI collective {p.algorithm}: t_s = {p.t_s:.6e} (not a candidate: the 'coll' preset uses it)"
            for p in c.collectives
        ]
    return "\n".join(lines) + "\n"


def _select(rs: RecordSet, opts: Options) -> list[dict]:
    points = rs.points(kernel.BENCH)
    if not points:
        raise PstlabError(f"{rs.path}: no kernel records to tune from")
    wanted = {"trunc": opts.trunc, "levels": opts.levels, "grid": opts.grid}
    for key, value in wanted.items():
        if value is not None:
            points = [p for p in points if key not in p or str(p[key]) == str(value)]
    if not points:
        raise PstlabError(f"{rs.path}: no kernel records for {', '.join(f'{k} {v}' for k, v in wanted.items() if v)}")
    # One problem size overall; one grid (and result kind, ...) per stage: a 1d run's FFT stage on Px1
    # and Legendre stage on 1xP are one configuration.
    several = {}
    sizes = sorted({str(p.get("size")) for p in points})
    if len(sizes) > 1:
        several["size"] = set(sizes)
    for _stage, pts in group_by([dict(p, stage=kernel.stage(p)) for p in points], "stage").items():
        for key in CONFIG_KEYS[1:]:
            values = sorted({str(p[key]) for p in pts if p.get(key) is not None})
            if len(values) > 1:
                several.setdefault(key, set()).update(values)
    if several:
        what = "; ".join(f"{k} {', '.join(sorted(v))}" for k, v in several.items())
        raise PstlabError(
            f"{rs.path}: kernel records for several configurations ({what}); "
            "choose one with --trunc, --levels and --grid"
        )
    return points


def _run_kernel(opts: Options, records_path: Path) -> None:
    for name in ("trunc", "levels", "grid"):
        if getattr(opts, name) is None:
            raise PstlabError(f"tune: --{name} is required to run the kernels (or tune from --records FILE)")
    ranks = ranks_of_grid(opts.grid)
    run = launch.Launch.create(opts.mpi, opts.launcher, opts.build, opts.pstswm)
    if kernel.BENCH not in run.subcommands():
        raise PstlabError(
            f"this pstswm build ({run.pstswm}) has no '{kernel.BENCH}' subcommand, so there is nothing "
            "to tune with; use a build that has it, or tune from existing records with --records FILE"
        )
    partial = records_path.with_name(f".{records_path.name}.partial")
    args = [
        "--trunc",
        str(opts.trunc),
        "--levels",
        str(opts.levels),
        "--grid",
        opts.grid,
        "--protocols",
        opts.protocols,
        *opts.extra,
        "--out",
        str(partial.resolve()),
    ]
    argv = run.command(ranks, kernel.BENCH, args)
    print(f"pstlab tune: {' '.join(argv)}", flush=True)
    outcome = launch.run(argv, records_path.with_suffix(".out"), records_path.with_suffix(".err"), opts.timeout_s)
    if outcome.returncode != 0 or outcome.timed_out or not partial.is_file():
        partial.unlink(missing_ok=True)
        what = "timed out" if outcome.timed_out else f"exit status {outcome.returncode}"
        raise RunFailed(f"pstswm kernel failed ({what}); see {records_path.with_suffix('.err')}")
    partial.replace(records_path)


def default_out(opts: Options) -> Path:
    parts = [
        f"T{opts.trunc}" if opts.trunc else "",
        f"L{opts.levels}" if opts.levels else "",
        f"-{opts.grid}" if opts.grid else "",
    ]
    return Path(f"opt-{''.join(parts).strip('-') or 'preset'}.toml")


def tune(opts: Options) -> tuple[Path, dict[str, StageChoice]]:
    out = Path(opts.out) if opts.out else default_out(opts)
    if opts.records:
        source = Path(opts.records)
    else:
        source = out.with_suffix(".kernel.jsonl")
        _run_kernel(opts, source)
    rs = load(source)
    points = _select(rs, opts)
    choice = choose(points, algorithms.of(rs))
    if not choice:
        raise PstlabError(f"{source}: only MPI collectives in these kernel records; nothing to tune")
    header = next((h for h in rs.headers() if h.get("run_id") == points[0].get("run_id")), {})
    about = [
        f"configuration: size {points[0].get('size')}"
        + "".join(f", {k} {points[0][k]}" for k in ("trunc", "levels") if k in points[0])
        + "".join(f"; {stage} {c.config}" for stage, c in choice.items() if c.config),
        f"kernel records: {source} (run {points[0].get('run_id')}, {header.get('ranks', '?')} ranks, "
        f"{header.get('mpi_library', 'MPI unknown').split(',')[0]}, {header.get('date', 'date unknown')})",
        f"tuned by pstlab {__version__} on {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC",
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    paths.write_atomic(out, preset_text(choice, about))
    return out, choice


def add_parser(sub, name: str, summary: str) -> None:
    p = sub.add_parser(
        name,
        help=summary,
        description="Run `pstswm kernel` for one model configuration (or read its records with "
        "--records), pick the fastest protocol per algorithm and the fastest algorithm "
        "per stage, and write the preset file `pstswm model --preset opt --tuned` reads. "
        "Arguments after -- go to pstswm kernel.",
    )
    p.add_argument("--trunc", type=int, metavar="M", help="triangular truncation, e.g. 42 for T42")
    p.add_argument("--levels", type=int, metavar="K", help="vertical levels")
    p.add_argument("--grid", metavar="PXxPY", help="processor grid, e.g. 2x1 (runs PX·PY ranks)")
    p.add_argument("--protocols", default="all", help="protocols to try (default all)")
    launch.add_options(p)
    p.add_argument("--records", metavar="FILE", help="tune from these kernel records instead of running pstswm")
    p.add_argument("--out", metavar="FILE", help="preset file to write (default opt-T<M>L<K>-<grid>.toml)")
    p.add_argument("extra", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)


def command(args) -> int:
    extra = args.extra[1:] if args.extra[:1] == ["--"] else args.extra
    opts = Options(
        args.trunc,
        args.levels,
        args.grid,
        args.protocols,
        args.mpi,
        args.launcher,
        args.build,
        args.pstswm,
        args.out,
        args.records,
        extra,
    )
    out, choice = tune(opts)
    for stage, c in choice.items():
        print(f"{stage}: fastest algorithm {c.fastest.algorithm}" + (f" ({c.config})" if c.config else ""))
        for p in c.picks:
            print(
                f"  {p.algorithm:<10} protocol {p.protocol:<5} overlap {'on ' if p.overlap else 'off'} "
                f"{p.t_s * 1e6:10.2f} µs"
            )
        for p in c.collectives:
            print(f"  {p.algorithm:<10} MPI collective (not a candidate) {p.t_s * 1e6:10.2f} µs")
    print(f"pstlab: wrote {out}")
    return 0
