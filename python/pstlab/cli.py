"""The `pstlab` command: run, report, compare, tune, summary, calibrate, predict."""

import argparse
import os
import signal
import sys
import threading
import traceback

from pstlab import __version__
from pstlab.core import paths
from pstlab.core.errors import EXIT_BUG, PstlabError

EPILOG = """examples:
  pstlab run quick                       # the quick suite with Open MPI, into results/<timestamp>-quick-openmpi
  pstlab run paper --mpi mpich --max-ranks 4
  pstlab run quick --out results/q1 --resume          # finish an interrupted run
  pstlab run quick --launches 3 --out results/q3      # 3 interleaved launches of every experiment
  pstlab run full --launcher srun                      # inside a batch allocation
  pstlab report results/q1                             # results/q1/report.md and report.html
  pstlab compare results/q-openmpi results/q-mpich --out results/ompi-vs-mpich
  pstlab compare results/before results/after --fail-above 5       # gate a library upgrade (3+ launches each)
  pstlab tune --trunc 42 --levels 16 --grid 2x1 --out opt.toml
  pstlab repro results/q1 results/q2 results/q3        # do the verdicts of three runs agree?
  pstlab summary results/q1
  pstlab summary --json results/q1                     # the verdict box's paired verdicts as JSON
  pstlab calibrate results/q1                          # platforms/this-machine.toml, for simulation (docs/predict.md)
  pstlab predict --platform platforms/t3e-900.toml --out results/t3e   # the predict suite, simulated
  pstlab predict --platform platforms/t3e-900.toml --sensitivity      # which inputs its answer depends on
"""


