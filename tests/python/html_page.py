"""What a reader's browser makes of report.html, checked on its parsed structure (stdlib html.parser)."""

import re
from html.parser import HTMLParser

# Markdown that a renderer left as text: bold or emphasis markers around a word, a list's "- " at the
# start of a text run (the run-on paragraph of a list that was not made a list).
LEFT_MARKUP = re.compile(r"\*\*|(?<![\w/.])_[^\s_][^_]*_(?![\w])|(?:^|\n)\s*- \S")


class Page(HTMLParser):
    """The page's <li> texts per <h2> section, its texts outside <code>, and its <img> sources."""

    def __init__(self, text: str):
        super().__init__()
        self.section, self.stack = "", []
        self.items: dict[str, list[str]] = {}
        self.texts: list[str] = []
        self.images: list[str] = []
        self._li: list[str] | None = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        if tag == "li":
            self._li = []
        if tag == "img":
            self.images.append(dict(attrs).get("src") or "")

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass
        if tag == "li" and self._li is not None:
            self.items.setdefault(self.section, []).append("".join(self._li).strip())
            self._li = None

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "h2":
            self.section = data.strip()
        if self._li is not None:
            self._li.append(data)
        if "code" not in self.stack and "style" not in self.stack:
            self.texts.append(data)


def problems(page: Page, bullets: list[str], section: str) -> list[str]:
    """Why page does not show what the Markdown says: the box's bullets not each an <li> of its
    section, Markdown markers left in the text."""
    out = [f"not a list item: {b[:60]}" for b in bullets if b not in page.items.get(section, [])]
    out += [f"markup left in text: {m.group(0)!r}" for t in page.texts for m in LEFT_MARKUP.finditer(t)]
    return out
