"""The search for MRG coefficients with the best M_T (LatMRG's seek): the early rejection, the kept best against an
exhaustive search of a small modulus, full period, and the refusals.

LatMRG's published figures of the seek example are in test_mrg_spectral.py.
"""

import pytest
from algebra.test_mrg_spectral import one
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.algebra.mrg_period import period
from rnglab.algebra.mrg_search import merits_above, rejection_bound, search_mrg
from rnglab.algebra.mrg_spectral import mrg_spectral_test
from rnglab.algebra.normalizers import normalized_merit
from rnglab.generators.mrg import MRG, Recurrence


def test_early_rejection_keeps_exactly_the_candidates_above_the_threshold():
    recurrence = Recurrence(32749, (180, -176))
    merits = merits_above(recurrence, list(range(3, 9)), "bestlat", 0.0)
    assert merits == [f.S for f in mrg_spectral_test(one(32749, 180, -176), range(3, 9)).dims]
    assert merits_above(recurrence, list(range(3, 9)), "bestlat", min(merits) * (1 + 1e-9)) is None
    assert merits_above(recurrence, list(range(3, 9)), "bestlat", min(merits) * (1 - 1e-9)) == merits


def test_search_keeps_the_best_full_period_coefficients():
    result = search_mrg(32749, 2, range(3, 9), top=3, candidates=300, seed=1, full_period=True)
    assert len(result.best) == 3 and result.best[0].M >= result.best[1].M >= result.best[2].M
    for found in result.best:
        assert found.M == mrg_spectral_test(one(32749, *found.a), range(3, 9)).M
        assert period(MRG(one(32749, *found.a), 1)).period == 32749**2 - 1


@settings(max_examples=100, deadline=None)
@given(st.floats(0.01, 1.0), st.integers(3, 2**31), st.sampled_from([2, 3]), st.integers(4, 48),
       st.sampled_from(["bestlat", "laminated", "rogers"]))
def test_the_rejection_bound_is_the_least_squared_length_that_reaches_the_threshold(threshold, m, k, t, norm):
    # S_t = sqrt(nu^2) / (gamma_t^(1/2) m^(k/t)) is increasing in nu^2: the bound is where it crosses the threshold
    bound = rejection_bound(threshold, m, k, t, norm)
    assert normalized_merit(bound, m, k, t, norm) >= threshold * (1 - 1e-12)
    assert bound == 1 or normalized_merit(bound - 1, m, k, t, norm) < threshold * (1 + 1e-12)


def test_the_search_keeps_the_best_of_every_coefficient_vector_of_a_small_modulus():
    # m = 11, k = 2: 11 * 10 vectors (a_2 != 0), all drawn among 3000; the M kept are the four best of them all
    result = search_mrg(11, 2, range(3, 7), top=4, candidates=3000, seed=5)
    every = sorted(mrg_spectral_test(one(11, a1, a2), range(3, 7)).M for a1 in range(11) for a2 in range(1, 11))
    assert result.examined == 110 and [found.M for found in result.best] == every[::-1][:4]
    assert all(found.M == mrg_spectral_test(one(11, *found.a), range(3, 7)).M for found in result.best)


@pytest.mark.parametrize("m, k, dims, options, rule", [
    (2, 2, range(3, 5), {}, r"m must be an integer >= 3"),
    (101, 4, range(5, 7), {}, r"orders \(2, 3\); got 4"),
    (101, 2, range(2, 5), {}, r"search dimensions must be in \[k \+ 1, 48\] = \[3, 48\]"),
    (101, 2, range(3, 50), {}, r"search dimensions must be in"),
    (101, 2, range(3, 5), {"norm": "spectral"}, "normalisation must be one of"),
    (101, 2, range(3, 5), {"top": 0}, "top and candidates must be >= 1"),
    (100, 2, range(3, 5), {"full_period": True}, "--full-period needs a prime modulus; got m = 100"),
])
def test_the_search_refuses(m, k, dims, options, rule):
    with pytest.raises(ValueError, match=rule):
        search_mrg(m, k, dims, candidates=5, seed=1, **options)
