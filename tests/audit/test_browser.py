"""The audit's and the report's HTML as a reader sees them, in headless Chromium (Debian's ``chromium``; skipped
where absent).

A copy of each page gets a small script that, once the page has loaded, writes
what a reader would notice into the DOM: the page's width against the window's
at 1,280 px (no horizontal overflow), images that did not load, table-of-contents
links whose target is missing, and script errors, failed loads and console errors. ``--dump-dom`` prints the DOM.
"""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rnglab.audit import audit, from_pipeline, from_toml
from rnglab.audit.render import html
from rnglab.empirical.battery import get_battery
from rnglab.report import build_report

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
DATA = Path(__file__).parents[1] / "data" / "audit"
#: Runs in the page once it has loaded, and appends its findings as JSON in <pre id="audit-check">.
CHECK = """<script>
window.auditErrors = [];
window.addEventListener("error", event => window.auditErrors.push(String(event.message || event.target.src)), true);
const consoleError = console.error;
console.error = (...parts) => { window.auditErrors.push(parts.join(" ")); consoleError(...parts); };
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


#: Images and in-page links each page has at least (the report: 8 figures, a summary and a contents of 12 entries).
EXPECTED = {"deitel-msvc": (2, 14), "sound.toml": (2, 14), "report": (8, 20)}


@pytest.fixture(scope="module", params=list(EXPECTED))
def page(request, tmp_path_factory):
    if request.param == "report":
        folder = tmp_path_factory.mktemp("report") / "quick"
        return request.param, Path(build_report(folder, quick=True).html_path).read_text()
    # The page's layout is checked, not its findings: an hour of seeds and the smallest battery fill every section.
    target = from_pipeline(request.param, "1h") if request.param == "deitel-msvc" else from_toml(DATA / request.param)
    return request.param, html(audit(target, battery=get_battery("smoke"), until_fail_bytes=2**16))


def test_what_a_reader_sees(page, tmp_path):
    name, text = page
    seen = reader_view(text, tmp_path)
    images, links = EXPECTED[name]
    assert seen["windowWidth"] == 1280
    assert seen["pageWidth"] <= seen["windowWidth"] and seen["bodyWidth"] <= seen["windowWidth"]
    assert seen["images"] >= images and seen["unloaded"] == 0
    assert seen["links"] >= links and seen["missing"] == []
    assert seen["errors"] == []


def test_pages_load_nothing_from_elsewhere(page):
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page[1])


def test_a_screenshot_is_taken(page, tmp_path):
    (tmp_path / "page.html").write_text(page[1])
    chromium(f"--screenshot={tmp_path / 'shot.png'}", page=tmp_path / "page.html")
    assert (tmp_path / "shot.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_check_sees_what_goes_wrong(tmp_path):
    # A page with each fault the check looks for: a table wider than the window, an image that does not load,
    # a contents link to no heading, a console error.
    broken = ('<!DOCTYPE html><html><head><title>x</title></head><body><a href="#nowhere">x</a>'
              '<table style="width:3000px"><tr><td>wide</td></tr></table><img src="missing.png" alt="">'
              '<script>console.error("boom")</script></body></html>')
    seen = reader_view(broken, tmp_path)
    assert seen["pageWidth"] > seen["windowWidth"] and seen["unloaded"] == 1
    assert seen["missing"] == ["nowhere"] and "boom" in seen["errors"]
