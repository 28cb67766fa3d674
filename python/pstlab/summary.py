"""The terminal summary printed at the end of `make run`: the headline figures and the report path."""

from pathlib import Path

from pstlab.records import RecordSet, load
from pstlab.report import default_out
from pstlab.sections import BENCHES


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
    for bench in BENCHES:
        if rs.has(bench.BENCH):
            out += bench.headline(rs)
    return out


def render(path: str | Path) -> str:
    rs = load(path)
    text = [f"== pstswm results: {rs.label()} =="]
    text += lines(rs)
    html = default_out(Path(path)) / "report.html"
    if html.is_file():
        text.append(f"report: {html.resolve()} (self-contained; report.md and plots/ beside it)")
    return "\n".join(text)
