"""rnglab.pages: the one Jinja2 machinery of the report and the audit (numbers, cells, escaping, the report's page)."""

import json
import math
import re

import numpy as np
import pytest

from rnglab.pages import Mark, cell_text, is_numeric, render
from rnglab.pages.numbers import Exact, power
from rnglab.report import build_report
from rnglab.report.document import Heading, Section, Table, slug


@pytest.mark.parametrize(("value", "text"), [
    (5, "5"), (999_999, "999,999"), (10**6, "2^19.93"), (2**31 - 2, "2^31 - 2"), (2**32, "2^32"),
    (2**48 + 5, "2^48 + 5"), (2**19937 - 1, "2^19937 - 1"), (3 * 2**40, "2^41.58"),
    (80658175170943878571660636856403766975289505440883277824000000000000, "2^225.58"),  # 52!
    (None, "-"),
], ids=lambda value: "" if isinstance(value, int) and value > 2**64 else None)
def test_big_numbers_are_powers_of_two(value, text):
    assert power(value) == text


def test_numbers_are_right_aligned_and_text_is_not():
    assert all(is_numeric(v) for v in (7, 0.5, "1,234", "2^31 - 2", "1 + 1.2e-08", "3.71 s", "1 - eps", 2**64))
    assert not any(is_numeric(v) for v in ("lcg", "`msvc`", "[0, 32767]", Mark("fail", "FAIL (eps)"), "2^31 - 2 (max)"))
    assert cell_text(2**64) == "2^64" and cell_text(None) == ""


def _page(template, **context):
    base = {"title": "t", "seed": 1, "quick": True, "generated": "now"}
    return render(template, **{**base, **context})


def test_text_is_escaped_and_only_code_and_bold_become_markup():
    section = Section("A <b> & `x|y`", ["**bold** and `a < b` and <script>"], "s")
    page = _page("report.html.j2", sections=[section])
    assert "<strong>bold</strong> and <code>a &lt; b</code> and &lt;script&gt;" in page
    assert "<script>" not in page


def test_markdown_tables_escape_bars_and_html_tables_hold_values():
    table = Table(["name", "seeds"], [["a|b", 2**32], [Mark("fail", "FAIL (eps)"), 12]])
    section = Section("S", [table, Heading("Sub part")])
    markdown = _page("report.md.j2", sections=[section])
    assert "| a\\|b | 2^32 |" in markdown and "| ✖ FAIL (eps) | 12 |" in markdown
    page = _page("report.html.j2", sections=[section])
    assert '<td class="num" title="4294967296">2<sup>32</sup></td>' in page
    assert '<span class="grade fail">✖ FAIL (eps)</span>' in page
    assert 'id="sub-part"' in page and 'href="#sub-part"' in page and 'href="#s"' in page


def test_slugs_are_anchors():
    assert slug("Shuffles: exact fairness and reachable deals") == "shuffles-exact-fairness-and-reachable-deals"


def _two_blocks(context):
    from rnglab.plot import new_figure

    figure, axes = new_figure()
    axes.plot(np.arange(3))
    return Section("Two blocks", ["one `code`", context.add_figure("line", figure, "a line")], "a summary")


def test_the_report_is_one_page_with_its_figures_inline_plus_markdown_and_json(tmp_path):
    result = build_report(tmp_path / "r", sections=[_two_blocks])
    page = (tmp_path / "r" / "report.html").read_text()
    png = (tmp_path / "r" / "figures" / "line.png").read_bytes()
    import base64

    assert f"data:image/png;base64,{base64.b64encode(png).decode()}" in page      # drawn once, the same bytes
    assert "<figcaption>a line</figcaption>" in page and "a summary" in page
    assert not re.search(r"(src|href)=\"(https?:)?//", page)
    assert "![a line](figures/line.png)" in (tmp_path / "r" / "report.md").read_text()
    data = json.loads((tmp_path / "r" / "report.json").read_text())
    assert data["sections"][0]["blocks"] == [{"kind": "text", "text": "one `code`"},
                                             {"kind": "figure", "path": "figures/line.png", "caption": "a line"}]
    assert list(result.section_seconds) == ["Two blocks"]


def test_durations_beyond_a_float_are_written_from_their_log2():
    from rnglab.pages.numbers import YEAR, duration_of_bits

    assert duration_of_bits(math.log2(90)) == "1.5 minutes"
    assert duration_of_bits(20000.0) == f"2^{20000 - math.log2(YEAR):.2f} years"    # 2^20000 s is no float


def test_seeds_and_states_are_written_exactly_and_sizes_as_powers_of_two():
    # Seed 18438316 was written 2^24.14 in report.md: an identifier loses its value as a power of two.
    assert cell_text(Exact(18438316)) == "18438316" and cell_text(18438316) == "2^24.14"
    table = Table(["seed", "seeds"], [[Exact(18438316), 2**32]])
    section = Section("S", [table])
    base = {"title": "t", "seed": 1, "quick": True, "generated": "now"}
    assert "| 18438316 | 2^32 |" in render("report.md.j2", sections=[section], **base)
    page = render("report.html.j2", sections=[section], **base)
    assert '<td class="num">18438316</td>' in page and 'title="4294967296"' in page
