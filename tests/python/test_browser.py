"""report.html in a real browser: headless Chromium (Debian's chromium, which scripts/dev/setup.sh
installs) loads the page and counts its images that decoded and its list items."""

import gzip
import json
import re
import shutil
import subprocess

import pytest

import html_page
from conftest import FIXTURES
from pstlab.report import report

# Run once the page has loaded: what the browser made of it, written where --dump-dom shows it.
PROBE = """<script>addEventListener("load", () => { const imgs = [...document.images];
document.body.dataset.check = JSON.stringify({images: imgs.length,
  decoded: imgs.filter(i => i.complete && i.naturalWidth > 0).length,
  items: document.querySelectorAll("li").length}); });</script>"""


def browser_view(page: str, tmp_path) -> dict:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.fail("no chromium on PATH: scripts/dev/setup.sh installs Debian's chromium package")
    probed = tmp_path / "probed.html"
    probed.write_text(page.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    argv = [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--user-data-dir=" + str(tmp_path / "profile"),
    ]
    dom = subprocess.run(
        [*argv, "--virtual-time-budget=5000", "--dump-dom", probed.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    found = re.search(r'data-check="([^"]*)"', dom)
    assert found, "the page did not finish loading in the browser"
    return json.loads(found.group(1).replace("&quot;", '"'))


def test_the_report_loads_in_headless_chromium_with_its_figures_and_lists(tmp_path):
    results = tmp_path / "quick"
    results.mkdir()
    for gz in (FIXTURES / "quick").glob("*.gz"):
        (results / gz.name.removesuffix(".gz")).write_bytes(gzip.decompress(gz.read_bytes()))
    _, html_path = report.write(results, tmp_path / "report")
    page = html_path.read_text()
    parsed = html_page.Page(page)
    seen = browser_view(page, tmp_path)
    assert seen["images"] == len(parsed.images) > 0 and seen["decoded"] == seen["images"]
    assert seen["items"] == sum(map(len, parsed.items.values())) > 0


def test_the_browser_check_sees_a_broken_figure(tmp_path):
    """The check can fail: an image whose data does not decode is counted as not loaded."""
    page = '<!DOCTYPE html><html><body><ul><li>x</li></ul><img src="data:image/png;base64,AAAA"></body></html>'
    seen = browser_view(page, tmp_path)
    assert seen == {"images": 1, "decoded": 0, "items": 1}
