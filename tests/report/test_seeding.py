"""The seeding section of the report (rnglab.report.seeding): seed spaces per policy and the birthday problem of
tables that start together, against the counts and products worked out here."""

import math
from datetime import datetime, timezone
from fractions import Fraction

import pytest

from rnglab.report import render_pages
from rnglab.report.seeding import section


@pytest.fixture(scope="module")
def seeding_section(quick_context):
    return section(quick_context())


def shared_seed(seeds: int, tables: int) -> str:
    """P(two of ``tables`` tables share a seed) of ``seeds`` equally likely seeds, as the table writes it."""
    apart = math.prod((Fraction(seeds - k, seeds) for k in range(tables)), start=Fraction(1))
    return f"{float(1 - apart):.3g}"


def test_report_sections(seeding_section):
    assert "dealt the same first cards" in render_pages([seeding_section], 7, True)["report.md"]


@pytest.mark.parametrize(("policy", "per_minute", "per_day", "per_year"), [
    ("time-s", 60, 86_400, 365 * 86_400),
    ("ms-midnight", 60_000, 86_400_000, 86_400_000),     # the clock starts again at midnight
    ("guid-hash", 2**32, 2**32, 2**32),
    ("os", 2**64, 2**64, 2**64),
])
def test_seed_spaces_and_shared_seeds_of_uniform_policies(seeding_section, policy, per_minute, per_day, per_year):
    rows = {row[0]: row for row in seeding_section.blocks[1].rows}
    assert rows[f"`{policy}`"][2:5] == [per_minute, per_day, per_year]
    assert rows[f"`{policy}`"][5:] == [shared_seed(per_minute, k) for k in (2, 10, 100)]


def test_shared_seeds_by_hand():
    assert [shared_seed(60, k) for k in (2, 10, 100)] == ["0.0167", "0.548", "1"]
    assert shared_seed(2**32, 2) == "2.33e-10"


def test_the_summary_is_the_birthday_problem_of_10_tables_in_60_seconds(seeding_section):
    assert seeding_section.summary == ("10 tables started within a minute under `srand(time(0))` share a seed with "
                                       "probability 0.548")


def msvc_mod_52(seed: int, count: int) -> str:
    """MSVC ``rand() % 52`` after ``srand(seed)``: x -> 214013 x + 2531011 mod 2^32, bits 16..30 of x."""
    cards = []
    for _ in range(count):
        seed = (214013 * seed + 2531011) % 2**32
        cards.append(str((seed >> 16 & 0x7FFF) % 52))
    return " ".join(cards)


def test_the_simulated_tables_share_a_second_of_the_window_and_deal_its_cards(seeding_section):
    example = seeding_section.blocks[2]
    assert example.startswith("Simulated with seed 20261122: 10 tables started at uniform times in "
                              "2026-11-22T10:00:00±30s under `srand(time(0))`; in round 2, tables 0 and 1 both got "
                              "seed 1795341606 and dealt the same first cards (MSVC `rand() % 52`): ")
    ten = datetime(2026, 11, 22, 10, tzinfo=timezone.utc).timestamp()
    assert ten - 30 <= 1795341606 < ten + 30
    assert example.endswith(f": {msvc_mod_52(1795341606, 5)} and {msvc_mod_52(1795341606, 5)}.")
