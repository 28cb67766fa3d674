#!/usr/bin/env python3
"""Every bench script follows the harness (bench/lib/harness.sh, docs/design.md "Bench scripts").

    check-bench.py ROOT

For each bench/*.sh: its name is hyphenated, it sources the harness, docs/design.md lists it,
`--help` prints its header and exits 0, and an unknown option exits 2 with one line on stderr,
"bench/NAME: error: ..." (so does the other bad input of REFUSALS).  docs/design.md lists no bench
script that does not exist.  Lists each offence and exits 1."""

import re
import subprocess
import sys
from pathlib import Path

SOURCE_LINE = 'source "$(dirname "$0")/lib/harness.sh"'
LISTED = re.compile(r"^- `bench/([a-z0-9-]+)\.sh`", re.M)
# Bad input a script refuses besides an unknown option: its arguments, and words its one line holds.
REFUSALS = {"ab-binaries": (["--launches", "5", "before", "after"], "at least 6 interleaved pairs")}


def run(script: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(script), *args], capture_output=True, text=True, timeout=30, check=False)


def offences(script: Path, listed: set[str]) -> list[str]:
    name = script.stem
    found = []
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name):
        found.append("its name is not lower case words joined by hyphens")
    if SOURCE_LINE not in script.read_text(encoding="utf-8"):
        found.append(f"does not source the harness ({SOURCE_LINE})")
    if name not in listed:
        found.append("is not listed in docs/design.md (a line '- `bench/NAME.sh`: ...')")
    done = run(script, "--help")
    if done.returncode != 0 or not done.stdout.strip() or done.stderr:
        found.append(f"--help: exit {done.returncode}, {len(done.stdout.splitlines())} lines out, stderr {done.stderr!r}")
    done = run(script, "--no-such-option")
    lines = done.stderr.splitlines()
    if done.returncode != 2 or len(lines) != 1 or not lines[0].startswith(f"bench/{name}: error: ") or done.stdout:
        found.append(f"--no-such-option: exit {done.returncode}, stderr {done.stderr!r}, stdout {done.stdout[:80]!r}")
    if name in REFUSALS:
        args, words = REFUSALS[name]
        done = run(script, *args)
        lines = done.stderr.splitlines()
        if done.returncode != 2 or len(lines) != 1 or words not in lines[0]:
            found.append(f"{' '.join(args)}: exit {done.returncode}, stderr {done.stderr!r} (want exit 2, {words!r})")
    return found


def main() -> int:
    root = Path(sys.argv[1])
    design = (root / "docs/design.md").read_text(encoding="utf-8")
    listed = set(LISTED.findall(design))
    scripts = sorted((root / "bench").glob("*.sh"))
    bad = 0
    for script in scripts:
        for offence in offences(script, listed):
            print(f"bench/{script.name}: {offence}")
            bad += 1
    for name in sorted(listed - {s.stem for s in scripts}):
        print(f"docs/design.md lists bench/{name}.sh, which does not exist")
        bad += 1
    print(f"{len(scripts)} bench scripts, {bad} offences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
