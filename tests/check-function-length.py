#!/usr/bin/env python3
"""No function in src/ longer than 80 lines, except the ones an allow-list names, and those may
not grow.

    check-function-length.py SRC_DIR ALLOW_LIST [--write]

A function's length counts its lines from the first line of its signature to its closing brace
(the project's style puts both braces of a body in column 0). ALLOW_LIST has one line per
function that was over the limit when the check came in: `path:function lines` (path relative to
SRC_DIR). A listed function fails when it grows past its listed length; one that shrinks to the
limit or below must leave the list (a stale line fails too), so the list only shrinks.
--write rewrites the list from the tree (for a function that shrank, never to admit a new one:
the check then still fails on any function that was not listed before).

Lists each offender (path:line, the function, its length, what it may be) and exits 1."""
import re
import sys
from pathlib import Path

LIMIT = 80
NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
ATTRIBUTE = re.compile(r"__attribute__\s*\(\(.*?\)\)")
ENTRY = re.compile(r"^(\S+):([A-Za-z_][A-Za-z0-9_]*) (\d+)$")


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


def measure(src: Path) -> dict:
    found = {}
    for path in sorted(src.rglob("*.c")):
        for name, line, length in functions(path):
            found[f"{path.relative_to(src)}:{name}"] = (line, length)
    return found


def read_allowed(allow: Path) -> dict:
    allowed = {}
    for number, line in enumerate(allow.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        m = ENTRY.match(line)
        if not m:
            sys.exit(f"{allow}:{number}: '{line}' is not 'path:function lines'")
        allowed[f"{m.group(1)}:{m.group(2)}"] = int(m.group(3))
    return allowed


def main() -> int:
    src, allow = Path(sys.argv[1]), Path(sys.argv[2])
    found, allowed = measure(src), read_allowed(allow)
    if "--write" in sys.argv[3:]:
        header = [line for line in allow.read_text(encoding="utf-8").splitlines() if line.startswith("#")]
        kept = [f"{key} {found[key][1]}" for key in sorted(allowed) if key in found and found[key][1] > LIMIT]
        allow.write_text("\n".join(header + kept) + "\n", encoding="utf-8")
        allowed = read_allowed(allow)
    bad = 0
    for key, (line, length) in sorted(found.items()):
        path = key.split(":")[0]
        cap = allowed.get(key, LIMIT)
        if length > cap:
            why = f"listed at {cap}, may not grow" if key in allowed else f"over {LIMIT}"
            print(f"{src / path}:{line}: {key.split(':')[1]} has {length} lines ({why})")
            bad += 1
    for key, cap in sorted(allowed.items()):
        if key not in found:
            print(f"{allow}: {key} is listed but no longer in the tree: drop its line")
            bad += 1
        elif found[key][1] <= LIMIT:
            print(f"{allow}: {key} has {found[key][1]} lines now, within {LIMIT}: drop its line")
            bad += 1
        elif found[key][1] < cap:
            print(f"{allow}: {key} shrank from {cap} to {found[key][1]} lines: lower its line (--write)")
            bad += 1
    if bad:
        print(f"{len(found)} functions, {bad} against the limit of {LIMIT} lines or the list {allow.name}")
        return 1
    print(f"{len(found)} functions: none over {LIMIT} lines but the {len(allowed)} listed, none grown")
    return 0


if __name__ == "__main__":
    sys.exit(main())
