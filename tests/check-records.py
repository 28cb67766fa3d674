#!/usr/bin/env python3
"""Record-content checks for MPI tests: every EXPR must be true.

    check-records.py FILE EXPR...

The run header must come first, all records must share its run_id, no record may hold a key twice
(JSON parsers keep one of them silently), and every record with t_min must have
t_min <= t_med <= t_max and t_min <= t_mean <= t_max.  In an EXPR, all() is false over an empty
sequence, so that a check of every point fails when there are none.  Each EXPR is a Python
expression over `recs` (all records of FILE, parsed), `points` (type
"point"), `summaries` (type "summary"), `latbw` (pingpong's per-mode fit summaries), and `header`.  Prints the failing expressions and exits 1.
"""
import json
import sys


def all_of_some(items) -> bool:
    """all() that is false over nothing: a check of every point must not pass on no points."""
    items = list(items)
    return bool(items) and all(items)


def holds(expr: str, env: dict, strict: bool = True) -> bool:
    """Whether expr holds; strict: its all() is all_of_some (the generic checks, which apply to
    whatever records a run has, keep Python's)."""
    names = {"__builtins__": __builtins__, **({"all": all_of_some} if strict else {})}
    try:
        return bool(eval(expr, names, env))  # noqa: S307 (test input)
    except Exception as exc:  # a missing field or a null where a number belongs is a failure
        print(f"ERROR in {expr}: {exc!r}")
        return False


def unique_keys(pairs: list) -> dict:
    """object_pairs_hook: a key written twice is a defect of the emitter, not a value to pick."""
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"key {key!r} appears twice in one object")
        seen[key] = value
    return seen


def main() -> int:
    path, exprs = sys.argv[1], sys.argv[2:]
    recs = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                recs.append(json.loads(line, object_pairs_hook=unique_keys))
            except ValueError as exc:
                print(f"FAIL: {path}:{number}: {exc}")
                return 1
    env = {
        "recs": recs,
        "points": [r for r in recs if r.get("type") == "point"],
        "summaries": [r for r in recs if r.get("type") == "summary"],
        "header": next((r for r in recs if r.get("type") == "header"), None),
        "latbw": [r for r in recs if r.get("summary") == "latbw"],
    }
    # Always: the run header comes first, one run id, consistent statistics.
    generic = [
        "recs and recs[0]['type'] == 'header'",
        "isinstance(recs[0].get('schema_version'), int) and recs[0]['schema_version'] >= 2",
        "len({r['run_id'] for r in recs}) == 1",
        "all(0 <= p['t_min'] <= p['t_med'] <= p['t_max'] and p['t_min'] <= p['t_mean'] <= p['t_max']"
        " for p in points if 't_min' in p)",
        # Points measured in rounds: the median's interval holds the median, one time per round.
        "all((p['ci_low'] is None or p['ci_low'] <= p['t_med'] <= p['ci_high']) and len(p['round_s']) == p['rounds']"
        " for p in points if 'round_s' in p)",
        # Verdicts: the point estimate is in its best set, and decided means a set of one.
        "all(s['best'] in s['best_set'] and s['decided'] == (len(s['best_set']) == 1)"
        " and len(s['best_set']) <= s['nalternatives'] for s in summaries if 'best_set' in s)",
    ]
    failed = [e for e in generic if not holds(e, env, strict=False)] + [e for e in exprs if not holds(e, env)]
    for e in failed:
        print(f"FAIL: {e}")
    if failed:
        print(f"--- {len(recs)} records in {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
