#!/usr/bin/env python3
"""The docs as a reader meets them.

    check-docs.py REPO_DIR [--pstrun PSTRUN --pstswm PSTSWM --mpi MPI]

Over README.md, CONTRIBUTING.md and docs/**/*.md:
  - every relative Markdown link names a file that exists, and every #anchor a heading of it;
  - code fences are balanced (an unclosed fence renders the rest of a page as code);
  - README.md is at most 150 lines;
  - outside docs/notes/ (the dated record of experiments) no date and no commit id: a guide must
    stay true when the code moves on, so what was measured when belongs in the notes;
  - with --pstswm: the protocol and alternative counts the docs state are this build's, measured
    by a tiny `pstswm kernel` run (its points are the alternatives an algorithm gets) and checked
    against `pstswm kernel --list --json` (the algorithm it runs is in the registry).
Each problem is printed as file:line; the exit code is 1 if there is any."""

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

README_MAX_LINES = 150
# Bibliographic dates are publication dates, not measurement dates.
DATE_EXEMPT = {"docs/references.md"}
MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
DATE_PATTERNS = [
    re.compile(r"\b(?:19|20)\d\d-[01]\d-[0-3]\d\b"),  # 2026-11-26
    re.compile(r"\b20\d\d[01]\d[0-3]\d-\d{6}\b"),  # a results directory's 20261126-155945
    re.compile(rf"\b{MONTH} (?:[0-3]?\d,? )?(?:19|20)\d\d\b"),  # Nov 2026, November 26, 2026
    re.compile(rf"\b[0-3]?\d {MONTH} (?:19|20)\d\d\b"),  # 26 Nov 2026
]
# A commit id: 7-40 hex digits standing alone, with both a digit and a letter (so neither a
# number nor a word like "defaced"), and not a number in exponent notation (37122e6).
HEX_TOKEN = re.compile(r"(?<![\w.])[0-9a-f]{7,40}(?![\w])")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


# Count claims: (file, pattern whose group 1 is the number, quantity, the MPI the figure is for).
# A space in a pattern matches any run of white space, so re-wrapping a paragraph keeps its claim.
# Figures stated for another MPI than the build's are left for that build's run of this test.
def claim(pattern: str) -> re.Pattern:
    return re.compile(pattern.replace(" ", r"\s+"))


STATS, KERNEL = "docs/statistics.md", "docs/kernel.md"
COUNT_CLAIMS = [
    (STATS, claim(r"\| (\d+) \(swap, every protocol\)"), "protocols", "openmpi"),
    (STATS, claim(r"\| (\d+) \(kernel, protocols × overlap\)"), "alternatives", "openmpi"),
    (KERNEL, claim(r"With Open MPI [\d.]+ the two-sided catalogue has (\d+) protocols"), "protocols", "openmpi"),
    (KERNEL, claim(r"each hand-written algorithm (\d+) alternatives"), "alternatives", "openmpi"),
    (KERNEL, claim(r"partitioned communication, (\d+) protocols"), "protocols", "mpich"),
    (KERNEL, claim(r"partitioned communication, \d+ protocols and (\d+) alternatives"), "alternatives", "mpich"),
    (KERNEL, claim(r"every protocol on 2 ranks \((\d+) with Open MPI"), "protocols", "openmpi"),
    (KERNEL, claim(r"every protocol on 2 ranks \(\d+ with Open MPI [\d.]+, (\d+) with MPICH"), "protocols", "mpich"),
]


def docs_files(repo: Path) -> list[Path]:
    return [repo / "README.md", repo / "CONTRIBUTING.md", *sorted((repo / "docs").rglob("*.md"))]


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, markup and punctuation dropped, spaces to '-'."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    text = text.lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def closes(fence: str, m: re.Match) -> bool:
    """Does the fence line m close the fence opened by `fence` (CommonMark: same character, at
    least as long, no info string)?"""
    return m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2).strip()


def fence_lines(text: str):
    """(number, line, inside) per line; fence lines themselves count as inside."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if m and fence is None:
            fence = m.group(1)
            yield number, line, True, fence
        elif m and closes(fence, m):
            fence = None
            yield number, line, True, None
        else:
            yield number, line, fence is not None, fence


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(number, line) outside code fences."""
    return [(number, line) for number, line, inside, _ in fence_lines(text) if not inside]


def anchors(path: Path, cache: dict) -> set[str]:
    if path not in cache:
        found, seen = set(), {}
        for _, line in prose_lines(path.read_text(encoding="utf-8")):
            m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                a = anchor(m.group(1))
                n = seen.get(a, 0)
                seen[a] = n + 1
                found.add(a if n == 0 else f"{a}-{n}")
        cache[path] = found
    return cache[path]


def check_fences(rel: str, text: str) -> list[str]:
    opened, fence = 0, None
    for number, _, _, now in fence_lines(text):
        if now is not None and fence is None:
            opened = number
        fence = now
    return [f"{rel}:{opened}: code fence opened here is never closed"] if fence else []


