"""The report's battery section: the data each generator needs to FAIL the small battery, up to a cap."""

from pathlib import Path

import pytest

from rnglab.report import ReportContext
from rnglab.report.battery import QUICK_CAP, QUICK_GENERATORS, expose_all, section


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    return section(ReportContext(Path(tmp_path_factory.mktemp("report")), quick=True))


def kib(text: str) -> float:
    """KiB in ``FAIL at 1.48 KiB`` (or ``FAIL at 798 bytes``: the stages start at 1 KiB)."""
    number, unit = text.split()[-2:]
    assert unit in ("KiB", "bytes"), text
    return float(number) / (1024 if unit == "bytes" else 1)


def rows_of(result):
    table = next(block for block in result.blocks if hasattr(block, "rows"))
    return {row[0].strip("`"): row for row in table.rows}


def test_weak_generators_fail_within_kib_and_good_ones_reach_the_cap(quick):
    rows = rows_of(quick)
    assert list(rows) == list(QUICK_GENERATORS)
    # RANDU's and drand48's outputs are their whole state, modulo a power of two: the low bit has period 1
    # (RANDU) or 2 (drand48), linear complexity at most 2, caught at the first stage that runs the test
    for weak in ("randu", "drand48"):
        assert rows[weak][1].grade == "fail" and kib(rows[weak][1].text) <= 2
        assert "linear-complexity low=1" in rows[weak][2]
    # MSVC's points on a lattice: birthday spacings (SmallCrush fails it there too), near 100 KiB
    assert 16 <= kib(rows["msvc"][1].text) <= 256 and "birthday-spacings" in rows["msvc"][2]
    # MT19937 is F2-linear of degree 19937: the low bit's linear complexity gives it away after 2 x 19937 outputs
    # (156 KiB of 32-bit words) at the least
    assert 156 <= kib(rows["mt19937"][1].text) <= 512 and "linear-complexity low=1" in rows["mt19937"][2]
    for good in ("pcg64", "mrg32k3a"):
        assert rows[good][1].startswith("no FAIL up to") and "KiB" in rows[good][1]
    assert quick.summary.startswith("4 of 6 generators FAIL the small battery within 512 KiB")


def test_the_text_says_what_the_table_is_not(quick):
    text = " ".join(block for block in quick.blocks if isinstance(block, str))
    assert "is not a certification" in text and "--until-fail --max-bytes 512KiB" in text
    assert "runs 6 generators" in text and "every catalog generator up to 8 MiB" in text
    assert [figure.name for figure in quick.figures] == ["battery-data-to-fail"]


def test_worker_processes_give_the_runs_of_one_process():
    names = ["randu", "msvc", "pcg64"]
    one, two = (expose_all(names, "small", 7, QUICK_CAP // 4, processes=p) for p in (1, 2))
    assert [run.generator for run in two] == names
    assert [(run.bytes_to_fail, [s.bytes for s in run.stages], [[r.pvalue for r in s.results] for s in run.stages])
            for run in one] == \
        [(run.bytes_to_fail, [s.bytes for s in run.stages], [[r.pvalue for r in s.results] for s in run.stages])
         for run in two]
    assert one[0].bytes_to_fail is not None and one[2].bytes_to_fail is None