class VersionAction(argparse.Action):
    """--version: pstlab's version and the pstswm it would run (exit 0 also when there is none)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"pstlab {__version__}")
        print(found_pstswm())
        parser.exit()


def found_pstswm() -> str:
    """One line: the pstswm pstlab finds ($PSTSWM, a checkout's build, PATH) and its version."""
    from pstlab.run import probe

    binary, how = paths.find_pstswm()
    if binary is None:
        return f"pstswm: none found (looked at {how}; give --pstswm PATH or set ${paths.PSTSWM_VAR})"
    try:
        version = probe.version(binary, how).splitlines()[0]
    except PstlabError as e:
        return f"pstswm: {e}"
    return f"pstswm: {binary} (from {how}): {version}"


def _launch_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--mpi",
        help=f"which MPI build to use: {', '.join(paths.MPIS)} (default: an installed pstswm's own, "
        "else openmpi)",
    )
    p.add_argument(
        "--launcher",
        default="mpiexec",
        help="mpiexec (default), srun, or a template with {n} for the rank count, e.g. 'srun --mpi=pmix -n {n}'",
    )
    p.add_argument("--build", metavar="DIR", help="the pstswm build directory (default build/<mpi> in the checkout)")
    p.add_argument(
        "--pstswm",
        metavar="PATH",
        help=f"the pstswm executable (overrides --build; default ${paths.PSTSWM_VAR}, then build/<mpi> when run "
        "in a pstswm checkout, then pstswm on PATH)",
    )


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="pstlab",
        description="Run pstswm suites, turn their records into reports, compare result sets, tune.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    top.add_argument(
        "--version", action=VersionAction, help="print pstlab's version and the pstswm it finds, and exit"
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser(
        "run",
        help="run a suite of experiments into a results directory",
        description="Run every experiment of SUITE (by name: SUITE.toml in the installed pstswm's "
        "share/pstswm/suites or the checkout's suites/; or a path to a .toml file), then write its report. "
        "Experiments whose subcommand this pstswm build lacks are skipped with a note.",
    )
    run.add_argument(
        "suite",
        help="quick, paper, full (from the installed pstswm's share/pstswm/suites, or the checkout's suites/), "
        "or a path to a suite .toml file",
    )
    _launch_options(run)
    run.add_argument("--out", metavar="DIR", help="results directory (default results/<timestamp>-<suite>-<mpi>)")
    run.add_argument(
        "--resume",
        action="store_true",
        help="finish an interrupted run (the --out DIR, else the latest unfinished one of this suite): "
        "finished experiments are kept, the others run",
    )
    run.add_argument("--max-ranks", type=int, metavar="N", help="skip experiments that need more than N ranks")
    run.add_argument(
        "--launches",
        type=int,
        default=1,
        metavar="N",
        help="run every experiment N times, interleaved across experiments (<name>-L<k>.jsonl); the statistics "
        "then count the variation between launches (compare --fail-above needs 3)",
    )
    run.add_argument("--dry-run", action="store_true", help="print each experiment's command line and run nothing")
    run.add_argument(
        "--no-report",
        action="store_true",
        help="do not write report.md and report.html into the results directory at the end (pstlab report does)",
    )

    rep = sub.add_parser("report", help="write report.md and report.html for a results directory")
    rep.add_argument("results", help="a results directory (or one .jsonl file)")
    rep.add_argument("--out", metavar="DIR", help="where to write the report (default: the results directory)")

    cmp_ = sub.add_parser("compare", help="compare two results directories side by side")
    cmp_.add_argument("a", help="results directory A")
    cmp_.add_argument("b", help="results directory B")
    cmp_.add_argument("--out", metavar="DIR", help="where to write compare.md/.html (default results/compare-A-vs-B)")
    cmp_.add_argument(
        "--fail-above",
        type=float,
        metavar="PCT",
        help="exit 1 when B is significantly (Holm-adjusted, 95 %%) worse than A by more than PCT %% anywhere; "
        "needs 3 or more launches on each side (pstlab run --launches 3), else exit 2",
    )

    tune = sub.add_parser(
        "tune",
        help="run the kernel benchmark for a configuration and write the opt preset",
        description="Run `pstswm kernel` for one model configuration (or read its records with "
        "--records), pick the fastest protocol per algorithm and the fastest algorithm "
        "per stage, and write the preset file `pstswm model --preset opt --tuned` reads. "
        "Arguments after -- go to pstswm kernel.",
    )
    tune.add_argument("--trunc", type=int, metavar="M", help="triangular truncation, e.g. 42 for T42")
    tune.add_argument("--levels", type=int, metavar="K", help="vertical levels")
    tune.add_argument("--grid", metavar="PXxPY", help="processor grid, e.g. 2x1 (runs PX·PY ranks)")
    tune.add_argument("--protocols", default="all", help="protocols to try (default all)")
    _launch_options(tune)
    tune.add_argument("--records", metavar="FILE", help="tune from these kernel records instead of running pstswm")
    tune.add_argument("--out", metavar="FILE", help="preset file to write (default opt-T<M>L<K>-<grid>.toml)")
    tune.add_argument("extra", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)

    rep_ = sub.add_parser(
        "repro",
        help="do the kernel and swap verdicts of several runs agree?",
        description="The share of verdicts whose best sets intersect in every pair of runs, and the best sets' "
        "size. Exit 0 when the targets are met (>= 95 %% consistent, best set median <= 25 %%, 90th percentile "
        "<= 50 %% of the alternatives), 1 when not, 2 when the runs share no verdict.",
    )
    rep_.add_argument("results", nargs="+", help="two or more results directories of the same suite")
    rep_.add_argument("--json", action="store_true", help="print the figures as JSON")

    summ = sub.add_parser("summary", help="print the headline figures and the verdict box of a results directory")
    summ.add_argument("results", help="a results directory (or one .jsonl file)")
    summ.add_argument("--json", action="store_true", help="print the verdict box's paired verdicts as JSON")

    cal = sub.add_parser(
        "calibrate",
        help="describe the node RESULTS was measured on as a platform file for simulation, fitted and checked",
        description="Fit a platform file (docs/predict.md) from the swap, ping-pong, kernel and serial model records "
        "of RESULTS (scripts/calibrate-node.sh makes them), then simulate it with the SMPI build, with no host time: "
        "the 2-rank swap it was fitted to must come within 5 %% at every size, the ping-pong, the swaps of every pair "
        "at once and the kernel stages it was not fitted on within 15 %%.  Exit 3 when a target is missed.",
    )
    cal.add_argument("results", help="a results directory measured on one node (scripts/calibrate-node.sh OUT)")
    cal.add_argument("--out", metavar="FILE", help="the platform file to write (default platforms/this-machine.toml)")
    cal.add_argument(
        "--build",
        metavar="DIR",
        help="the SMPI build that checks it (default: as scripts/build.sh names it for the smpicc on PATH)",
    )

    pre = sub.add_parser(
        "predict",
        help="run a suite on a simulated platform: predicted records, reported apart from measured ones",
        description="Run every experiment of SUITE (default: predict) with the SMPI build on the platform FILE "
        "(docs/predict.md).  Records say they are simulated and never enter a verdict; the band around a "
        "prediction is the platform's [validation] error.",
    )
    pre.add_argument(
        "suite", nargs="?", help="a suite name or .toml file (default predict; predict-sensitivity with --sensitivity)"
    )
    pre.add_argument(
        "--platform",
        required=True,
        metavar="NAME|FILE",
        help="a platform by name (share/pstswm/platforms or the checkout's platforms/, e.g. t3e-900) or a file",
    )
    pre.add_argument(
        "--build", metavar="DIR", help="the SMPI build (default: as scripts/build.sh names it for the smpicc on PATH)"
    )
    pre.add_argument("--out", metavar="DIR", help="results directory (default results/<timestamp>-SUITE-PLATFORM)")
    pre.add_argument("--resume", action="store_true", help="finish an interrupted prediction")
    pre.add_argument("--max-ranks", type=int, metavar="N", help="skip experiments needing more than N ranks")
    pre.add_argument("--dry-run", action="store_true", help="print the commands without running them")
    pre.add_argument(
        "--mapping",
        default="block",
        help="ranks to the platform's nodes: block fills a node's cores first (default), cyclic one per node in turn",
    )
    pre.add_argument(
        "--sensitivity",
        action="store_true",
        help="predict again with each platform input at -20 %% and +20 %% and report which inputs the answer "
        "(the fastest algorithm set at each rank count) depends on",
    )
    return top


