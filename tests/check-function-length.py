#!/usr/bin/env python3
"""No function in src/ longer than 80 lines.

    check-function-length.py SRC_DIR

A function's length counts its lines from the first line of its signature to its closing brace
(the project's style puts both braces of a body in column 0). Lists each offender (path:line,
the function and its length) and exits 1."""
import re
import sys
from pathlib import Path

LIMIT = 80
NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
ATTRIBUTE = re.compile(r"__attribute__\s*\(\(.*?\)\)")


def functions(path: Path):
    """(name, first line, length) of each function body in column 0 of a C file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        if lines[i] != "{":
            i += 1
            continue
        start = i - 1  # the signature runs up from the brace to a blank line, a comment or a ';' / '}'
        while start > 0 and lines[start - 1].strip() and not lines[start - 1].rstrip().endswith((";", "}", "*/")) \
                and not lines[start - 1].startswith(("#", "/*", " *")):
            start -= 1
        end = i + 1
        while end < len(lines) and lines[end] != "}":
            end += 1
        match = NAME.search(ATTRIBUTE.sub("", " ".join(lines[start:i])))
        if match:
            yield match.group(1), start + 1, end - start + 1
        i = end + 1


def main() -> int:
    src = Path(sys.argv[1])
    count, bad = 0, 0
    for path in sorted(src.rglob("*.c")):
        for name, line, length in functions(path):
            count += 1
            if length > LIMIT:
                print(f"{path}:{line}: {name} has {length} lines (over {LIMIT})")
                bad += 1
    if bad:
        print(f"{count} functions, {bad} over {LIMIT} lines")
        return 1
    print(f"{count} functions: none over {LIMIT} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
