"""The range-reduction section of the report (rnglab.report.reduce): the exact bias table, collapsed as
``rnglab reduce`` shows it, its picture, and the low-bit periods of three power-of-two LCGs against Knuth's rule."""

from fractions import Fraction

import pytest

from rnglab.pages.numbers import power
from rnglab.report import render_pages
from rnglab.report.document import Figure, Table
from rnglab.report.reduce import _low_bits, _ratio, section


@pytest.fixture(scope="module")
def reduce_section(quick_section):
    return quick_section(section)


def test_the_range_reduction_table_collapses_methods_as_rnglab_reduce_does(reduce_section):
    _, part = reduce_section
    table = next(block for block in part.blocks if isinstance(block, Table))
    assert table.headers[2] == "methods"
    assert len(table.rows) == 18                    # 51 rows: 3 kinds of method per source and bound
    assert table.rows[0][:3] == ["RAND_MAX = 32767", 52, "`modulo`, `float-multiply`, `multiply-shift`"]
    keys = [tuple(map(str, row[:2] + row[3:])) for row in table.rows]
    assert len(set(keys)) == len(keys)


def test_report_sections(reduce_section):
    context, part = reduce_section
    text = render_pages([part], 7, True)["report.md"]
    assert "631/32768" in text and "figures/reduce-bias-52.png" in text and "low-bit trap" in text
    assert (context.out_dir / "figures" / "reduce-bias-52.png").exists()


def test_rand_mod_52_on_15_bits_is_biased_by_631_to_630(reduce_section):
    # 32768 = 52 * 630 + 8: the outputs 0..7 have 631 source values each, the other 44 have 630.
    _, part = reduce_section
    table = next(block for block in part.blocks if isinstance(block, Table))
    modulo = next(row for row in table.rows if row[:2] == ["RAND_MAX = 32767", 52])
    assert modulo[3:6] == ["631/32768", "315/16384", "1 + 0.00159"]                     # 630/32768 in lowest terms


def test_the_summary_gives_the_modulo_ratio_and_its_detection_as_a_power_of_two(reduce_section):
    _, part = reduce_section
    from rnglab.draws.bias import bias
    from rnglab.reduction.reducers import REDUCERS

    draws = bias(REDUCERS["modulo"], 52, 32768).draws_to_detect
    assert part.summary == (f"`rand() % 52` on RAND_MAX = 32767 is biased (max/min 1 + 0.00159), detectable after "
                            f"{power(draws)} draws")


def test_the_figure_is_the_heatmap_of_every_reducer_on_15_bits(reduce_section):
    _, part = reduce_section
    [figure] = [block for block in part.blocks if isinstance(block, Figure)]
    assert (figure.name, figure.path) == ("reduce-bias-52", "figures/reduce-bias-52.png")
    assert figure.png.startswith(b"\x89PNG\r\n\x1a\n")


def test_ratios_stay_visible_when_tiny():
    assert _ratio(None) == "inf" and _ratio(1) == "1"
    assert _ratio(Fraction(631, 630)) == "1 + 0.00159"
    assert _ratio(Fraction(82595525, 82595524)) == "1 + 1.21e-08"      # rand() % 52 on 32 bits: 2^32 = 52 q + 48


def test_the_low_bits_of_power_of_two_lcgs_repeat_with_knuths_periods():
    # Bit k of an LCG modulo 2^e has period 2^(k+1) (Knuth 3.2.1.1); glibc's TYPE_0 rand() returns the state, MSVC
    # and ANSI C bits 16..30 of it, so bit j of their outputs has period 2^(17+j). 2^20 outputs show at most 2^19.
    _, table = _low_bits()
    rows = {row[0]: row[1:] for row in table.rows}
    assert rows["`glibc_type0`"][:4] == ["2 / 2", "4 / 4", "8 / 8", "16 / 16"]
    for name in ("`ansic`", "`msvc`"):
        assert rows[name][:4] == ["131072 / 131072", "262144 / 262144", "524288 / 524288", "> 2^19 / 1048576"]
    assert rows["`glibc_type0`"][4] == "0 1 0 1 0 1 0 1 0 1 0 1"   # 1103515245 s + 12345: odd + odd, then odd
    # MSVC rand() after srand(1): 41 18467 6334 26500 19169 15724 11478 29358 26962 24464 5705 28145
    assert rows["`msvc`"][4] == " ".join(str(v % 2) for v in (41, 18467, 6334, 26500, 19169, 15724, 11478, 29358,
                                                                  26962, 24464, 5705, 28145))
