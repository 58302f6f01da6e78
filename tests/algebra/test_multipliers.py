"""Tests of the multiplier search (rnglab.algebra.multipliers)."""

import numpy as np
import pytest

from rnglab.algebra.multipliers import draw_multiplier, merits_above, search_multipliers
from rnglab.algebra.spectral import spectral_test


def test_same_seed_same_result():
    first = search_multipliers(2**32, "odd", candidates=300, top=5, seed=11)
    second = search_multipliers(2**32, "odd", candidates=300, top=5, seed=11)
    assert [b.a for b in first.best] == [b.a for b in second.best]
    assert first.seed == 11 and first.examined == 300


def test_seed_is_reported_when_drawn():
    result = search_multipliers(2**16, "odd", candidates=20, top=2)
    assert isinstance(result.seed, int)
    assert [b.a for b in search_multipliers(2**16, "odd", candidates=20, top=2,
                                           seed=result.seed).best] == [b.a for b in result.best]


@pytest.mark.parametrize("increment, residues", [("odd", {1}), ("0", {3, 5})])
def test_residue_classes(increment, residues):
    rng = np.random.default_rng(3)
    draws = [draw_multiplier(rng, 2**32, increment) for _ in range(400)]
    assert {a % (4 if increment == "odd" else 8) for a in draws} == residues
    assert all(1 < a < 2**32 for a in draws)


def test_other_moduli_draw_units():
    rng = np.random.default_rng(4)
    assert all(np.gcd(draw_multiplier(rng, 10**10, "odd"), 10**10) == 1 for _ in range(200))


def test_large_modulus():
    result = search_multipliers(2**128, "odd", candidates=30, top=3, seed=2)
    assert all(b.a < 2**128 and b.a % 4 == 1 for b in result.best)


def test_pruning_keeps_the_true_top():
    # The pruned search must find exactly the top-k of an unpruned evaluation of the
    # same candidates (same seed, so the same draws).
    m, top, seed = 2**20, 6, 8
    result = search_multipliers(m, "0", candidates=400, top=top, seed=seed)
    rng = np.random.default_rng(seed)
    candidates = {draw_multiplier(rng, m, "0") for _ in range(400)}
    exhaustive = sorted(((spectral_test(a, m, 0, planes_up_to=0).M, a) for a in candidates),
                        key=lambda item: (-item[0], item[1]))[:top]
    assert [b.a for b in result.best] == [a for _, a in exhaustive]
    assert [b.M for b in result.best] == pytest.approx([merit for merit, _ in exhaustive])


def test_merits_above_rejects_early():
    # RANDU's S_3 is about 0.0095, so a threshold of 0.1 rejects it at t = 3.
    assert merits_above(65539, 2**30, [2, 3, 4], 0.1) is None
    merits = merits_above(65539, 2**30, [2, 3, 4], 0.0)
    assert merits == pytest.approx([d.S for d in spectral_test(65539, 2**31, dims=[2, 3, 4]).dims])


def test_rate_is_reported():
    result = search_multipliers(2**32, "odd", candidates=200, seed=1)
    assert result.per_second > 0 and result.seconds > 0
    assert result.best == tuple(sorted(result.best, key=lambda b: -b.M))


@pytest.mark.parametrize("kwargs, message", [
    ({"m": 8}, "m must be"),
    ({"m": 2**32, "increment": "even"}, "increment must be"),
    ({"m": 2**32, "dims": [1, 2]}, "dimensions must be"),
    ({"m": 2**32, "top": 0}, "top must be"),
    ({"m": 2**32, "candidates": 0}, "candidates must be"),
])
def test_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        search_multipliers(**kwargs)
