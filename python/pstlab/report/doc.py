"""A report as data (sections of text, tables and figures) and its Markdown / HTML renderings.

The same Section objects feed report.md, the self-contained report.html (PNGs embedded as
base64) and compare's pages, so every table reads the same everywhere.
"""

import base64
import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt

from pstlab.core import paths

# ---------------------------------------------------------------- report structure


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[str]]
    note: str = ""


@dataclass
class Figure:
    name: str  # file stem, unique within a report
    caption: str
    png: bytes


@dataclass
class Text:
    markdown: str  # CommonMark: paragraphs, "- " lists, **bold**, _emphasis_, `code`, "\\" line breaks


@dataclass
class Details:
    """Blocks folded under a one-line summary (<details>): full lists that back a short name.

    html_only: the blocks are detail a reader of report.md can do without (it keeps the answers and
    the tables they need, in at most 300 lines); there they are one line naming what report.html holds."""

    summary: str
    blocks: list[Table | Figure | Text]
    html_only: bool = False


@dataclass
class Section:
    title: str
    blocks: list[Table | Figure | Text | Details] = field(default_factory=list)

    def add(self, *blocks: Table | Figure | Text | Details | None) -> None:
        self.blocks.extend(b for b in blocks if b is not None)


# ---------------------------------------------------------------- Markdown


def _md_cell(s: str) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def table_md(t: Table) -> str:
    """The title and its note in one paragraph above the table (a report of many tables stays short)."""
    lines = [f"**{t.title}.**" + (f" _{t.note}_" if t.note else ""), ""]
    lines.append("| " + " | ".join(map(_md_cell, t.columns)) + " |")
    lines.append("|" + "|".join("---" for _ in t.columns) + "|")
    lines += ["| " + " | ".join(map(_md_cell, row)) + " |" for row in t.rows]
    return "\n".join(lines)


def anchor(title: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def _block_md(b: Table | Figure | Text | Details, plot_dir: str) -> str:
    if isinstance(b, Table):
        return table_md(b)
    if isinstance(b, Figure):
        return f"![{b.caption}]({plot_dir}/{b.name}.png)"
    if isinstance(b, Details) and b.html_only:
        return f"_{b.summary}: folded in report.html._"
    if isinstance(b, Details):
        inner = "\n\n".join(_block_md(x, plot_dir) for x in b.blocks)
        return f"<details><summary>{html.escape(b.summary)}</summary>\n\n{inner}\n\n</details>"
    return b.markdown


def to_markdown(title: str, intro: str, sections: list[Section], plot_dir: str, contents: bool = False) -> str:
    out = [f"# {title}", "", intro, ""]
    if contents:
        out += ["Contents: " + " · ".join(f"[{s.title.split(' (')[0]}](#{anchor(s.title)})" for s in sections), ""]
    for s in sections:
        out.append(f"## {s.title}")  # a paragraph may follow a heading directly: one line per section saved
        for prev, b in zip([None, *s.blocks], s.blocks, strict=False):
            if isinstance(prev, Figure) and isinstance(b, Figure):  # side by side, as the page shows them
                out[-2] += " " + _block_md(b, plot_dir)
            else:
                out += [_block_md(b, plot_dir), ""]
    return "\n".join(out)


def flat(blocks: list[Table | Figure | Text | Details]) -> list[Table | Figure | Text]:
    """The blocks with every folded section opened: what a report holds, folded or not."""
    return [x for b in blocks for x in (flat(b.blocks) if isinstance(b, Details) else [b])]


def write_figures(sections: list[Section], directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for s in sections:
        for b in flat(s.blocks):
            if isinstance(b, Figure):
                paths.write_atomic(directory / f"{b.name}.png", b.png)


# ---------------------------------------------------------------- HTML

_CSS = """
body { font-family: system-ui, sans-serif; max-width: 75rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { border-bottom: 2px solid #345; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5rem 0 0.3rem; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.55rem; text-align: left; }
th { background: #eef2f6; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: 0.3rem 0; }
.note { font-size: 0.85rem; color: #555; margin: 0 0 1.2rem; }
figure { margin: 1rem 0 2rem; } figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.85rem; color: #555; } code { background: #f3f3f3; padding: 0 0.2rem; }
"""


# CommonMark as GitHub shows report.md, tables on; raw HTML in the text is escaped, not passed through.
_MARKDOWN = MarkdownIt("commonmark", {"html": False, "xhtmlOut": False}).enable("table")


def _inline(text: str) -> str:
    """One line of Markdown (a caption, a title, a note) as HTML, without an enclosing <p>."""
    return _MARKDOWN.renderInline(text)


def _markdown_html(text: str) -> str:
    """Markdown blocks (paragraphs, lists) as HTML."""
    return _MARKDOWN.render(text).strip()


# Numbers, percentages and sizes (1,234  -0.5  +12%  2.1e-05  128K) are right-aligned.
_NUMERIC = re.compile(r"^[+-]?[\d,]*\.?\d+(e[+-]?\d+)?[%KMG]?$|^–$")


def _td(cell: str) -> str:
    cls = ' class="num"' if _NUMERIC.match(str(cell)) else ""
    return f"<td{cls}>{html.escape(str(cell))}</td>"


def table_html(t: Table) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in t.columns)
    body = "".join("<tr>" + "".join(_td(c) for c in row) + "</tr>" for row in t.rows)
    note = f'<p class="note">{_inline(t.note)}</p>' if t.note else ""
    return f"<table><caption>{_inline(t.title)}</caption><tr>{head}</tr>{body}</table>{note}"


def figure_html(f: Figure) -> str:
    data = base64.b64encode(f.png).decode("ascii")
    return (
        f'<figure><img alt="{html.escape(f.caption)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{_inline(f.caption)}</figcaption></figure>"
    )


def _block_html(b: Table | Figure | Text | Details) -> list[str]:
    if isinstance(b, Table):
        return [table_html(b)]
    if isinstance(b, Figure):
        return [figure_html(b)]
    if isinstance(b, Details):
        inner = [part for x in b.blocks for part in _block_html(x)]
        return [f"<details><summary>{html.escape(b.summary)}</summary>", *inner, "</details>"]
    return [_markdown_html(b.markdown)]


def to_html(title: str, intro: str, sections: list[Section], contents: bool = False) -> str:
    """One self-contained page: inline CSS, figures as data: URIs, no external references."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        _markdown_html(intro),
    ]
    if contents:
        links = " · ".join(f'<a href="#{anchor(s.title)}">{html.escape(s.title.split(" (")[0])}</a>' for s in sections)
        parts.append(f"<p>Contents: {links}</p>")
    for s in sections:
        parts.append(f'<h2 id="{anchor(s.title)}">{html.escape(s.title)}</h2>')
        for b in s.blocks:
            parts += _block_html(b)
    parts.append("</body></html>")
    return "\n".join(parts)
