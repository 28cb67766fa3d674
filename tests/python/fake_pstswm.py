#!/usr/bin/env python3
"""A stand-in for pstswm in pstlab's tests: answers --help and writes records, on cue.

    fake_pstswm.py --version                   "pstswm 0.0.0 (fake)", as pstlab's check expects
    fake_pstswm.py --help                      lists $FAKE_PSTSWM_COMMANDS (default: swap)
    fake_pstswm.py SUB [ARGS] --out FILE       writes a header and points for bench SUB, exit 0

ARGS it understands (others are ignored):
    --copy PATH          write PATH's records instead of made-up ones
    --relaunch JITTER    (with --copy) as a launch of its own: a run_id from --seed, and every
                         alternative's round_s scaled by 1 + JITTER x a fixed draw in [-1, 1] of
                         (launch, record), as launches of a noisy host differ
    --fail               write one record, then exit 3 (a run that dies half way)
    --fail-once MARKER   like --fail when MARKER does not exist yet (and create it); else succeed
    --bad-record         write a malformed line and exit 0
    --sleep S            sleep S seconds before writing (to be interrupted or timed out),
                         unless $FAKE_PSTSWM_NO_SLEEP is set
    --sleep-past-launch K  sleep 20 s when the launch number (its --seed) is above K (one --until added), unless
                         $FAKE_PSTSWM_NO_SLEEP is set
    --no-out             exit 0 without writing the --out file
    --tuned FILE         (model --preset opt) FILE must be an opt preset with [fft] and [legendre]
                         tables naming an algorithm, else exit 2 as pstswm would
Every invocation appends its argv as one JSON line to $FAKE_PSTSWM_LOG if set.
"""

import json
import os
import random
import sys
import time
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


def option(args, name):
    return args[args.index(name) + 1] if name in args else None


def main(argv):
    if argv == ["--version"]:  # not logged: pstlab asks before every run
        print("pstswm 0.0.0 (fake), record schema 1")
        return 0
    commands = os.environ.get("FAKE_PSTSWM_COMMANDS", "swap").split(",")
    if log := os.environ.get("FAKE_PSTSWM_LOG"):
        with Path(log).open("a") as f:
            f.write(json.dumps({"argv": argv, "ranks": os.environ.get("FAKE_RANKS")}) + "\n")
    if argv[:1] == ["--help"]:
        print("usage: pstswm SUBCOMMAND [options]\n")
        for c in commands:
            print(f"  {c:<10} fake {c}")
        return 0
    if not argv or argv[0] not in commands:
        print(f"pstswm: unknown subcommand '{argv[0] if argv else ''}'", file=sys.stderr)
        return 2
    sub, args = argv[0], argv[1:]
    if tuned := option(args, "--tuned"):
        try:
            preset = tomllib.loads(Path(tuned).read_text())
            assert option(args, "--preset") == "opt"
            # As pstswm: a stage the grid does not distribute may be left out, not both.
            stages = [stage for stage in ("fft", "legendre") if stage in preset]
            assert stages and all(isinstance(preset[stage]["algorithm"], str) for stage in stages)
        except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, AssertionError):
            print(
                f"pstswm: --tuned {tuned}: not an opt preset with [fft] or [legendre]",
                file=sys.stderr,
            )
            return 2
    if (sleep := option(args, "--sleep")) and not os.environ.get("FAKE_PSTSWM_NO_SLEEP"):
        time.sleep(float(sleep))
    past = option(args, "--sleep-past-launch")
    if past and int(option(args, "--seed") or 0) > int(past) and not os.environ.get("FAKE_PSTSWM_NO_SLEEP"):
        time.sleep(20)
    out = option(args, "--out")
    if "--no-out" in args or out is None:
        return 0
    header = {
        "bench": sub,
        "type": "header",
        "schema_version": 1,  # the first schema: pstlab does not require its later fields
        "run_id": "fake0000",
        "ranks": int(os.environ.get("FAKE_RANKS", "1")),
        "transport": "mpi",
        "command": " ".join(["pstswm", *argv]),
        "mpi_build": "fake",
    }
    # As pstswm does: records go to OUT.partial, renamed to OUT only when the run succeeds.
    partial = Path(out + ".partial")
    rc = write_records(partial, header, args)
    if rc == 0:
        partial.replace(out)
    return rc


def relaunched(rec: dict, launch: str, jitter: float) -> dict:
    rec["run_id"] = f"fake-launch-{launch}"
    if isinstance(rec.get("round_s"), list):
        draw = random.Random(f"{launch}/{rec.get('protocol')}/{rec.get('bytes')}/{rec.get('nmsg')}").uniform(-1, 1)  # noqa: S311 (a fixed draw, not a secret)
        rec["round_s"] = [t * (1 + jitter * draw) for t in rec["round_s"]]
    return rec


def write_records(path: Path, header: dict, args: list) -> int:
    with path.open("w") as f:
        if (copy := option(args, "--copy")) and (jitter := option(args, "--relaunch")):
            f.writelines(
                json.dumps(relaunched(json.loads(line), option(args, "--seed"), float(jitter))) + "\n"
                for line in Path(copy).read_text().splitlines()
            )
        elif copy:
            f.write(Path(copy).read_text())
        else:
            f.write(json.dumps(header) + "\n")
        marker = option(args, "--fail-once")
        if "--fail" in args or (marker and not Path(marker).exists()):
            if marker:
                Path(marker).touch()
            f.write(json.dumps({**header, "type": "point", "partial": True}) + "\n")
            f.flush()
            print("pstswm: fake failure half way", file=sys.stderr)
            return 3
        if "--bad-record" in args:
            f.write('{"bench": "swap", "type": \n')
            return 0
        if not option(args, "--copy"):
            for b in (8, 64):
                f.write(
                    json.dumps(
                        {
                            **header,
                            "type": "point",
                            "protocol": "1,0",
                            "bytes": b,
                            "t_min": 1e-6 * b,
                            "t_med": 1e-6 * b,
                            "t_mean": 1e-6 * b,
                            "t_max": 1e-6 * b,
                            "reps": 3,
                        }
                    )
                    + "\n"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
