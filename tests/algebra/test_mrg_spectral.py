"""Spectral test of MRGs and combinations: LatMRG's published figures, brute force, the LCG path."""

import itertools
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnglab.algebra.mrg_spectral import (
    dual_basis,
    equivalent_recurrence,
    mrg_spectral_test,
    output_coefficients,
    projection_sets,
    shortest_dual_vector,
)
from rnglab.algebra.normalizers import ROGERS, gamma, rogers_formula
from rnglab.algebra.spectral import spectral_test
from rnglab.generators.catalog import as_generator
from rnglab.generators.mrg import MRG, Combination, Recurrence

DATA = Path(__file__).parents[1] / "data" / "latmrg"
MRG32K3A = as_generator("mrg32k3a").combination


def one(m, *a):
    return Combination((Recurrence(m, tuple(a)),))


def reference(name):
    """Rows of a reference table in tests/data/latmrg (the first line says where it came from)."""
    lines = (DATA / name).read_text().splitlines()[2:]
    return [line.split("\t") for line in lines]


def printed(value, digits=6):
    """A number as LatMRG's C++ streams print it (default precision: %g with 6 digits)."""
    return format(float(value), f".{digits}g")


def assert_table(result, rows):
    got = {len(f.coordinates): f for f in result.dims}
    for t, sqlen, merit in rows:
        figures = got[int(t)]
        assert (printed(figures.nu2), printed(figures.S)) == (sqlen, merit), t


# --------------------------------------------------------------------------- LatMRG reproductions

def test_mrg32k3a_reproduces_latmrg_rogers_4_to_24():
    # The first rows of the table below (the default suite; the higher dimensions cost about 20 CPU s)
    result = mrg_spectral_test(MRG32K3A, range(4, 25), norm="rogers", planes_up_to=0)
    assert_table(result, [row for row in reference("mrg32k3a_rogers.tsv") if int(row[0]) < 25])


@pytest.mark.slow
def test_mrg32k3a_reproduces_latmrg_rogers_4_to_47():
    # LatMRG examples/results/TestMRG32k3a.res and -Q50.res (make_reference.py), Rogers' normalisation.
    result = mrg_spectral_test(MRG32K3A, range(4, 48), norm="rogers", planes_up_to=0)
    assert_table(result, reference("mrg32k3a_rogers.tsv") + reference("mrg32k3a_rogers_46_47.tsv"))
    assert printed(result.M) == "0.622503"


def test_mrg32k3a_equivalent_is_latmrgs():
    # LatMRG TestMRG32k3a.res: "Modulo m = 18446645023178547541", aa = [0 1816... 3186... 8738...].
    recurrence, source = equivalent_recurrence(MRG32K3A)
    assert recurrence.m == 18446645023178547541 and "CRT" in source
    assert recurrence.a == (18169668471252892557, 3186860506199273833, 8738613264398222622)


def test_mrg32k3a_exact_squared_lengths():
    # TestMRG32k3a-Q50.res prints 0.8060170999e29, 0.744915707e13 and 889974 (10 significant digits).
    result = mrg_spectral_test(MRG32K3A, [4, 9, 10, 20], norm="rogers", planes_up_to=0)
    assert [f.nu2 for f in result.dims] == [80601709987872970831494285955, 7449157069841, 442379769448, 889974]


@pytest.mark.parametrize("name, m, a, first, last", [
    ("lcg_2p31m1_45991_bestlat.tsv", 2**31 - 1, 45991, 2, 12),
    ("lcg_2p30_1099087573_bestlat.tsv", 2**30, 1099087573 % 2**30, 2, 30),
])
def test_lcg_reproduces_latmrg_bestlat(name, m, a, first, last):
    # LatMRG TestLEC97.res: LCGs as MRGs of order 1 (the second with m = 2^32 / 4, as LatMRG runs it).
    result = mrg_spectral_test(one(m, a), range(first, last + 1), norm="bestlat", planes_up_to=0)
    assert_table(result, reference(name))


def test_lcg_1021_331_reproduces_latmrg_run():
    # LatMRG run through tests/data/latmrg/latmrg_driver.cc (no published table for a = 331).
    result = mrg_spectral_test(one(1021, 331), range(2, 17), norm="bestlat", planes_up_to=0)
    assert_table(result, reference("lcg_1021_331_bestlat_latmrg.tsv"))


def test_mrg31k3p_reproduces_latmrg_run():
    result = mrg_spectral_test(as_generator("mrg31k3p").combination, range(4, 41), norm="rogers", planes_up_to=0)
    assert_table(result, reference("mrg31k3p_rogers_latmrg.tsv"))


def test_order_3_mrg_reproduces_latmrg():
    result = mrg_spectral_test(one(9223372036854773561, 1145902849652723, 0, -1184153554609676),
                               range(4, 13), norm="bestlat", planes_up_to=0)
    assert_table(result, reference("mrg63k3_bestlat.tsv"))


