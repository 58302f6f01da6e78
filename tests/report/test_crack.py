"""The 1999 online-poker section of the report (rnglab.report.crack): a deal seeded by the milliseconds since
midnight, its seed found from five cards, every candidate's deck checked against the real one."""

import pytest

from rnglab.pages.numbers import Exact
from rnglab.report import render_pages
from rnglab.report.crack import QUICK_HALF_WINDOW, clock, search_space, section
from rnglab.report.document import Table
from rnglab.seeds.policies import DAY


@pytest.fixture(scope="module")
def crack_section(quick_context):
    return section(quick_context(seed=7))


def test_the_crack_table_holds_exact_seeds(crack_section):
    table = next(block for block in crack_section.blocks if isinstance(block, Table))
    assert all(isinstance(row[0], Exact) for row in table.rows) and table.rows


def test_report_section_recovers_the_deal(crack_section):
    text = render_pages([crack_section], 7, True)["report.md"]
    assert "1,200,000 seeds" in text and "| yes |" in text and "| no |" not in text


def test_the_true_seed_is_among_the_candidates_at_its_time_of_day(crack_section):
    import numpy as np

    seed = int(np.random.default_rng(7).integers(0, DAY))
    rows = next(block for block in crack_section.blocks if isinstance(block, Table)).rows
    assert [int(row[0]) for row in rows if row[-1] == "yes"] == [seed]
    assert [row[1] for row in rows if row[-1] == "yes"] == [clock(seed)]


def test_the_clock_writes_milliseconds_since_midnight():
    assert clock(0) == "00:00:00.000" and clock(DAY - 1) == "23:59:59.999"
    assert clock(((1 * 60 + 2) * 60 + 3) * 1000 + 4) == "01:02:03.004"


def test_a_quick_search_is_20_minutes_around_the_deal_and_a_full_one_the_day():
    quick = search_space(3_723_004, True)
    assert quick.label == "ms-midnight over 2026-11-22T01:02:03.004±600s"
    assert quick.size == 2 * QUICK_HALF_WINDOW == 1_200_000
    assert search_space(3_723_004, False).size == DAY
