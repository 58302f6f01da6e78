"""The audit as people read it (rnglab.audit.render): Markdown, JSON and one self-contained HTML page, written
atomically and never over an existing report.

The audit rendered here is built from findings of known content (no analysis runs): the templates show what they
are given, so the figures of a real audit are tested where they are computed (test_structure.py, test_attack.py,
test_empirical.py, test_run.py).
"""

import json

import pytest

from rnglab.audit.figures import png
from rnglab.audit.grades import RULES, finding, overall
from rnglab.audit.render import REPORT_FILES, as_json, check_reports, html, markdown, write_reports
from rnglab.audit.run import MEASURED_FIELDS, NOT_ESTABLISHED, Audit
from rnglab.audit.target import from_pipeline
from rnglab.plot import new_figure


def _figure():
    figure, axes = new_figure(2, 1)
    axes.plot([0, 1], [1, 0])
    return figure


@pytest.fixture(scope="module")
def broken() -> Audit:
    """An audit of deitel-msvc as the sections describe it, with a figure, a detail table and a demonstration."""
    findings = [
        finding("reachability", 16.4, "2^16.40 of 2^225.58 deals reachable", [["seeds accepted", "86,400"]],
                pass_at=225.58),
        finding("scaling", 45.0, "bias detectable after 2^45.00 draws", [["reducer", "modulo"]],
                table=(["bound", "max p / min p"], [["13", "1.000396825"]])),
        finding("shuffle", 27.43, "position bias detectable after 2^27.43 shuffles",
                [["largest position deviation |P - 1/n|", "1.694e-05"]], figure=png(_figure), caption="a line"),
        finding("unpredictability", -8.85, "every seed tried in 0.00216 s on one core", [], fails=True),
        finding("repeatability", 0.99, "P(two tables share a seed) = 0.99", []),
        finding("raw", 0.25, "0 of 29 tests FAIL", [], ["a note"], measured=[["battery time", "3.2 s"]])]
    shown = {"seed": 5, "seen": "As Kd", "searched": "the whole seed space",
             "command": "rnglab crack msvc --algo deitel --seeds 0..9 --seen 'As Kd'"}
    return Audit(from_pipeline("deitel-msvc").describe(), overall(findings), findings, dict.fromkeys(RULES, 1.25),
                 20261124, list(NOT_ESTABLISHED), shown)


def test_json_keys(broken):
    data = json.loads(as_json(broken))
    assert set(data) == {"pipeline", "verdict", "findings", "seconds", "seed", "not_established", "demonstration",
                         "measured_fields"}
    assert set(data["findings"][0]) >= {"question", "title", "grade", "value", "headline", "rule", "facts", "symbol"}
    assert data["verdict"] == "fail"


def test_html_is_self_contained_with_anchors(broken):
    page = html(broken)
    assert "http://" not in page and "https://" not in page
    for question in RULES:
        assert f'id="{question}"' in page and f'href="#{question}"' in page
    assert "data:image/png;base64," in page
    assert "✖ fail" in page


def test_markdown_escapes_table_bars(broken):
    assert r"\|P - 1/n\|" in markdown(broken)


def test_reports_are_written_atomically_and_never_overwritten(broken, tmp_path):
    paths = write_reports(broken, tmp_path / "out")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(REPORT_FILES)
    before = paths[0].read_text()
    with pytest.raises(ValueError, match="already exists"):
        write_reports(broken, tmp_path / "out")
    assert paths[0].read_text() == before
    write_reports(broken, tmp_path / "out", force=True)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(REPORT_FILES)


def test_the_markdown_opens_with_the_verdict_and_a_row_per_question(broken):
    lines = markdown(broken).splitlines()
    assert lines[0] == "# rnglab audit: deitel-msvc"
    assert "**Verdict: ✖ FAIL**: msvc seeded by time-s over 1d, modulo scaling, deitel on a 52-card deck" in lines
    assert "| [Reachability](#reachability) | ✖ fail | 2^16.40 of 2^225.58 deals reachable |" in lines
    assert "| [Scaling (range reduction)](#scaling) | ▲ warn | bias detectable after 2^45.00 draws |" in lines
    assert "| [Raw output](#raw) | ✔ pass | 0 of 29 tests FAIL |" in lines
    assert "    rnglab crack msvc --algo deitel --seeds 0..9 --seen 'As Kd'" in lines
    assert lines[-1] == ("Every stream read was seeded with 20261124; sections took reachability 1.2 s, scaling 1.2 s, "
                         "shuffle 1.2 s, unpredictability 1.2 s, repeatability 1.2 s, raw 1.2 s.")


def test_the_json_has_each_grade_s_symbol_no_figure_and_names_its_measurements(broken):
    data = json.loads(as_json(broken))
    assert [(f["question"], f["grade"], f["symbol"]) for f in data["findings"]] == [
        ("reachability", "fail", "✖"), ("scaling", "warn", "▲"), ("shuffle", "fail", "✖"),
        ("unpredictability", "fail", "✖"), ("repeatability", "fail", "✖"), ("raw", "pass", "✔")]
    assert all("figure" not in f for f in data["findings"]) and data["findings"][2]["caption"] == "a line"
    assert data["measured_fields"] == list(MEASURED_FIELDS) and data["seed"] == 20261124


def test_a_report_folder_is_checked_before_any_work(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match=f"^{tmp_path / 'file'} is not a folder$"):
        check_reports(tmp_path / "file")
    with pytest.raises(ValueError, match="^cannot create the folder /proc/rnglab-audit: "):
        check_reports("/proc/rnglab-audit")
    assert [path.name for path in check_reports(tmp_path / "new")] == list(REPORT_FILES)
    assert (tmp_path / "new").is_dir() and not any((tmp_path / "new").iterdir())
