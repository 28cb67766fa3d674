#!/usr/bin/env python3
"""The size rules of CONTRIBUTING.md over the whole tree: no C function over 80 lines, no Python
function over 60, no C, Python or shell file over 600 lines (src/, python/, tests/, bench/,
packaging/, scripts/, everywhere git tracks a file; a tree without git: every file but build
output).

    check-function-length.py ROOT

A C function's length counts its lines from the first line of its signature to its closing brace
(the project's style puts both braces of a body in column 0); a Python function's from its def to
its last line.  Lists each offender (path:line, what and its length) and exits 1."""
import ast
import re
import subprocess
import sys
from pathlib import Path

C_LIMIT, PYTHON_LIMIT, FILE_LIMIT = 80, 60, 600
NAME = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
ATTRIBUTE = re.compile(r"__attribute__\s*\(\(.*?\)\)")
SKIP = {".git", ".venv", "build", "dist", "results", "__pycache__", "node_modules"}


def c_functions(lines: list[str]):
    """(name, first line, length) of each function body in column 0 of a C file."""
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


def python_functions(text: str):
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node.lineno, node.end_lineno - node.lineno + 1


def kind(path: Path, first_line: str) -> str | None:
    """c, python or shell by suffix or by #! line; None for other files."""
    if path.suffix in (".c", ".h"):
        return "c"
    if path.suffix == ".py" or (first_line.startswith("#!") and "python" in first_line):
        return "python"
    if path.suffix in (".sh", ".bash", ".sbatch") or (first_line.startswith("#!") and re.search(r"\b(ba)?sh\b", first_line)):
        return "shell"
    return None


def tracked(root: Path) -> list[Path]:
    listing = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=False)
    if listing.returncode == 0:
        return [root / name for name in listing.stdout.decode().split("\0") if name]
    return [p for p in root.rglob("*") if p.is_file() and not SKIP & set(p.relative_to(root).parts)]


def offences(root: Path, path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, FileNotFoundError):
        return []
    lines = text.splitlines()
    what = kind(path, lines[0] if lines else "")
    if what is None:
        return []
    where = path.relative_to(root)
    out = [f"{where}: {len(lines)} lines (over {FILE_LIMIT})"] if len(lines) > FILE_LIMIT else []
    functions, limit = {"c": (c_functions(lines), C_LIMIT), "python": (None, PYTHON_LIMIT)}.get(what, (None, 0))
    if what == "python":
        try:
            functions = python_functions(text)
        except SyntaxError:
            return out  # ruff and the tests report a file that does not parse
    for name, line, length in functions or ():
        if length > limit:
            out.append(f"{where}:{line}: {name} has {length} lines (over {limit})")
    return out


def main() -> int:
    root = Path(sys.argv[1]).resolve()
    files = [p for p in tracked(root) if p.is_file()]
    bad = [line for path in sorted(files) for line in offences(root, path)]
    for line in bad:
        print(line)
    if bad:
        print(f"{len(files)} files, {len(bad)} over the limits (C {C_LIMIT}, Python {PYTHON_LIMIT} lines a function; "
              f"{FILE_LIMIT} a file)")
        return 1
    print(f"{len(files)} files: no function or file over the limits")
    return 0


if __name__ == "__main__":
    sys.exit(main())
