"""The GF(2)-linear section of the report (rnglab.report.gf2): period, characteristic polynomial and equidistribution
against the published anchors, and a V8 deal's state from its bottom cards."""

import numpy as np
import pytest

from rnglab.generators import catalog
from rnglab.report import ReportContext, gf2


@pytest.mark.slow          # MT19937's equidistribution: seconds
def test_gf2_section_shows_the_published_anchors_and_a_recovered_v8_deal(tmp_path, monkeypatch):
    # MT19937: period 2^19937 - 1, k(32) = 623, defect 6750 (Matsumoto and Nishimura 1998); WELL512a defect 0
    # (Panneton, L'Ecuyer and Matsumoto 2006); the scrambled xoshiro256** has no equidistribution by rank

    chosen = {name: catalog()[name] for name in ("mt19937", "well512a", "xoshiro256starstar", "python")}
    monkeypatch.setattr(gf2, "catalog", lambda: chosen)
    section = gf2.section(ReportContext(tmp_path, 20261122, False, False))
    rows = {row[0]: row for row in section.blocks[1].rows}
    assert set(rows) == {"`mt19937`", "`well512a`", "`xoshiro256starstar`"}  # python: mt19937's engine
    assert rows["`mt19937`"][1:] == [19968, 19937, 135, "yes", 2**19937 - 1, 32, "623 of 623", 6750]
    assert rows["`well512a`"][-1] == 0 and rows["`xoshiro256starstar`"][-2:] == ["scrambled output", "-"]
    seed = int(np.random.default_rng(20261122).integers(1, 2**31))
    assert "found 1 state(s) (rank 128 of 128)" in section.blocks[2] and "predicted exactly" in section.blocks[2]
    assert f"--random_seed={seed}" in section.blocks[2] and f"the seed came back as {seed}," in section.blocks[2]



def test_full_period_xorshifts_are_equidistributed_as_their_state_allows(monkeypatch):
    # Marsaglia (2003): xorshift32 (13, 17, 5) and xorshift128 have periods 2^32 - 1 and 2^128 - 1. Every non-zero
    # state comes once a period: xorshift32 outputs its state (k(32) = 1 = 32 / 32), and four consecutive outputs of
    # xorshift128 are its whole state (k(32) = 4 = 128 / 32).
    chosen = {name: catalog()[name] for name in ("xorshift32", "python", "xorshift128")}
    monkeypatch.setattr(gf2, "catalog", lambda: chosen)
    rows = {row[0]: row[1:] for row in gf2.algebra_rows(quick=True)}
    assert list(rows) == ["`xorshift32`", "`xorshift128`"]                       # python: mt19937's engine
    assert rows["`xorshift32`"][:2] + rows["`xorshift32`"][3:7] == [32, 32, "yes", 2**32 - 1, 32, "1 of 1"]
    assert rows["`xorshift128`"][:2] + rows["`xorshift128`"][3:7] == [128, 128, "yes", 2**128 - 1, 32, "4 of 4"]
