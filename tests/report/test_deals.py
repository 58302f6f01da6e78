"""The one-deal section of the report (rnglab.report.deals): the identity against the two half rotations, exact,
and the naive exchange's position matrix after repeated passes, against a dynamic program written here."""

from fractions import Fraction

import pytest

from rnglab.report import deals
from rnglab.report.document import Figure, Table


@pytest.fixture(scope="module")
def deals_section(quick_section):
    return quick_section(deals.section)


def test_the_deals_section_compares_the_identity_with_the_half_rotations(deals_section):
    _, part = deals_section
    rivals, passes = [block for block in part.blocks if isinstance(block, Table)]
    assert [row[:3] for row in rivals.rows[:2]] == [[10, 9496, 25118], [11, 35696, 91693]]  # exhaustive maxima
    assert passes.rows[0] == [1, "card 1 at 0: +30.1 %", "card 11 at 0: -23.2 %"]
    assert part.summary == "naive exchange: the two half rotations stay more likely than the identity to n = 14"


def test_the_runs_giving_the_identity_are_the_involutions(deals_section):
    # I(n), the telephone numbers (OEIS A000085): I(n) = I(n-1) + (n-1) I(n-2)
    involutions = [1, 1]
    for n in range(2, 15):
        involutions.append(involutions[-1] + (n - 1) * involutions[-2])
    rivals = next(block for block in deals_section[1].blocks if isinstance(block, Table))
    assert [row[0] for row in rivals.rows] == list(range(10, 15))
    assert [row[1] for row in rivals.rows] == involutions[10:15] == [9496, 35696, 140152, 568504, 2390480]
    assert all(row[3] == f"{row[1] / row[2]:.4f}" for row in rivals.rows)


def naive_position_matrix(n: int) -> list[list[Fraction]]:
    """P(card i at position j) after one naive exchange (step s swaps s with a uniform J), one card at a time: the
    card at s goes to a uniform position, a card elsewhere comes to s with probability 1/n (so P(at s) = 1/n)."""
    matrix = []
    for card in range(n):
        where = [Fraction(int(p == card)) for p in range(n)]
        for s in range(n):
            where = [where[p] * (1 - Fraction(1, n)) + where[s] / n if p != s else Fraction(1, n) for p in range(n)]
        matrix.append(where)
    return matrix


def power(matrix, k):
    n = len(matrix)
    result = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    for _ in range(k):
        result = [[sum(result[i][m] * matrix[m][j] for m in range(n)) for j in range(n)] for i in range(n)]
    return result


def test_repeated_passes_are_powers_of_the_one_pass_matrix(deals_section):
    passes = [block for block in deals_section[1].blocks if isinstance(block, Table)][1]
    one = naive_position_matrix(12)
    for row, k in zip(passes.rows, (1, 2, 3)):
        cells = [(value, i, j) for i, line in enumerate(power(one, k)) for j, value in enumerate(line)]
        # the first extreme cell, card by card (ties: the cards at the ends of the two half-decks)
        (high, i, j), (low, a, b) = max(cells, key=lambda cell: cell[0]), min(cells, key=lambda cell: cell[0])
        assert row == [k, f"card {i} at {j}: {float(high * 12 - 1) * 100:+.3g} %",
                       f"card {a} at {b}: {float(low * 12 - 1) * 100:+.3g} %"]


def test_the_figure_is_drawn_once_and_written(deals_section):
    context, part = deals_section
    [figure] = [block for block in part.blocks if isinstance(block, Figure)]
    assert figure.path == "figures/deals-identity-rotations.png" and figure.png.startswith(b"\x89PNG")
    assert (context.out_dir / figure.path).read_bytes() == figure.png
