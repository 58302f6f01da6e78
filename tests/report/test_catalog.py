"""The catalog section of the report (rnglab.report.catalog): six columns a reader needs, the rest (exact
parameters, first outputs) in report.json."""

import json

import pytest

from rnglab.generators import catalog
from rnglab.pages import render
from rnglab.report.catalog import COLUMNS, _end, section
from rnglab.report.document import Table, plain_blocks


@pytest.fixture(scope="module")
def catalog_section(quick_context):
    return section(quick_context())


def test_the_catalog_table_has_six_columns_and_the_rest_is_in_the_json(catalog_section):
    part = catalog_section
    table = next(block for block in part.blocks if isinstance(block, Table))
    assert table.headers == COLUMNS == ["name", "family", "output range", "period", "state bits", "source"]
    rows = {row[0]: row for row in table.rows}
    assert rows["`msvc`"][1:5] == ["lcg", "[0, 32767]", "2^32 (maximal)", "32"]
    assert rows["`python`"][1:5] == ["python", "[0, 2^32 - 1]", "2^19937 - 1", "19937"]
    data = json.loads(json.dumps(plain_blocks(part)))
    [records] = [block["records"] for block in data["blocks"] if block["kind"] == "data"]
    msvc = next(r for r in records if r["name"] == "msvc")
    assert (msvc["a"], msvc["c"], msvc["m"]) == (214013, 2531011, 2**32)
    assert msvc["first_outputs"] == {"seed": 1, "values": [41, 18467, 6334]}      # MSVC rand() after srand(1)
    base = {"title": "t", "seed": 1, "quick": True, "generated": "now"}
    page = render("report.html.j2", sections=[part], **base)
    assert "<thead><tr><th>name</th><th>family</th><th>output range</th><th>period</th><th>state bits</th>" \
           "<th>source</th></tr></thead>" in page and "first outputs" not in page.replace("first outputs are", "")


def test_one_row_a_generator_and_the_summary_counts_them(catalog_section):
    table = catalog_section.blocks[1]
    assert [row[0] for row in table.rows] == [f"`{name}`" for name in catalog()]
    assert catalog_section.summary == f"{len(catalog())} generators, with their exact LCG periods"


def test_periods_and_states_of_textbook_generators(catalog_section):
    rows = {row[0]: row for row in catalog_section.blocks[1].rows}
    # MINSTD (Park and Miller 1988): a = 16807 primitive mod 2^31 - 1, period m - 1 from any seed in [1, m)
    assert rows["`minstd`"][1:5] == ["lcg", "[1, 2^31 - 2]", "2^31 - 2 (maximal)", "31"]
    # RANDU: c = 0, m = 2^31, a = 65539 = 3 mod 8: the most a multiplicative generator mod 2^e reaches, 2^(e-2)
    # (Knuth 3.2.1.2, Theorem C)
    assert rows["`randu`"][3] == "2^29 (maximal)"
    # the OS source has no state to count and no period to reproduce
    assert rows["`os`"][2:5] == ["[0, 2^64 - 1]", "not reproducible", ""]


def test_range_ends_are_digits_below_a_million_and_powers_of_two_above():
    assert [_end(v) for v in (0, 32767, 999_999)] == ["0", "32767", "999999"]
    assert [_end(v) for v in (2**31 - 2, 2**64 - 1)] == ["2^31 - 2", "2^64 - 1"]