def _run(args: argparse.Namespace) -> int:
    from pstlab.report import report
    from pstlab.run import run

    def write_report(directory) -> None:
        """What finished, reported (nothing when no experiment wrote records); records the report
        refuses are named, and the run's own exit status stands."""
        if not any(directory.glob("*.jsonl")):
            return
        try:
            md, html = report.write(directory)
        except PstlabError as e:
            print(f"pstlab run: no report: {e}", file=sys.stderr, flush=True)
            return
        print(f"pstlab: wrote {md} and {html}", flush=True)

    opts = run.Options(
        args.suite,
        args.mpi,
        args.launcher,
        args.build,
        args.pstswm,
        args.out,
        args.resume,
        args.max_ranks,
        args.dry_run,
        args.launches,
    )
    run.run_suite(opts, echo=lambda text: print(text, flush=True), finish=None if args.no_report else write_report)
    return 0


def _report(args: argparse.Namespace) -> int:
    from pstlab.report import report

    md, html = report.write(args.results, args.out)
    print(f"pstlab: wrote {md} and {html}")
    return 0


def _compare(args: argparse.Namespace) -> int:
    from pstlab.report import compare

    md, html, verdicts = compare.write(args.a, args.b, args.out, args.fail_above)
    print("\n".join(verdicts))
    print(f"pstlab: wrote {md} and {html}")
    return 0


def _tune(args: argparse.Namespace) -> int:
    from pstlab.run import tune

    extra = args.extra[1:] if args.extra[:1] == ["--"] else args.extra
    opts = tune.Options(
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
    out, choice = tune.tune(opts)
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


def _repro(args: argparse.Namespace) -> int:
    import json

    from pstlab.analysis import repro

    result = repro.analyse(args.results)
    print(json.dumps(result, indent=2) if args.json else repro.render(result))
    return repro.exit_code(result)


def _summary(args: argparse.Namespace) -> int:
    from pstlab.report import summary

    print(summary.render_json(args.results) if args.json else summary.render(args.results))
    return 0


def _calibrate(args: argparse.Namespace) -> int:
    from pstlab.simulate import calibrate

    return calibrate.calibrate(args.results, args.out, args.build)


def _predict(args: argparse.Namespace) -> int:
    from pstlab.simulate import predict, sensitivity

    default_suite = sensitivity.DEFAULT_SUITE if args.sensitivity else predict.DEFAULT_SUITE
    smpi_build, _ = paths.find_pstswm("smpi", args.build)
    opts = predict.Options(
        str(paths.locate("platforms", args.platform, smpi_build)),
        args.suite or default_suite,
        args.build,
        args.out,
        args.resume,
        args.max_ranks,
        args.dry_run,
        args.mapping,
    )

    def echo(text: str) -> None:
        print(text, flush=True)

    if args.sensitivity:
        sensitivity.sensitivity(opts, echo)
    else:
        predict.predict(opts, echo)
    return 0


COMMANDS = {
    "run": _run,
    "report": _report,
    "compare": _compare,
    "tune": _tune,
    "repro": _repro,
    "summary": _summary,
    "calibrate": _calibrate,
    "predict": _predict,
}


def _terminate(_signum, _frame) -> None:
    """SIGTERM (a batch system ending the job, `timeout`) stops pstswm and keeps state, like Ctrl-C."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if in_main_thread else None
    try:
        return COMMANDS[args.command](args)
    except PstlabError as e:
        print(f"pstlab {args.command}: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        print(f"pstlab {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into head & co.: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception:
        # Records are checked against the record schema as they are read (records.py), so bad
        # input has been refused by name already: anything else is a pstlab bug, not the data's.
        traceback.print_exc()
        print(
            f"pstlab {args.command}: internal error (a pstlab bug, not a fault of the records): "
            "please report it with the traceback above",
            file=sys.stderr,
        )
        return EXIT_BUG
    finally:
        if in_main_thread:
            signal.signal(signal.SIGTERM, previous)
