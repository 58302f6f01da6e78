"""The shuffles section of the report (rnglab.report.shuffle): exact total variation distances, position heatmaps
and reachable deals, against laws enumerated here run by run and against the counts of the seed spaces."""

import itertools
import math
from fractions import Fraction

import pytest

from rnglab.generators import catalog
from rnglab.report.document import Figure
from rnglab.report.shuffle import NOT_UNIFORM, _heatmaps, _reach_table, _tv_table


@pytest.mark.slow          # every shuffle's exact law at n = 8 and 9: seconds
def test_the_shuffle_summary_counts_the_rows_its_table_marks():
    # The summary said "5 of 17 shuffles are not uniform (n = 9)" while the table marked 7: the two JavaScript sorts
    # are not computed at n = 9, and the count read only the last size. One mark now decides both.
    table, count = _tv_table((8, 9))
    marked = [row[0] for row in table.rows if row[1] == NOT_UNIFORM]
    assert count == len(marked) == 7
    assert marked == ["`sattolo`", "`naive`", "`transpositions`", "`sort-keys`", "`poker1999`", "`js-sort-insertion`",
                      "`js-sort-timsort`"]
    only_nine, _ = _tv_table((9,))
    assert {row[0]: row[1] for row in only_nine.rows}["`js-sort-insertion`"] == "uniform where computed"


def naive_runs(n: int):
    """Every run of the naive exchange on ``n`` cards (step i swaps i and J_i): ``(deck, weight)`` pairs."""
    for draws in itertools.product(range(n), repeat=n):
        deck = list(range(n))
        for i, j in enumerate(draws):
            deck[i], deck[j] = deck[j], deck[i]
        yield tuple(deck), 1


def fisher_yates_modulo_runs(n: int, values: int):
    """Every run of Fisher-Yates through ``x % (i + 1)`` on ``values`` equally likely x, weighted by its x count."""
    for draws in itertools.product(*(range(i + 1) for i in range(n - 1, 0, -1))):
        deck, weight = list(range(n)), 1
        for i, j in zip(range(n - 1, 0, -1), draws):
            weight *= values // (i + 1) + (j < values % (i + 1))
            deck[i], deck[j] = deck[j], deck[i]
        yield tuple(deck), weight


def law(runs) -> dict:
    counts = {}
    for deck, weight in runs:
        counts[deck] = counts.get(deck, 0) + weight
    total = sum(counts.values())
    return {deck: Fraction(count, total) for deck, count in counts.items()}


def total_variation(probabilities: dict, n: int) -> Fraction:
    missing = math.factorial(n) - len(probabilities)
    return (sum(abs(p - Fraction(1, math.factorial(n))) for p in probabilities.values())
            + Fraction(missing, math.factorial(n))) / 2


def largest_position_deviation(probabilities: dict, n: int) -> Fraction:
    cells = [[sum(p for deck, p in probabilities.items() if deck[j] == i) for j in range(n)] for i in range(n)]
    return max(abs(cell - Fraction(1, n)) for row in cells for cell in row)


def test_total_variation_distances_at_three_cards():
    rows = {row[0].strip("`"): row[1:] for row in _tv_table((3,))[0].rows}
    assert rows["naive"] == [NOT_UNIFORM, f"{float(total_variation(law(naive_runs(3)), 3)):.4g}"] == \
        [NOT_UNIFORM, "0.05556"]                                                      # 1/18
    assert rows["sattolo"] == [NOT_UNIFORM, "0.6667"]              # uniform on the 2 three-cycles: (4/6 + 2/3) / 2
    assert rows["fisher-yates"] == rows["unrank"] == ["uniform", "0"]
    assert rows["js-sort-timsort"][1] == f"{17 / 48:.4g}" and rows["js-sort-insertion"][1] == "0.1667"
    # sort-keys: P(pi) = C(K + n - 1 - des(pi), n) / K^n with K = 2^32 keys; of the 6 orders 1 has no descent, 4 one, 1 two
    keys, exact = 2**32, Fraction(1, 6)
    laws = [Fraction(math.comb(keys + 2 - descents, 3), keys**3) for descents in (0, 1, 1, 1, 1, 2)]
    assert rows["sort-keys"][1] == f"{float(sum(abs(p - exact) for p in laws) / 2):.4g}" == "1.164e-10"


@pytest.fixture(scope="module")
def heatmaps(quick_context):
    context = quick_context()
    return context, _heatmaps(context, 4)


def test_each_heatmap_is_a_figure_with_the_largest_deviation_in_its_caption(heatmaps):
    context, blocks = heatmaps
    assert [block.name for block in blocks] == ["shuffle-naive-4", "shuffle-transpositions-4", "shuffle-poker1999-4",
                                                "shuffle-fisher-yates-4"]
    assert all(isinstance(block, Figure) and block.png.startswith(b"\x89PNG") for block in blocks)
    assert context.figures == [f"figures/{block.name}.png" for block in blocks]
    naive = float(largest_position_deviation(law(naive_runs(4)), 4))
    assert f"largest |P(card i at j) - 1/n| = {naive:.3g} (1/n = 0.25)" in blocks[0].caption
    modulo = float(largest_position_deviation(law(fisher_yates_modulo_runs(4, 32768)), 4))
    assert blocks[3].caption.startswith("Fisher-Yates, rand() % (i+1), RAND_MAX 32767: n P(card i at position j), "
                                        f"exact; largest |P(card i at j) - 1/n| = {modulo:.3g}")


LCGS = [name for name, entry in catalog().items() if entry.kind == "lcg"]


def test_the_reach_table_counts_deals_and_bounds_them_by_the_seed_space():
    rows = {row[0].strip("`"): row for row in _reach_table(16, 52).rows}
    assert list(rows) == LCGS
    assert all(row[3:5] == [16, 16] for row in rows.values())         # 16 seeds, 16 different deals
    spaces = {"minstd": 2**31 - 1, "randu": 2**31, "msvc": 2**32, "vbscript": 2**24, "java": 2**48, "mmix": 2**64}
    for name, space in spaces.items():
        smallest = next(n for n in itertools.count(1) if math.factorial(n) > space)
        fraction = math.log2(space) - math.log2(math.factorial(52))
        assert rows[name][5:] == [space, f"2^{fraction:.2f}", smallest], name
    assert [rows[name][-1] for name in ("msvc", "vbscript", "java", "mmix")] == [13, 11, 17, 21]
