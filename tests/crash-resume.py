#!/usr/bin/env python3
"""Kill `pstlab run` at chosen points and resume it once: the crash-and-resume check (issue 56).

    crash-resume.py --suite SUITE --pstlab PSTLAB --work DIR [--signal KILL|TERM|INT]
                    (--at S[,S...] | --random N --seed K (--span S | --in-launch L))
                    [--alive-after S]
                    [-- PSTLAB_RUN_OPTIONS...]

For every point: `pstlab run SUITE --out DIR/<k>` starts in a process group of its own, the
group gets the signal S seconds in, and `pstlab run ... --resume` starts at once.  Every
process the first run started carries a mark in its environment, so those still alive 1 s and
--alive-after seconds (default 10) after the signal are counted wherever their launcher put
them (another process group, another session, a slurmstepd on an emulated node).

A point passes when the first resume exits 0 with every launch done, every record file whole
(each line one JSON record, the run header first, one header: no records of two launches in
one file), no .partial left, nothing of the first run alive --alive-after seconds after the
signal and, for TERM and INT, the first run exited 130 with a one-line resume hint.  A pstlab
killed before it created DIR left nothing to resume: there the resume must refuse in one line
(exit 2), as for any directory that holds no run.  Prints one
table row per point (signal, at, pstlab's exit, processes alive 1 s and S s later, first resume)
and exits 1 when a point failed.
"""

import argparse
import json
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

MARK = "PSTLAB_CRASH_TEST_MARK"


def marked(mark: str) -> list[int]:
    """The processes whose environment carries this mark."""
    needle = f"{MARK}={mark}".encode()
    found = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if needle in environ.read_bytes().split(b"\0"):
                found.append(int(environ.parent.name))
        except (OSError, ValueError):
            continue
    return found


def damage(directory: Path) -> list[str]:
    """What is wrong with a finished results directory: launches not done, torn or mixed files."""
    manifest = json.loads((directory / "manifest.json").read_text())
    problems = [f"{e['file']}: {e['status']}" for e in manifest["experiments"] if e["status"] != "done"]
    for entry in manifest["experiments"]:
        path = directory / entry["file"]
        if not path.is_file():
            problems.append(f"{entry['file']}: missing")
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if not text.endswith("\n"):
            problems.append(f"{entry['file']}: last line torn")
        try:
            records = [json.loads(line) for line in text.splitlines()]
        except json.JSONDecodeError as e:
            problems.append(f"{entry['file']}: torn record ({e.msg})")
            continue
        headers = sum(r.get("type") == "header" for r in records)
        if not records or records[0].get("type") != "header" or headers != 1:
            problems.append(f"{entry['file']}: {headers} run headers (one launch per file, header first)")
    if (directory / ".partial").exists():
        problems.append(".partial left")
    return problems


def alive_at(mark: str, signalled: float, after_s: float) -> int:
    time.sleep(max(0.0, signalled + after_s - time.monotonic()))
    return len(marked(mark))


def reached(first: subprocess.Popen, log: Path, point: tuple[int | None, float]) -> bool:
    """Wait for the point: seconds after the start, or after pstlab printed launch i's line (it
    starts the launch right after).  False when pstlab ended first."""
    launch, offset_s = point
    while launch is not None and f"[{launch}/" not in log.read_text(errors="replace"):
        if first.poll() is not None:
            return False
        time.sleep(0.02)
    try:
        first.wait(timeout=offset_s)
        return False
    except subprocess.TimeoutExpired:
        return True


