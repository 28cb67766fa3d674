#!/usr/bin/env python3
"""The line-length rule of CONTRIBUTING.md: no line of the C sources (src/**/*.[ch], tests/unit/*.[ch])
longer than 120 characters.

    check-line-length.py ROOT [FILE...]

Checks FILE... (paths as given) or, without them, every such file git tracks under ROOT (a tree
without git: every such file).  Lists each offender (path:line: its length) and exits 1;
scripts/dev/rewrap.sh rewraps them."""
import subprocess
import sys
from pathlib import Path

LIMIT = 120
PATTERNS = ["src/*.c", "src/*.h", "tests/unit/*.c", "tests/unit/*.h"]


def c_sources(root: Path) -> list[Path]:
    listing = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--", *PATTERNS],
                             capture_output=True, check=False)
    if listing.returncode == 0:
        return [root / name for name in listing.stdout.decode().split("\0") if name]
    return sorted({p for pattern in PATTERNS for p in root.glob(pattern.replace("src/*", "src/**/*"))})


def offences(path: Path, shown: str) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [f"{shown}:{n}: {len(line)} characters (over {LIMIT})"
            for n, line in enumerate(lines, 1) if len(line) > LIMIT]


def main() -> int:
    root = Path(sys.argv[1])
    named = [Path(name) for name in sys.argv[2:]]
    files = [(p, str(p)) for p in named] if named else [(p, str(p.relative_to(root))) for p in c_sources(root)]
    bad = [line for path, shown in files for line in offences(path, shown)]
    for line in bad:
        print(line)
    if bad:
        print(f"{len(files)} files, {len(bad)} line(s) over {LIMIT} characters (rewrap them: scripts/dev/rewrap.sh)")
        return 1
    print(f"{len(files)} files: every line within {LIMIT} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
