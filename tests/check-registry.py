#!/usr/bin/env python3
"""The algorithm registry seen from outside the C code.

  check-registry.py SRC_DIR PSTSWM [--write]

Runs `pstswm kernel --list --json` and checks that
  - pstlab's fallback (python/pstlab/algorithms.py BUILTIN_ROWS, for result directories whose
    header has no registry) still holds: each of its rows is in the registry, in the same order,
    with the same family, stages and collective;
  - docs/kernel.md's algorithm table is the one generated from it (--write regenerates it).
Adding an algorithm is its file and its row; this test then names what to regenerate."""

import json
import subprocess
import sys
from pathlib import Path

BEGIN = "<!-- algorithms: generated from the registry by tests/check-registry.py --write; do not edit -->"
END = "<!-- /algorithms -->"


def table(rows: list[dict]) -> str:
    lines = [
        "| algorithm | stages | equivalent to | messages per rank | how | MPI standard |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        name = f"`{r['name']}`" + (f" (`coll` in the {' and '.join(r['coll_for'])} stage)" if r["coll_for"] else "")
        how = r["summary"] + (f"; needs {r['needs']}" if r["needs"] else "")
        standard = r.get("standard") or "–"
        lines.append(f"| {name} | {', '.join(r['stages'])} | {r['equivalent']} | {r['messages']} | {how} | {standard} |")
    return "\n".join(lines)


def main() -> int:
    src, pstswm = Path(sys.argv[1]), sys.argv[2]
    write = "--write" in sys.argv[3:]
    out = subprocess.run([pstswm, "kernel", "--list", "--json"], capture_output=True, text=True, timeout=60)
    if out.returncode:
        print(f"FAIL: pstswm kernel --list --json exited {out.returncode}: {out.stderr}")
        return 1
    rows = json.loads(out.stdout)["algorithms"]
    fail = 0

    sys.path.insert(0, str(src / "python"))
    from pstlab.io.algorithms import BUILTIN_ROWS

    # The fallback describes directories written before headers carried the registry: each of its
    # rows must still exist unchanged and in the same order; later algorithms need no fallback.
    keys = ("name", "family", "stages", "collective")
    seen = [{k: r[k] for k in keys} for r in rows]
    fallback = [{k: r[k] for k in keys} for r in BUILTIN_ROWS]
    kept = [r for r in seen if r["name"] in {f["name"] for f in fallback}]
    if kept != fallback:
        print("FAIL: python/pstlab/algorithms.py BUILTIN_ROWS no longer matches the binary's registry:")
        print("  binary:  ", kept)
        print("  pstlab:  ", fallback)
        fail = 1

    doc = src / "docs" / "kernel.md"
    text = doc.read_text()
    if BEGIN not in text or END not in text:
        print(f"FAIL: {doc} has no generated algorithm table ({BEGIN} ... {END})")
        return 1
    head, rest = text.split(BEGIN, 1)
    old, tail = rest.split(END, 1)
    new = f"\n{table(rows)}\n"
    if old != new:
        if write:
            doc.write_text(head + BEGIN + new + END + tail)
            print(f"{doc}: algorithm table regenerated")
        else:
            print(f"FAIL: {doc}'s algorithm table is not the registry's; run: tests/check-registry.py . {pstswm} --write")
            fail = 1
    if not fail:
        print(f"registry: {len(rows)} algorithms; pstlab's fallback holds and docs/kernel.md is current")
    return fail


if __name__ == "__main__":
    sys.exit(main())
