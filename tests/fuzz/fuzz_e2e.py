#!/usr/bin/env python3
"""End-to-end argument fuzzer: seeded command lines launched for real (1-2 ranks), with run
sizes capped so a valid case finishes in seconds.  Every launch must give

  exit 2 - one error line from rank 0, and no record file (nor FILE.partial) left;
  exit 0 - a record file whose every line is JSON, header first and footer last;
  exit 3 - a run failure the configuration itself causes (a model time step that blows up, memory
           the host does not have); a wrong payload or result is a pstswm bug on a valid
           configuration (pstswm has no option that corrupts data on purpose), so it fails;

and never a signal, a sanitizer report, another exit code or a hang past the timeout.

    fuzz_e2e.py [--launches N] [--seed S] [--singleton] -- PSTRUN... PSTSWM

--singleton: a 1-rank case starts PSTSWM alone, an MPI singleton (tests/helpers.cmake: PST_LAUNCH1).

The seed is printed, and every failure is printed as a command line to replay.
"""
import argparse
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile

# Small valid runs per subcommand: the base every case starts from.
BASES = {
    "swap": ["--sizes", "8,1K", "--reps", "2", "--protocols", "0,0,1,3"],
    "pingpong": ["--sizes", "8,1K", "--reps", "2"],
    "coll": ["--sizes", "8,1K", "--reps", "2", "--ops", "allreduce,bcast"],
    "match": ["--counts", "1:16:x4", "--reps", "2"],
    "kernel": ["--trunc", "10", "--levels", "2", "--reps", "2", "--protocols", "0,0"],
    "model": ["--trunc", "10", "--steps", "3", "--fftw-plan", "estimate"],
}
# Values at and past limits, empty and duplicate list items, junk; none of them asks for a long
# run (those are valid input and would only test patience).
VALUES = ["0", "-1", "1", "2", "3", ",", "1,", ",1", "1,,2", "8,8", "1,1", "x", "", " ", "nan", "inf", "-inf",
          "1e309", "9223372036854775808", "-9223372036854775809", "4294967297x1", "0x0", "2x1", "1x2",
          "1:0", "1:9223372036854775807:+9223372036854775807", "all", "bogus", "0,6", "9,9", "pi/4", "1e308*pi",
          "/nonexistent/f", "/dev/null", "single", "multiple", "uni,uni", "T0L0@0x0", "'" * 2000, "\"" * 300]
OPTIONS = ["--sizes", "--reps", "--protocols", "--counts", "--trunc", "--levels", "--steps", "--grid", "--case",
           "--alpha", "--ops", "--comm-sizes", "--modes", "--direction", "--pairs", "--transport", "--cache",
           "--volume", "--thread-level", "--seed", "--confidence", "--margin", "--nlat", "--nlon", "--fft",
           "--legendre", "--preset", "--reference", "--tuned", "--bogus"]
# The run failures a valid configuration may end with (exit 3), and the subcommands that can.
DESIGNED_FAILURES = {"numerical blow-up": ("model",), "out of memory": tuple(BASES), "write failed": tuple(BASES)}


def random_bytes(rng: random.Random) -> str:
    return bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 20))).decode("latin-1")


def make_case(rng: random.Random) -> tuple[int, list[str]]:
    """A base run with 0-2 mutations: a base option's value replaced, or an option added."""
    sub = rng.choice(sorted(BASES))
    args = [sub, *BASES[sub]]
    for _ in range(rng.choice([0, 1, 1, 2])):
        value = random_bytes(rng) if rng.random() < 0.1 else rng.choice(VALUES)
        if rng.random() < 0.5:
            args[2 + 2 * rng.randrange(len(BASES[sub]) // 2)] = value
        elif rng.random() < 0.3:
            args.append(f"{rng.choice(OPTIONS)}={value}")
        else:
            args += [rng.choice(OPTIONS), value]
    return rng.choice([1, 2]), args


def check(rc: int, stderr: str, out: str, sub: str) -> str | None:
    """None when the outcome honours the contract, else what is wrong."""
    errors = [line for line in stderr.splitlines() if ": error" in line]
    if "Sanitizer" in stderr or "runtime error:" in stderr:
        return "sanitizer report"
    if rc == 2:
        if len(errors) != 1:
            return f"exit 2 with {len(errors)} error lines"
        if os.path.exists(out) or os.path.exists(out + ".partial"):
            return "exit 2 left a record file"
        return None
    if rc == 0:
        try:
            with open(out, encoding="utf-8") as f:
                recs = [json.loads(line) for line in f]
        except (OSError, ValueError) as e:
            return f"exit 0 but the record file is not valid: {e}"
        if not recs or recs[0].get("type") != "header" or recs[-1].get("type") != "footer":
            return "exit 0 but the record file lacks its header or footer"
        return None
    if rc == 3:
        if any(f in stderr for f, subs in DESIGNED_FAILURES.items() if sub in subs):
            return None
        return f"exit 3 on a configuration not designed to fail: {(errors or ['no error line'])[0][:200]}"
    return f"exit {rc}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--launches", type=int, default=40)
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--singleton", action="store_true", help="start 1-rank cases without PSTRUN")
    ap.add_argument("launcher", nargs="+", help="PSTRUN... PSTSWM (-n is added)")
    opts = ap.parse_args()
    *pstrun, pstswm = opts.launcher
    rng = random.Random(opts.seed)
    failures, outcomes = 0, {}
    with tempfile.TemporaryDirectory(prefix="fuzz-e2e-") as tmp:
        out = os.path.join(tmp, "records.jsonl")
        for k in range(opts.launches):
            ranks, args = make_case(rng)
            launch = [] if opts.singleton and ranks == 1 else [*pstrun, "-n", str(ranks)]
            argv = [*launch, pstswm, *args, "--out", out, "--noise-probe", "0", "--timeout", "60"]
            for stale in (out, out + ".partial"):
                if os.path.exists(stale):
                    os.unlink(stale)
            try:
                done = subprocess.run(argv, capture_output=True, timeout=opts.timeout, check=False)
                rc, stderr = done.returncode, done.stderr.decode("utf-8", "replace")
                problem = check(rc, stderr, out, args[0])
            except subprocess.TimeoutExpired:
                rc, stderr, problem = -1, "", f"no exit within {opts.timeout:g} s"
            outcomes[rc] = outcomes.get(rc, 0) + 1
            if problem:
                failures += 1
                print(f"FAIL seed {opts.seed} case {k}: {problem}: {shlex.join(argv)}")
                print("  " + "\n  ".join(stderr.splitlines()[-5:]))
    summary = ", ".join(f"exit {rc}: {n}" for rc, n in sorted(outcomes.items()))
    print(f"fuzz_e2e: seed {opts.seed}, {opts.launches} launches ({summary}), {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
