"""The report as objects (rnglab.report.document): anchors, a section's sub-headings and figures, and its JSON."""

import json

from rnglab.core.results import json_text
from rnglab.report.document import Data, Figure, Heading, Section, Table, plain_blocks, slug


def test_slugs_lower_case_and_join_runs_of_other_characters_with_one_hyphen():
    assert slug("Spectral test (lattice structure of LCGs and MRGs)") == \
        "spectral-test-lattice-structure-of-lcgs-and-mrgs"
    assert slug("  GF(2)-linear generators: period!  ") == "gf-2-linear-generators-period"
    assert Heading("Repeated passes, n = 12").anchor == "repeated-passes-n-12"


def sample() -> Section:
    return Section("Range reduction", ["text", Table(["n", "seeds"], [[52, 2**64]]), Heading("Detection"),
                                       Figure("bias", "figures/bias.png", b"\x89PNG...", "a caption"),
                                       Heading("The low-bit trap"), Data("records", [{"m": 2**127 - 1}])],
                   "a summary")


def test_a_section_lists_its_headings_and_figures_in_order():
    section = sample()
    assert section.anchor == "range-reduction"
    assert [h.title for h in section.headings] == ["Detection", "The low-bit trap"]
    assert [f.name for f in section.figures] == ["bias"]


def test_plain_blocks_keep_big_integers_and_leave_the_pixels_out():
    data = json.loads(json_text(plain_blocks(sample())))
    assert data == {"title": "Range reduction", "anchor": "range-reduction", "summary": "a summary", "blocks": [
        {"kind": "text", "text": "text"},
        {"kind": "table", "headers": ["n", "seeds"], "rows": [[52, 2**64]]},
        {"kind": "heading", "title": "Detection"},
        {"kind": "figure", "path": "figures/bias.png", "caption": "a caption"},
        {"kind": "heading", "title": "The low-bit trap"},
        {"kind": "data", "name": "records", "records": [{"m": 2**127 - 1}]}]}