def test_small_mrg_reproduces_latmrg_dual():
    # LatMRG TestMLCG101.res, "Using MRGLattice, dual": m = 101, aa = [0 7 1 21].
    result = mrg_spectral_test(one(101, 7, 1, 21), range(4, 25), norm="bestlat", planes_up_to=0)
    assert_table(result, reference("mrg101k3_dual_bestlat.tsv"))


def test_lacunary_reproduces_latmrg():
    # LatMRG TestLEC97.res: m = 2^31 - 1, a = 16807, lags 1, 2, 3, d+1, d+2, d+3, ... with d = 2^17.
    lags = [1 + i % 3 + 131072 * (i // 3) for i in range(42)]
    result = mrg_spectral_test(one(2**31 - 1, 16807), range(2, 43), norm="bestlat", lacunary=lags, planes_up_to=0)
    assert_table(result, reference("lacunary_16807_131072_bestlat.tsv"))


def test_projections_reproduce_latmrg_guide():
    # LatMRG guide, TestProjections: Korobov lattice m = 1021, a = 333, M_{10,8,6,5} = 0.440728 at {1,6}.
    result = mrg_spectral_test(one(1021, 333), range(2, 11), norm="bestlat", projections=[8, 6, 5])
    got = {str(len(f.coordinates)): f for f in result.dims}
    got.update({",".join(map(str, f.coordinates)): f for f in result.projections})
    rows = reference("korobov_1021_333_projections_bestlat.tsv")
    assert len(rows) == len(got)
    for coordinates, length, merit in rows:
        assert (printed(math.sqrt(got[coordinates].nu2)), printed(got[coordinates].S)) == (length, merit)
    assert printed(result.M_projections) == "0.440728"


def test_guide_table_of_fishman_moore_multiplier():
    # LatMRG guide Table 2.1: d_t = 1/nu_t and S_t to 5 digits, t = 2..28.
    result = mrg_spectral_test(one(2**31 - 1, 742938285), range(2, 29), norm="bestlat", planes_up_to=0)
    by_t = {len(f.coordinates): f for f in result.dims}
    for t, d, merit in reference("lcg_2p31m1_742938285_bestlat_guide.tsv"):
        figures = by_t[int(t)]
        assert printed(1 / math.sqrt(figures.nu2), 5) == printed(float(d), 5)
        assert printed(figures.S, 5) == merit


def test_wichmann_hill_equivalent_lcg():
    # Zeisel (1986): Wichmann-Hill is the LCG a = 16555425264690, m = 27817185604309.
    recurrence, _ = equivalent_recurrence(as_generator("wichmann-hill").combination)
    assert (recurrence.m, recurrence.a) == (27817185604309, (16555425264690,))


# --------------------------------------------------------------------------- conventions and constants

def test_dimensions_up_to_k_fill_the_grid():
    result = mrg_spectral_test(MRG32K3A, range(1, 5), norm="rogers")
    m = result.m
    assert [(f.nu2, f.S, f.filled) for f in result.dims[:3]] == [(m * m, 1.0, True)] * 3
    assert not result.dims[3].filled and result.M == result.dims[3].S
    assert "S_t = 1 by convention" in result.convention


def test_rogers_formula_matches_latticetester_table_above_24():
    # LatticeTester NormaRogers: GamRogers[25] = 4.2071543016103, GamRogers[48] = 7.0540756406128.
    assert abs(rogers_formula(25) - 4.2071543016103) < 1e-12
    assert abs(gamma("rogers", 48) - 7.0540756406128) < 1e-12
    assert gamma("rogers", 24) == ROGERS[23] and gamma("bestlat", 49) is None


def test_unknown_normalisation_is_refused():
    with pytest.raises(ValueError, match="normalisation must be one of"):
        mrg_spectral_test(MRG32K3A, [4], norm="hermite")


def test_projection_sets_leave_out_the_successive_ones():
    assert projection_sets([4, 4]) == [(1, 3), (1, 4), (1, 2, 4), (1, 3, 4)]


# --------------------------------------------------------------------------- properties

def brute_force_nu2(columns, m):
    """Smallest squared length of a non-zero h in [-m, m]^t with sum h_j c_j = 0 (mod m)."""
    t = len(columns)
    best = None
    for h in itertools.product(range(-m, m + 1), repeat=t):
        if any(h) and all(sum(x * c[r] for x, c in zip(h, columns)) % m == 0 for r in range(len(columns[0]))):
            length = sum(x * x for x in h)
            best = length if best is None else min(best, length)
    return best


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([5, 7, 11, 13]), st.lists(st.integers(0, 12), min_size=2, max_size=2),
       st.lists(st.integers(1, 7), min_size=2, max_size=3, unique=True))
def test_dual_of_any_coordinates_agrees_with_brute_force(m, a, lags):
    recurrence = Recurrence(m, (a[0], a[1] % m or 1))
    coefficients = list(itertools.islice(output_coefficients(recurrence), 8))
    columns = [coefficients[i - 1] for i in sorted(lags)]
    assert shortest_dual_vector(columns, m)[0] == brute_force_nu2(columns, m)


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 2**40), st.integers(2, 2**40))
def test_order_one_mrg_equals_the_lcg_path(m, a):
    a = a % m or 1
    lcg = spectral_test(a, m, 0, range(2, 9), lattice_m=m, planes_up_to=4)
    mrg = mrg_spectral_test(one(m, a), range(2, 9), norm="bestlat", planes_up_to=4)
    assert [(d.nu2, d.planes) for d in lcg.dims] == [(f.nu2, f.planes) for f in mrg.dims]


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32))
def test_general_dual_basis_agrees_with_the_grown_one(a1, a3):
    recurrence = Recurrence(4294967087, (a1, 0, a3 or 1))
    result = mrg_spectral_test(Combination((recurrence,)), range(4, 10), planes_up_to=0)
    coefficients = list(itertools.islice(output_coefficients(recurrence), 9))
    assert [f.nu2 for f in result.dims] == [shortest_dual_vector(coefficients[:t], recurrence.m)[0]
                                            for t in range(4, 10)]


