"""The report's sections as a reader sees them: counts that agree with their tables, exact seeds, collapsed rows,
a short catalog table, and a folder with the umask's permissions."""

import json
import os
import stat

import numpy as np
import pytest

from rnglab.pages import cell_text, render
from rnglab.pages.numbers import Exact
from rnglab.pages.tables import collapse
from rnglab.report import ReportContext, build_report
from rnglab.report.document import Section, Table


def test_the_shuffle_summary_counts_the_rows_its_table_marks():
    # The summary said "5 of 17 shuffles are not uniform (n = 9)" while the table marked 7: the two JavaScript sorts
    # are not computed at n = 9, and the count read only the last size. One mark now decides both.
    from rnglab.report.shuffle import NOT_UNIFORM, _tv_table

    table, count = _tv_table((8, 9))
    marked = [row[0] for row in table.rows if row[1] == NOT_UNIFORM]
    assert count == len(marked) == 7
    assert marked == ["`sattolo`", "`naive`", "`transpositions`", "`sort-keys`", "`poker1999`", "`js-sort-insertion`",
                      "`js-sort-timsort`"]
    only_nine, _ = _tv_table((9,))
    assert {row[0]: row[1] for row in only_nine.rows}["`js-sort-insertion`"] == "uniform where computed"


def test_seeds_and_states_are_written_exactly_and_sizes_as_powers_of_two():
    # Seed 18438316 was written 2^24.14 in report.md: an identifier loses its value as a power of two.
    assert cell_text(Exact(18438316)) == "18438316" and cell_text(18438316) == "2^24.14"
    table = Table(["seed", "seeds"], [[Exact(18438316), 2**32]])
    section = Section("S", [table])
    base = {"title": "t", "seed": 1, "quick": True, "generated": "now"}
    assert "| 18438316 | 2^32 |" in render("report.md.j2", sections=[section], **base)
    page = render("report.html.j2", sections=[section], **base)
    assert '<td class="num">18438316</td>' in page and 'title="4294967296"' in page


def test_the_crack_and_lattice_tables_hold_exact_seeds(tmp_path):
    from rnglab.report import crack

    part = crack.section(ReportContext(tmp_path, quick=True))
    table = next(block for block in part.blocks if isinstance(block, Table))
    assert all(isinstance(row[0], Exact) for row in table.rows) and table.rows
    from rnglab.report import lattice

    rows = next(b for b in lattice.section(ReportContext(tmp_path, quick=True)).blocks if isinstance(b, Table)).rows
    assert all(isinstance(row[0], Exact) and isinstance(row[1], Exact) for row in rows) and rows


def test_rows_equal_but_for_one_column_collapse_on_that_column():
    rows = [["15-bit", 52, "modulo", "1 + 0.00159"], ["15-bit", 52, "float-multiply", "1 + 0.00159"],
            ["15-bit", 52, "lemire", "1"], ["32-bit", 52, "modulo", "1 + 1.21e-08"]]
    assert collapse(rows, column=2) == [["15-bit", 52, "modulo, float-multiply", "1 + 0.00159"],
                                        ["15-bit", 52, "lemire", "1"], ["32-bit", 52, "modulo", "1 + 1.21e-08"]]


def test_the_range_reduction_table_collapses_methods_as_rnglab_reduce_does(tmp_path):
    from rnglab.report import reduce

    part = reduce.section(ReportContext(tmp_path, quick=True))
    table = next(block for block in part.blocks if isinstance(block, Table))
    assert table.headers[2] == "methods"
    assert len(table.rows) == 18                    # 51 rows: 3 kinds of method per source and bound
    assert table.rows[0][:3] == ["RAND_MAX = 32767", 52, "`modulo`, `float-multiply`, `multiply-shift`"]
    keys = [tuple(map(str, row[:2] + row[3:])) for row in table.rows]
    assert len(set(keys)) == len(keys)


def test_the_catalog_table_has_six_columns_and_the_rest_is_in_the_json(tmp_path):
    from rnglab.report.catalog import COLUMNS, section

    part = section(ReportContext(tmp_path, quick=True))
    table = next(block for block in part.blocks if isinstance(block, Table))
    assert table.headers == COLUMNS == ["name", "family", "output range", "period", "state bits", "source"]
    rows = {row[0]: row for row in table.rows}
    assert rows["`msvc`"][1:5] == ["lcg", "[0, 32767]", "2^32 (maximal)", "32"]
    assert rows["`python`"][1:5] == ["python", "[0, 2^32 - 1]", "2^19937 - 1", "19937"]
    data = json.loads(json.dumps(__import__("rnglab.report.document", fromlist=["plain_blocks"]).plain_blocks(part)))
    [records] = [block["records"] for block in data["blocks"] if block["kind"] == "data"]
    msvc = next(r for r in records if r["name"] == "msvc")
    assert (msvc["a"], msvc["c"], msvc["m"]) == (214013, 2531011, 2**32)
    assert msvc["first_outputs"] == {"seed": 1, "values": [41, 18467, 6334]}      # MSVC rand() after srand(1)
    base = {"title": "t", "seed": 1, "quick": True, "generated": "now"}
    page = render("report.html.j2", sections=[part], **base)
    assert "<thead><tr><th>name</th><th>family</th><th>output range</th><th>period</th><th>state bits</th>" \
           "<th>source</th></tr></thead>" in page and "first outputs" not in page.replace("first outputs are", "")


def _tiny(context):
    return Section("Tiny", ["text"], "a summary")


@pytest.mark.parametrize(("umask", "folder", "file"), [(0o022, 0o755, 0o644), (0o077, 0o700, 0o600)])
def test_the_report_and_audit_folders_get_the_umasks_permissions(tmp_path, umask, folder, file):
    # rnglab-report/ was drwx------ under umask 022: tempfile.mkdtemp's 0700, kept when moved into place.
    from rnglab.audit.render import check_reports

    previous = os.umask(umask)
    try:
        build_report(tmp_path / "r", sections=[_tiny])
        check_reports(tmp_path / "a")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "r").stat().st_mode) == folder
    assert stat.S_IMODE((tmp_path / "r" / "report.md").stat().st_mode) == file
    assert stat.S_IMODE((tmp_path / "a").stat().st_mode) == folder


def test_the_deals_section_compares_the_identity_with_the_half_rotations(tmp_path):
    from rnglab.report import deals

    part = deals.section(ReportContext(tmp_path, quick=True))
    rivals, passes = [block for block in part.blocks if isinstance(block, Table)]
    assert [row[:3] for row in rivals.rows[:2]] == [[10, 9496, 25118], [11, 35696, 91693]]  # exhaustive maxima
    assert passes.rows[0] == [1, "card 1 at 0: +30.1 %", "card 11 at 0: -23.2 %"]
    assert part.summary == "naive exchange: the two half rotations stay more likely than the identity to n = 14"


def test_gf2_section_shows_the_published_anchors_and_a_recovered_v8_deal(tmp_path, monkeypatch):
    # MT19937: period 2^19937 - 1, k(32) = 623, defect 6750 (Matsumoto and Nishimura 1998); WELL512a defect 0
    # (Panneton, L'Ecuyer and Matsumoto 2006); the scrambled xoshiro256** has no equidistribution by rank
    from rnglab.generators import catalog
    from rnglab.report import gf2

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
