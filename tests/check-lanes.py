#!/usr/bin/env python3
"""Every CTest test is in one lane: exactly one kind label, one area label, marks only from the list.

    check-lanes.py HELPERS_CMAKE BUILD_DIR

The kinds and marks are tests/helpers.cmake's PST_TEST_KINDS and PST_TEST_MARKS; the tests and
their labels are `ctest --show-only=json-v1` of BUILD_DIR.  Lists each test out of lane and exits 1,
so that `make check` and `ctest -L KIND` never miss a test nobody labelled."""
import json
import re
import subprocess
import sys
from pathlib import Path


def cmake_list(text: str, name: str) -> set[str]:
    match = re.search(rf"^set\({name}\s+([^)]*)\)", text, re.MULTILINE)
    if not match:
        sys.exit(f"check-lanes: no set({name} ...) in the helpers")
    return set(match.group(1).split())


def problems(tests: list[dict], kinds: set[str], marks: set[str]) -> list[str]:
    out = []
    for test in tests:
        labels = next((p["value"] for p in test.get("properties", []) if p["name"] == "LABELS"), [])
        own_kinds = [label for label in labels if label in kinds]
        areas = [label for label in labels if label.startswith("area:")]
        unknown = [label for label in labels if label not in kinds | marks and not label.startswith("area:")]
        if len(own_kinds) != 1:
            out.append(f"{test['name']}: {len(own_kinds)} kind labels {own_kinds} (one of {sorted(kinds)})")
        if len(areas) != 1:
            out.append(f"{test['name']}: {len(areas)} area labels {areas}")
        if unknown:
            out.append(f"{test['name']}: labels {unknown} are neither kinds nor marks")
    return out


def main() -> int:
    helpers = Path(sys.argv[1]).read_text(encoding="utf-8")
    kinds, marks = cmake_list(helpers, "PST_TEST_KINDS"), cmake_list(helpers, "PST_TEST_MARKS")
    listing = subprocess.run(["ctest", "--test-dir", sys.argv[2], "--show-only=json-v1"],
                             capture_output=True, text=True, check=True)
    tests = json.loads(listing.stdout)["tests"]
    bad = problems(tests, kinds, marks)
    for line in bad:
        print(line)
    if bad:
        print(f"{len(tests)} tests, {len(bad)} out of lane (tests/helpers.cmake: pst_kind, pst_mark)")
        return 1
    print(f"{len(tests)} tests: each has one kind and one area")
    return 0


if __name__ == "__main__":
    sys.exit(main())
