#!/usr/bin/env python3
"""The record schema seen from outside the C code.

  check-schema.py SRC_DIR PSTSWM [--write]

Runs `pstswm schema --json` and `--markdown` (which self-check the schema first) and checks that
  - docs/records.md is the Markdown the binary renders;
  - python/pstlab/io/schema.json, pstlab's copy, holds the same schema.
--write regenerates both.  Records themselves are checked against the schema as pstswm writes
them, and the pytest suite checks the stored fixtures against pstlab's copy."""

import json
import subprocess
import sys
from pathlib import Path


def run(pstswm: str, flag: str) -> str:
    out = subprocess.run([pstswm, "schema", flag], capture_output=True, text=True, timeout=60)
    if out.returncode:
        sys.exit(f"FAIL: pstswm schema {flag} exited {out.returncode}: {out.stderr}")
    return out.stdout


def main() -> int:
    src, pstswm = Path(sys.argv[1]), sys.argv[2]
    write = "--write" in sys.argv[3:]
    schema = json.loads(run(pstswm, "--json"))
    markdown = run(pstswm, "--markdown")
    targets = (
        (src / "docs" / "records.md", markdown, lambda text: text == markdown),
        (src / "python" / "pstlab" / "io" / "schema.json", json.dumps(schema, indent=1) + "\n",
         lambda text: json.loads(text) == schema),
    )
    fail = 0
    for path, wanted, same in targets:
        if write:
            path.write_text(wanted)
            print(f"wrote {path.relative_to(src)}")
        elif not path.exists() or not same(path.read_text()):
            print(f"FAIL: {path.relative_to(src)} differs from `pstswm schema`: run tests/check-schema.py {src} {pstswm} --write")
            fail = 1
    if not fail and not write:
        print(f"ok: docs/records.md and python/pstlab/io/schema.json match schema version {schema['schema_version']} "
              f"({len(schema['records'])} records, {len(schema['groups'])} field groups)")
    return fail


if __name__ == "__main__":
    sys.exit(main())
