"""The quick suite's 2-rank kernel and swap-protocols experiments, one line each: name, subcommand
and arguments, --reps replaced when REPS is given (bench/cluster-verdicts.sh).

    quick_suite_args.py SUITE.toml [REPS]"""

import sys
from pathlib import Path

import tomllib


def main() -> None:
    suite = tomllib.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    reps = sys.argv[2] if len(sys.argv) > 2 else ""
    for e in suite["experiment"]:
        if e["name"] in ("kernel", "swap-protocols"):
            args = list(e["args"])
            if reps and "--reps" in args:
                args[args.index("--reps") + 1] = reps
            print(" ".join([e["name"], e["subcommand"], *args]))


if __name__ == "__main__":
    main()