def test_dual_basis_is_in_the_dual_and_has_determinant_m_to_the_rank():
    m = 101
    columns = list(itertools.islice(output_coefficients(Recurrence(m, (7, 1, 21))), 6))
    basis = dual_basis(columns, m)
    assert all(sum(h * c[r] for h, c in zip(row, columns)) % m == 0 for row in basis for r in range(3))
    assert math.prod(basis[i][i] for i in range(6)) == m**3


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 30268), st.integers(1, 30306), st.integers(1, 30322), st.integers(0, 50))
def test_combination_outputs_follow_the_crt_equivalent(s1, s2, s3, skip):
    # Wichmann-Hill's W_n (sum of x_j M / m_j mod M) is exactly the equivalent LCG's sequence.
    generator = MRG(as_generator("wichmann-hill").combination, vector=[s1, s2, s3])
    recurrence, _ = equivalent_recurrence(generator.combination)
    z = [int(v) for v in generator.random_raw(skip + 10)][skip:]
    assert all(later == recurrence.a[0] * earlier % recurrence.m for earlier, later in itertools.pairwise(z))


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(1, 4294944442), min_size=6, max_size=6))
def test_mrg32k3a_components_follow_the_crt_equivalent(seed):
    # w_n = (x_1 M/m_1 - x_2 M/m_2) mod M, the sum of fractions behind MRG32k3a's output.
    combination = MRG32K3A
    generator = MRG(combination, vector=seed)
    recurrence, _ = equivalent_recurrence(combination)
    (c1, c2), m = combination.components, recurrence.m
    w = []
    for _ in range(12):
        generator.step()
        x1, x2 = (s[-1] for s in generator.states)
        w.append((x1 * c2.m - x2 * c1.m) % m)
    assert all(w[n] == sum(a * w[n - 1 - i] for i, a in enumerate(recurrence.a)) % m for n in range(3, 12))


# --------------------------------------------------------------------------- coefficient search

def test_search_figures_match_latmrg_guide_seek_example():
    # LatMRG guide, Figure 2.3 (seek15.res): m = 32749, k = 2, M_8 of [180 -176] = 0.21911, [180 -175] = 0.2185.
    figures = [mrg_spectral_test(one(32749, 180, a2), range(3, 9)).M for a2 in (-176, -175)]
    assert [printed(f, 5) for f in figures] == ["0.21911", "0.2185"]


def test_bkz_path_against_fplll():
    # The LCG path above t = 30 (BKZ preprocessing) against fplll's exact enumeration (optional).
    fpylll = pytest.importorskip("fpylll")
    from rnglab.algebra.spectral import dual_basis as lcg_dual_basis

    a, m = 6364136223846793005, 2**64
    ours = spectral_test(a, m, 1, range(34, 39), planes_up_to=0)
    for figures in ours.dims:
        matrix = fpylll.IntegerMatrix.from_matrix(lcg_dual_basis(a, m, figures.t))
        fpylll.LLL.reduction(matrix)
        fpylll.BKZ.reduction(matrix, fpylll.BKZ.Param(block_size=10))
        gso = fpylll.GSO.Mat(matrix)
        gso.update_gso()
        bound = sum(v * v for v in matrix[0])
        _, coefficients = fpylll.Enumeration(gso).enumerate(0, figures.t, bound * 1.000001, 0)[0]
        vector = matrix.multiply_left([round(c) for c in coefficients])
        assert figures.nu2 == sum(v * v for v in vector)
