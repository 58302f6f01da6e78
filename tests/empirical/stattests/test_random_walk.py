"""Random walks (rnglab.empirical.stattests.random_walk): over every walk of a short length, the compiled statistics
equal a plain count, and their frequencies are the exact laws (each walk of l steps has probability 2^-l).

A step is +1 for a 1 bit and -1 for a 0; H counts the +1 steps, M is the highest position, R the returns to 0, and,
at odd times only (TestU01's swalk_RandomWalk1), J counts the positive positions twice and C the sign changes.
By hand: P(S_4 = 2) = C(4, 3) / 16 = 1/4.
"""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from rnglab.empirical.stattests.random_walk import position_probability, walk_laws, walk_statistics


def plain_statistics(bits) -> tuple[int, int, int, int, int]:
    position, positions = 0, [0]
    for bit in bits:
        position += 1 if bit else -1
        positions.append(position)
    odd = positions[1::2]
    changes = sum(1 for before, after in itertools.pairwise(odd) if before * after < 0)
    return (sum(bits), max(positions), 2 * sum(1 for s in odd if s > 0), positions[1:].count(0), changes)


@pytest.mark.parametrize("length", [2, 6, 10])
def test_every_walk(length):
    walks = list(itertools.product([0, 1], repeat=length))
    counts = np.zeros((5, length + 1), dtype=np.int64)
    walk_statistics(np.array(walks, dtype=np.uint8).ravel(), length, counts)
    plain = np.zeros_like(counts)
    for walk in walks:
        for row, value in enumerate(plain_statistics(walk)):
            plain[row, value] += 1
    assert counts.tolist() == plain.tolist()
    assert walk_laws(length) == pytest.approx(counts / 2**length, abs=1e-15)


def test_position_probability_by_hand():
    assert position_probability(4, 2) == Fraction(1, 4)
    assert position_probability(4, 1) == 0 and position_probability(3, 5) == 0
    assert position_probability(10, 0) == Fraction(252, 1024)
