"""The lattice section of the report (rnglab.report.lattice): a Java deal's 48-bit state from its 12 bottom cards."""

import numpy as np
import pytest

from rnglab.pages.numbers import Exact
from rnglab.report import lattice, render_pages
from rnglab.report.document import Table


@pytest.fixture(scope="module")
def lattice_section(quick_context):
    return lattice.section(quick_context(seed=7))


def test_the_lattice_table_holds_exact_seeds(lattice_section):
    rows = next(b for b in lattice_section.blocks if isinstance(b, Table)).rows
    assert all(isinstance(row[0], Exact) and isinstance(row[1], Exact) for row in rows) and rows


def test_report_section_recovers_the_java_deal(lattice_section):
    text = render_pages([lattice_section], 7, True)["report.md"]
    assert "Found: 1 state(s)" in text and text.rstrip().endswith("| yes |")


def test_the_seed_drawn_from_the_report_seed_comes_back(lattice_section):
    seed = int(np.random.default_rng(7).integers(0, 2**48))
    [row] = next(b for b in lattice_section.blocks if isinstance(b, Table)).rows
    assert int(row[1]) == seed and row[-1] == "yes"
    assert f"(`System.nanoTime()`; here {seed}, drawn from the report seed)" in lattice_section.blocks[0]
    assert "an observer who sees the 12 bottom cards" in lattice_section.blocks[0]
