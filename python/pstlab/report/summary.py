"""The terminal summary printed at the end of `make run`: the headline figures, the verdict box, the report path.

Every line fits in MAX_LINE characters; `pstlab summary --json` prints the box's verdicts instead.
"""

import json
from pathlib import Path

from pstlab.analysis import box
from pstlab.io.records import RecordSet, load
from pstlab.report.report import default_out
from pstlab.report.sections.common import MAX_LINE
from pstlab.report.sections.registry import REPORTED


def clip(line: str) -> str:
    """A line cut to MAX_LINE with '…' (names from a manifest can be long; figures are built to fit)."""
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…"


def lines(rs: RecordSet) -> list[str]:
    out = []
    if m := rs.manifest:
        statuses = [e.get("status") for e in m.get("experiments", [])]
        counts = ", ".join(
            f"{statuses.count(s)} {s}" for s in ("done", "skipped", "failed", "pending") if s in statuses
        )
        out.append(f"suite {m.get('suite')} with {m.get('mpi')}: {len(statuses)} experiments ({counts})")
        out += [
            f"  skipped {e['name']}: {e.get('reason', '')}"
            for e in m.get("experiments", [])
            if e.get("status") == "skipped"
        ]
        out += [
            f"  FAILED {e['name']}: {e.get('reason', '')}"
            for e in m.get("experiments", [])
            if e.get("status") == "failed"
        ]
    for bench, section in REPORTED:
        if rs.has(bench.BENCH):
            out += section.headline(rs)
    return out


def render(path: str | Path) -> str:
    rs = load(path)
    text = [f"== pstswm results: {rs.label()} =="]
    text += lines(rs)
    text += ["", "== verdicts (paired; ⚠ = from an oversubscribed or noisy run) ==", *box.build(rs).lines()]
    html = default_out(Path(path)) / "report.html"
    if html.is_file():
        where = f"report: {html.resolve()}"
        text.append(f"{where} (self-contained; report.md and plots/ beside it)" if len(where) < 70 else where)
    return "\n".join(clip(line) for line in text)


def render_json(path: str | Path) -> str:
    return json.dumps(box.build(load(path)).to_json(), indent=2, ensure_ascii=False)


def add_parser(sub, name: str, summary: str) -> None:
    p = sub.add_parser(name, help=summary)
    p.add_argument("results", help="a results directory (or one .jsonl file)")
    p.add_argument("--json", action="store_true", help="print the verdict box's paired verdicts as JSON")


def command(args) -> int:
    print(render_json(args.results) if args.json else render(args.results))
    return 0
