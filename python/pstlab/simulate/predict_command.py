"""The `pstlab predict` command: its options and its handler.  A prediction runs through
predict.py; --sensitivity predicts again and again through sensitivity.py, which imports
predict.py, so the command that chooses between them sits above both."""

from __future__ import annotations

from pstlab.core import paths
from pstlab.simulate import predict, sensitivity


def add_parser(sub, name: str, summary: str) -> None:
    p = sub.add_parser(
        name,
        help=summary,
        description="Run every experiment of SUITE (default: predict) with the SMPI build on the platform FILE "
        "(docs/predict.md).  Records say they are simulated and never enter a verdict; the band around a "
        "prediction is the platform's [validation] error.",
    )
    p.add_argument(
        "suite", nargs="?", help="a suite name or .toml file (default predict; predict-sensitivity with --sensitivity)"
    )
    p.add_argument(
        "--platform",
        required=True,
        metavar="NAME|FILE",
        help="a platform by name (share/pstswm/platforms or the checkout's platforms/, e.g. t3e-900) or a file",
    )
    p.add_argument(
        "--build",
        metavar="DIR",
        help="the SMPI build (default: as scripts/dev/build.sh names it for the smpicc on PATH)",
    )
    p.add_argument("--out", metavar="DIR", help="results directory (default results/<timestamp>-SUITE-PLATFORM)")
    p.add_argument("--resume", action="store_true", help="finish an interrupted prediction")
    p.add_argument("--max-ranks", type=int, metavar="N", help="skip experiments needing more than N ranks")
    p.add_argument("--dry-run", action="store_true", help="print the commands without running them")
    p.add_argument(
        "--mapping",
        default="block",
        help="ranks to the platform's nodes: block fills a node's cores first (default), cyclic one per node in turn",
    )
    p.add_argument(
        "--sensitivity",
        action="store_true",
        help="predict again with each platform input at -20 %% and +20 %% and report which inputs the answer "
        "(the fastest algorithm set at each rank count) depends on",
    )


def command(args) -> int:
    smpi_build, _ = paths.find_pstswm("smpi", args.build)
    opts = predict.Options(
        str(paths.locate("platforms", args.platform, smpi_build)),
        args.suite or (sensitivity.DEFAULT_SUITE if args.sensitivity else predict.DEFAULT_SUITE),
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