def check_links(repo: Path, path: Path, text: str, cache: dict) -> list[str]:
    rel, problems = path.relative_to(repo), []
    for number, line in prose_lines(text):
        for m in LINK.finditer(re.sub(r"`[^`]*`", "", line)):  # inline code is not a link
            target = m.group(1) or m.group(2)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
                continue
            file_part, _, frag = target.partition("#")
            dest = (path.parent / file_part).resolve() if file_part else path
            if not dest.exists():
                problems.append(f"{rel}:{number}: link to a missing file: {target}")
            elif frag and dest.suffix == ".md" and frag not in anchors(dest, cache):
                problems.append(f"{rel}:{number}: link to a missing anchor: {target}")
    return problems


def check_dates_and_ids(rel: str, text: str) -> list[str]:
    problems = []
    for number, line in enumerate(text.split("\n"), 1):
        for p in DATE_PATTERNS:
            for m in p.finditer(line):
                problems.append(f"{rel}:{number}: a date ('{m.group(0)}') outside docs/notes/")
        for m in HEX_TOKEN.finditer(line):
            tok = m.group(0)
            if re.search(r"\d", tok) and re.search(r"[a-f]", tok) and not re.fullmatch(r"\d+e\d+", tok):
                problems.append(f"{rel}:{number}: a commit id ('{tok}') outside docs/notes/")
    return problems


def build_counts(pstrun: str, pstswm: str, mpi: str) -> tuple[dict, list[str]]:
    """The protocols and the alternatives per algorithm of this build, from a tiny kernel run."""
    listing = subprocess.run(
        [pstswm, "kernel", "--list", "--json"], capture_output=True, text=True, timeout=60, check=False
    )
    if listing.returncode:
        return {}, [f"pstswm kernel --list --json exited {listing.returncode}: {listing.stderr.strip()}"]
    registry = {a["name"]: a for a in json.loads(listing.stdout)["algorithms"]}
    algorithm = "ringsum"
    if algorithm not in registry or registry[algorithm]["collective"]:
        return {}, [f"the registry has no hand-written '{algorithm}' to count alternatives with"]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "kernel.jsonl"
        run = subprocess.run(
            [
                pstrun,
                "--mpi",
                mpi,
                "-n",
                "2",
                pstswm,
                "kernel",
                "--stages",
                "legendre",
                "--algorithms",
                algorithm,
                "--trunc",
                "4",
                "--levels",
                "1",
                "--reps",
                "1",
                "--warmup",
                "0",
                "--noise-probe",
                "0",
                "--out",
                str(out),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if run.returncode:
            return {}, [f"the counting kernel run exited {run.returncode}: {run.stderr.strip()[:300]}"]
        records = [json.loads(line) for line in out.read_text().splitlines()]
    points = [r for r in records if r["type"] == "point" and r["algorithm"] == algorithm]
    summary = next(r for r in records if r.get("summary") == "sensitivity" and r["algorithm"] == algorithm)
    if summary["nalternatives"] != len(points):
        return {}, [f"the kernel's summary counts {summary['nalternatives']} alternatives, its points {len(points)}"]
    return {"protocols": len({p["protocol"] for p in points}), "alternatives": len(points)}, []


def check_counts(repo: Path, counts: dict, mpi: str) -> list[str]:
    problems, claimed = [], {}
    for rel, pattern, quantity, claim_mpi in COUNT_CLAIMS:
        text = (repo / rel).read_text(encoding="utf-8")
        for m in pattern.finditer(text):
            number = text.count("\n", 0, m.start(1)) + 1
            claimed[rel] = claimed.get(rel, 0) + 1
            if claim_mpi == mpi and int(m.group(1)) != counts[quantity]:
                problems.append(
                    f"{rel}:{number}: states {m.group(1)} {quantity} for {claim_mpi}; "
                    f"this build has {counts[quantity]}"
                )
    for rel in sorted({c[0] for c in COUNT_CLAIMS}):
        if not claimed.get(rel):
            problems.append(
                f"{rel}: states no protocol or alternative count this check recognises "
                "(reworded? update COUNT_CLAIMS in tests/check-docs.py)"
            )
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("repo", type=Path)
    ap.add_argument("--pstrun")
    ap.add_argument("--pstswm")
    ap.add_argument("--mpi", default="openmpi")
    args = ap.parse_args()
    repo = args.repo.resolve()
    problems, cache = [], {}
    readme_lines = (repo / "README.md").read_text(encoding="utf-8").count("\n")
    if readme_lines > README_MAX_LINES:
        problems.append(f"README.md: {readme_lines} lines; a README that is read has at most {README_MAX_LINES}")
    for path in docs_files(repo):
        rel = str(path.relative_to(repo))
        text = path.read_text(encoding="utf-8")
        problems += check_fences(rel, text)
        problems += check_links(repo, path, text, cache)
        if not rel.startswith("docs/notes/") and rel not in DATE_EXEMPT:
            problems += check_dates_and_ids(rel, text)
    if args.pstswm:
        counts, errors = build_counts(args.pstrun, args.pstswm, args.mpi)
        problems += errors or check_counts(repo, counts, args.mpi)
        if counts:
            print(
                f"this build ({args.mpi}): {counts['protocols']} protocols, "
                f"{counts['alternatives']} alternatives per algorithm"
            )
    for p in problems:
        print(p)
    print(f"FAIL: {len(problems)} problem(s) in the docs" if problems else "docs: OK")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
