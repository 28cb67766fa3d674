#!/usr/bin/env python3
"""Check a pstswm JSONL file: every line is a JSON object, the first is the run header, all
records share its run_id, and record counts match expectations.

usage: check-records.py FILE BENCH [type=N ...] [field=value ...]
  type=N        exactly N records of that type (e.g. point=62)
  field=value   every point record has this field value (string compare)
  all.field=value  every record, the header included, has this field value
"""
import json
import sys


def main() -> int:
    path, bench, *expect = sys.argv[1:]
    with open(path, encoding="utf-8") as f:
        recs = [json.loads(line) for line in f]
    errors = []
    if not recs or recs[0].get("type") != "header":
        errors.append("first record is not the run header")
    run_ids = {r.get("run_id") for r in recs}
    if len(run_ids) != 1:
        errors.append(f"records carry {len(run_ids)} run ids")
    for r in recs:
        if r.get("bench") != bench:
            errors.append(f"record of bench {r.get('bench')!r}, expected {bench!r}")
            break
    points = [r for r in recs if r.get("type") == "point"]
    for item in expect:
        key, value = item.split("=", 1)
        if key in ("header", "point", "summary"):
            n = sum(r.get("type") == key for r in recs)
            if n != int(value):
                errors.append(f"{n} {key} records, expected {value}")
        else:
            scope, kind = (recs, "") if key.startswith("all.") else (points, "point ")
            key = key.removeprefix("all.")
            bad = [r for r in scope if str(r.get(key)).lower() != value.lower()]
            if bad:
                errors.append(f"{len(bad)} {kind}records with {key} != {value}")
    for r in points:
        for k in ("t_min", "t_med", "t_mean", "t_max", "reps"):
            if k not in r:
                errors.append(f"point record without {k}")
                break
        else:
            if not (0 < r["t_min"] <= r["t_med"] <= r["t_max"]) or not r["t_min"] <= r["t_mean"] <= r["t_max"]:
                errors.append(f"inconsistent statistics in {r}")
    for e in errors:
        print(f"{path}: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
