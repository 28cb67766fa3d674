#!/usr/bin/env python3
"""Record-content checks for MPI tests: every EXPR must be true.

    check-records.py FILE EXPR...

Each EXPR is a Python expression over `recs` (all records of FILE, parsed), `points` (type
"point"), `summaries` (type "summary"), and `header`.  Prints the failing expressions and exits 1.
"""
import json
import sys


def holds(expr: str, env: dict) -> bool:
    try:
        return bool(eval(expr, {"__builtins__": __builtins__}, env))  # noqa: S307 (test input)
    except Exception as exc:  # a missing field or a null where a number belongs is a failure
        print(f"ERROR in {expr}: {exc!r}")
        return False


def main() -> int:
    path, exprs = sys.argv[1], sys.argv[2:]
    with open(path, encoding="utf-8") as f:
        recs = [json.loads(line) for line in f if line.strip()]
    env = {
        "recs": recs,
        "points": [r for r in recs if r.get("type") == "point"],
        "summaries": [r for r in recs if r.get("type") == "summary"],
        "header": next((r for r in recs if r.get("type") == "header"), None),
    }
    failed = [e for e in exprs if not holds(e, env)]
    for e in failed:
        print(f"FAIL: {e}")
    if failed:
        print(f"--- {len(recs)} records in {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
