"""The `pstlab` command: the top parser, --version, the exit codes, and the table of commands.

Each command's module owns its sub-parser and its handler (add_parser(sub, name, summary) and
command(args) -> int); only the module of the command being run is imported, so `pstlab --help`
and `pstlab platform` (which scripts/pstrun runs with the standard library alone) start fast."""

import argparse
import importlib
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
  pstlab reframe results/r1 --system local:default --out refs.json   # references for the ReFrame library
  pstlab summary --json results/q1                     # the verdict box's paired verdicts as JSON
  pstlab calibrate results/q1                          # platforms/this-machine.toml, for simulation (docs/predict.md)
  pstlab predict --platform platforms/t3e-900.toml --out results/t3e   # the predict suite, simulated
  pstlab predict --platform platforms/t3e-900.toml --sensitivity      # which inputs its answer depends on
"""

# Every command: the module that holds its sub-parser and handler, and its one-line help (kept
# here, so that `pstlab --help` lists the commands without importing their modules).
COMMANDS = {
    "run": ("pstlab.run.run", "run a suite of experiments into a results directory"),
    "report": ("pstlab.report.report", "write report.md and report.html for a results directory"),
    "compare": ("pstlab.report.compare", "compare two results directories side by side"),
    "tune": ("pstlab.run.tune", "run the kernel benchmark for a configuration and write the opt preset"),
    "repro": ("pstlab.analysis.repro", "do the kernel and swap verdicts of several runs agree?"),
    "checksums": ("pstlab.analysis.checksums", "did model runs of the same problem compute the same bits?"),
    "reframe": (
        "pstlab.analysis.reframe_refs",
        "write the reference table of pstswm's ReFrame library for a system from results of its suite",
    ),
    "summary": (
        "pstlab.report.summary",
        "print the headline figures and the verdict box of a results directory",
    ),
    "calibrate": (
        "pstlab.simulate.calibrate",
        "describe the node RESULTS was measured on as a platform file for simulation, fitted and checked",
    ),
    "predict": (
        "pstlab.simulate.predict_command",
        "run a suite on a simulated platform: predicted records, reported apart from measured ones",
    ),
    "platform": (
        "pstlab.simulate.platform",
        "turn a platform file into SimGrid's platform XML, hostfile and --cfg values (scripts/pstrun runs it)",
    ),
    "validate-t3e": (
        "pstlab.simulate.validate_t3e",
        "Worley 1998 Table 5 against the simulated T3E-900: the cells, presets and table of bench/predict-t3e.sh",
    ),
}


HELP_COLUMN = 14


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


def command_module(name: str):
    """The module of command `name` (imported now: only the command being run is)."""
    return importlib.import_module(COMMANDS[name][0])


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """pstlab's parser; only `command`'s sub-parser has its options (the others list their help)."""
    top = argparse.ArgumentParser(
        prog="pstlab",
        description="Run pstswm suites, turn their records into reports, compare result sets, tune.",
        epilog=EPILOG,
        # The help column where the older, shorter command names put it: validate-t3e, like
        # calibrate, gets a line of its own instead of pushing every other line right.
        formatter_class=lambda prog: argparse.RawDescriptionHelpFormatter(prog, max_help_position=HELP_COLUMN),
    )
    top.add_argument(
        "--version", action=VersionAction, help="print pstlab's version and the pstswm it finds, and exit"
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (_, summary) in COMMANDS.items():
        if name == command:
            command_module(name).add_parser(sub, name, summary)
        else:
            sub.add_parser(name, help=summary)
    return top


def _named_command(argv: list[str]) -> str | None:
    """The command argv names: its first word that is not an option (pstlab's own take no value)."""
    word = next((a for a in argv if not a.startswith("-")), None)
    return word if word in COMMANDS else None


def _terminate(_signum, _frame) -> None:
    """SIGTERM (a batch system ending the job, `timeout`) stops pstswm and keeps state, like Ctrl-C."""
    raise KeyboardInterrupt


def _internal_error(command: str) -> int:
    # Records are checked against the record schema as they are read (records.py), so bad input
    # has been refused by name already: anything else is a pstlab bug, not the data's.
    traceback.print_exc()
    print(
        f"pstlab {command}: internal error (a pstlab bug, not a fault of the records): "
        "please report it with the traceback above",
        file=sys.stderr,
    )
    return EXIT_BUG


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    named = _named_command(argv)
    try:
        top = parser(named)
    except Exception:  # the command's module failed to import or to build its sub-parser
        return _internal_error(named)
    args = top.parse_args(argv)
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if in_main_thread else None
    try:
        return command_module(args.command).command(args)
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
        return _internal_error(args.command)
    finally:
        if in_main_thread:
            signal.signal(signal.SIGTERM, previous)
