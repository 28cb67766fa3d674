"""Number formatting (pstlab.core.units) and the Markdown / HTML renderings."""

from pstlab.core import units
from pstlab.report import doc


def test_number_formats():
    assert units.fmt_bytes(8) == "8"
    assert units.fmt_bytes(8192) == "8K"
    assert units.fmt_bytes(2 << 20) == "2M"
    assert units.fmt_bytes(1536 << 10) == "1536K"
    assert units.fmt_bytes(1000) == "1000"
    assert units.fmt_bytes(None) == "–"
    assert units.fmt_num(1234.5, 4) == "1,234"
    assert units.fmt_num(0.000123) == "1.23e-04"
    assert units.fmt_num(2.5) == "2.50"
    assert units.fmt_us(2.5e-6) == "2.50"
    assert units.fmt_ms(0.0123) == "12.3"
    assert units.fmt_pct(0.123) == "12%"
    assert units.fmt_pct(0.05, signed=True) == "+5%"
    assert units.fmt_pct(None) == "–"


def test_markdown_table_escapes_pipes():
    t = doc.Table("T", ["a", "b"], [["x|y", "2"]], "a note")
    md = doc.table_md(t)
    assert "| x\\|y | 2 |" in md
    assert "_a note_" in md


def test_html_is_self_contained_and_escaped():
    fig = doc.Figure("f", "a <caption>", b"\x89PNG fake")
    sec = doc.Section("S <1>", [doc.Table("T", ["<b>"], [["&"]]), fig, doc.Text("**bold** and `code`")])
    page = doc.to_html("Title", "intro", [sec])
    assert "data:image/png;base64," in page
    assert "&lt;b&gt;" in page and "&amp;" in page and "S &lt;1&gt;" in page
    assert "<strong>bold</strong>" in page and "<code>code</code>" in page
    for external in ("http://", "https://", "<script", "<link"):
        assert external not in page


def test_markdown_references_plot_files(tmp_path):
    fig = doc.Figure("plot-a", "cap", b"png")
    sec = doc.Section("S", [fig])
    md = doc.to_markdown("T", "i", [sec], "plots")
    assert "![cap](plots/plot-a.png)" in md
    doc.write_figures([sec], tmp_path / "plots")
    assert (tmp_path / "plots" / "plot-a.png").read_bytes() == b"png"