def one_point(args, k: int, point: tuple[int | None, float], sig: signal.Signals) -> tuple[str, bool]:
    out = args.work / f"{k}"
    shutil.rmtree(out, ignore_errors=True)  # a fresh run each time: a left directory would be refused
    base = [*shlex.split(args.pstlab), "run", args.suite, "--out", str(out), "--no-report", *args.run_options]
    mark = uuid.uuid4().hex
    log = (args.work / f"{k}.first.log").open("wb")
    first = subprocess.Popen(
        base, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env={**os.environ, MARK: mark}
    )
    at = f"{point[1]:.1f} s" if point[0] is None else f"launch {point[0]} + {point[1]:.1f} s"
    if not reached(first, args.work / f"{k}.first.log", point):
        ok = first.returncode == 0 and not damage(out)
        return f"| {sig.name} | {at} | finished first (exit {first.returncode}) | - | not needed |", ok
    os.killpg(first.pid, sig)
    signalled = time.monotonic()
    rc = first.wait()
    started = out.exists()
    exit_shown = 128 - rc if rc < 0 else rc
    resume_log = (args.work / f"{k}.resume.log").open("wb")
    resume = subprocess.Popen([*base, "--resume"], stdout=resume_log, stderr=subprocess.STDOUT)
    alive_1s = alive_at(mark, signalled, 1.0)
    alive_late = alive_at(mark, signalled, args.alive_after)
    resume_rc = resume.wait()
    resume_text = (args.work / f"{k}.resume.log").read_text(errors="replace")
    if not started and resume_rc == 2 and "not a pstlab run to resume" in resume_text and not alive_late:
        # Killed before it created DIR: nothing to resume, and the resume says so in one line.
        return (
            f"| {sig.name} | {at} | {exit_shown} | {alive_1s} / 0 "
            "| before DIR existed: exit 2, nothing to resume ✓ |",
            True,
        )
    problems = [f"exit {resume_rc}"] if resume_rc else []
    problems += damage(out) if (out / "manifest.json").is_file() else ["no manifest"]
    if alive_late:
        problems.append(f"{alive_late} processes of the first run alive {args.alive_after:g} s after the signal")
    if sig != signal.SIGKILL:
        first_log = (args.work / f"{k}.first.log").read_text(errors="replace")
        if rc != 130 or "Resume with:" not in first_log:
            problems.append(f"the first run exited {rc} without the one-line resume hint")
    verdict = "all launches done ✓" if not problems else "FAILED: " + "; ".join(problems[:3])
    if problems:
        tail = (args.work / f"{k}.resume.log").read_text(errors="replace").strip().splitlines()[-3:]
        verdict += " / " + " / ".join(tail)
    row = f"| {sig.name} | {at} | {exit_shown} | {alive_1s} / {alive_late} | {verdict} |"
    return row, not problems


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--suite", required=True)
    p.add_argument("--pstlab", required=True, help="the pstlab command (words split as a shell would)")
    p.add_argument("--work", type=Path, required=True)
    p.add_argument("--signal", default="KILL", choices=["KILL", "TERM", "INT"])
    p.add_argument("--at", help="seconds after the start, comma-separated")
    p.add_argument("--random", type=int, help="this many points drawn uniformly over --span seconds")
    p.add_argument("--seed", type=int, default=56)
    p.add_argument("--span", type=float, help="seconds: the points of --random fall in [1, span]")
    p.add_argument(
        "--in-launch",
        type=int,
        metavar="L",
        help="--random points inside launches: launch 1..L of the suite, 0.2-1.2 s after pstlab starts it",
    )
    p.add_argument("--alive-after", type=float, default=10.0)
    p.add_argument("run_options", nargs="*", help="after --: pstlab run's options (--mpi, --pstswm, --launcher)")
    args = p.parse_args()
    rng = random.Random(args.seed)  # noqa: S311 (kill points, not secrets)
    if args.at:
        points = [(None, float(s)) for s in args.at.split(",")]
    elif args.in_launch:
        points = [(rng.randint(1, args.in_launch), round(rng.uniform(0.2, 1.2), 1)) for _ in range(args.random)]
    else:
        points = sorted((None, round(rng.uniform(1.0, args.span), 1)) for _ in range(args.random))
    sig = signal.Signals[f"SIG{args.signal}"]
    # Started in the background (make test &), this process inherits SIGINT ignored and would pass
    # that on: handled here, it reaches pstlab as at a terminal (the default, which Python handles).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    args.work.mkdir(parents=True, exist_ok=True)
    print(
        "| signal to pstlab's group | at | pstlab's exit | processes of it alive 1 s / "
        f"{args.alive_after:g} s later | first --resume |"
    )
    print("| --- | --- | --- | --- | --- |", flush=True)
    failed = 0
    for k, point in enumerate(points, 1):
        row, ok = one_point(args, k, point, sig)
        print(row, flush=True)
        failed += not ok
    print(f"{len(points) - failed} of {len(points)} points passed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
