"""The audit's HTML as a reader sees it, in headless Chromium (Debian's ``chromium``; skipped where absent).

A copy of each page gets a small script that, once the page has loaded, writes
what a reader would notice into the DOM: the page's width against the window's
at 1,280 px (no horizontal overflow), images that did not load, table-of-contents
links whose target is missing, and script errors. ``--dump-dom`` prints the DOM.
"""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rnglab.audit import audit, from_pipeline, from_toml
from rnglab.audit.render import html

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
DATA = Path(__file__).parent / "data" / "audit"
#: Runs in the page once it has loaded, and appends its findings as JSON in <pre id="audit-check">.
CHECK = """<script>
window.auditErrors = [];
window.addEventListener("error", event => window.auditErrors.push(String(event.message)));
window.addEventListener("load", () => {
  const links = [...document.querySelectorAll('a[href^="#"]')].map(a => a.getAttribute("href").slice(1));
  const found = {
    pageWidth: document.documentElement.scrollWidth, bodyWidth: document.body.scrollWidth,
    windowWidth: document.documentElement.clientWidth,
    images: document.images.length,
    unloaded: [...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).length,
    links: links.length, missing: links.filter(id => !document.getElementById(id)),
    errors: window.auditErrors};
  const pre = document.createElement("pre");
  pre.id = "audit-check";
  pre.textContent = JSON.stringify(found);
  document.body.appendChild(pre);
});
</script>"""


def chromium(*options: str, page: Path) -> subprocess.CompletedProcess:
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--window-size=1280,1000", "--virtual-time-budget=5000", *options, page.as_uri()],
                          capture_output=True, text=True, timeout=120, check=False)


def reader_view(page_html: str, folder: Path) -> dict:
    page = folder / "checked.html"
    page.write_text(page_html.replace("</head>", CHECK + "</head>", 1))
    dom = chromium("--dump-dom", page=page).stdout
    match = re.search(r'<pre id="audit-check">(.*?)</pre>', dom, re.DOTALL)
    assert match, f"the check did not run; chromium printed {dom[:300]!r}"
    return json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&"))


@pytest.fixture(scope="module", params=["deitel-msvc", "sound.toml"])
def page(request):
    target = from_pipeline(request.param) if request.param == "deitel-msvc" else from_toml(DATA / request.param)
    return html(audit(target, search_seconds=0.5))


def test_what_a_reader_sees(page, tmp_path):
    seen = reader_view(page, tmp_path)
    assert seen["windowWidth"] == 1280
    assert seen["pageWidth"] <= seen["windowWidth"] and seen["bodyWidth"] <= seen["windowWidth"]
    assert seen["images"] >= 2 and seen["unloaded"] == 0
    assert seen["links"] >= 14 and seen["missing"] == []
    assert seen["errors"] == []


def test_a_screenshot_is_taken(page, tmp_path):
    (tmp_path / "page.html").write_text(page)
    chromium(f"--screenshot={tmp_path / 'shot.png'}", page=tmp_path / "page.html")
    assert (tmp_path / "shot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
