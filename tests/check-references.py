#!/usr/bin/env python3
"""Every tracked file cites works by author, title and year (docs/references.md), never by the
internal names of the project's source documents: the numbered "seed" documents and sections of
the original architecture notes mean nothing to a user.

    check-references.py REPO_DIR

Lists each offending line and exits 1.  Random-number seeds (--seed, "the seed is printed") are
fine: the patterns are a seed number (three digits from 0) and the notes' section mark."""
import re
import subprocess
import sys

# Built from pieces so that this file does not match itself.
PATTERNS = [
    re.compile(r"\bseeds?[ _-]?0\d\d", re.IGNORECASE),
    re.compile("DESIGN" + r"(\.md)?\s*" + "\u00a7"),
    re.compile(r"\b" + "DESIGN" + r"\.md\b"),
    re.compile(r"shared/" + "seeds"),
]


def main() -> int:
    repo = sys.argv[1]
    files = subprocess.run(["git", "-C", repo, "ls-files", "-z"], check=True, capture_output=True).stdout
    bad = 0
    for name in filter(None, files.decode().split("\0")):
        try:
            with open(f"{repo}/{name}", encoding="utf-8") as f:
                lines = f.readlines()
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue  # binary files (plots) and files deleted in the working tree
        for number, line in enumerate(lines, 1):
            if any(p.search(line) for p in PATTERNS):
                print(f"{name}:{number}: {line.strip()[:160]}")
                bad += 1
    if bad:
        print(f"FAIL: {bad} line(s) cite the project's internal source names; cite the work (docs/references.md)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
