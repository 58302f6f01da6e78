"""Spectral test of MRG32k3a, t = 4..45: rnglab's exact figures against fplll on the same dual bases.

Goal (issue 20): the whole test within 3x of fplll's exact shortest vector. fplll is used
through its Python binding ``fpylll`` (optional; ``pip install fpylll`` has manylinux wheels,
needing ``cysignals``), the way LatMRG runs it: for each t the triangular m-dual basis of
the CRT-equivalent MRG (``m I_3`` and ``e_j - c_j``), LLL, optionally BKZ with block 10
(LatMRG's default ``BKZ+BB``), then fplll's exact enumeration below the first basis
vector's length. Every nu_t^2 is compared. Without fpylll the ratio is "not measured".

rnglab grows one basis from t to t + 1 (BKZ preprocessing from t = 30) and certifies each
shortest vector exactly; its time is taken warm (numba kernels loaded), best of 3.
"""

from __future__ import annotations

import itertools
import time

from common import markdown_table, write_fragment

from rnglab.algebra.mrg_spectral import equivalent_recurrence, mrg_spectral_test, output_coefficients
from rnglab.generators.catalog import as_generator

DIMS = range(4, 46)
EXTRA = (46, 47, 48)


def triangular_basis(m: int, coefficients: list[list[int]], t: int) -> list[list[int]]:
    """The m-dual basis of the first t outputs: ``m e_i`` (i < k) and ``e_j - c_j`` (j >= k)."""
    k = len(coefficients[0])
    rows = [[m if i == j else 0 for j in range(t)] for i in range(k)]
    return rows + [[-v for v in coefficients[j]] + [int(i == j) for i in range(k, t)] for j in range(k, t)]


def fplll_nu2(basis: list[list[int]], block: int) -> int:
    """fplll: LLL (and BKZ with this block size, if > 0), then exact enumeration."""
    from fpylll import BKZ, GSO, LLL, Enumeration, IntegerMatrix

    matrix = IntegerMatrix.from_matrix(basis)
    LLL.reduction(matrix)
    if block:
        BKZ.reduction(matrix, BKZ.Param(block_size=block))
    gso = GSO.Mat(matrix)
    gso.update_gso()
    bound = sum(v * v for v in matrix[0])
    _, coefficients = Enumeration(gso).enumerate(0, len(basis), bound * (1 + 2**-20), 0)[0]
    vector = matrix.multiply_left([round(c) for c in coefficients])
    return sum(v * v for v in vector)


def rnglab_run(dims) -> tuple[float, list[int]]:
    combination = as_generator("mrg32k3a").combination
    started = time.perf_counter()
    result = mrg_spectral_test(combination, dims, norm="rogers", planes_up_to=0)
    return time.perf_counter() - started, [f.nu2 for f in result.dims]


def fplll_run(block: int) -> tuple[float, list[int]]:
    recurrence, _ = equivalent_recurrence(as_generator("mrg32k3a").combination)
    coefficients = list(itertools.islice(output_coefficients(recurrence), DIMS[-1]))
    bases = [triangular_basis(recurrence.m, coefficients, t) for t in DIMS]
    started = time.perf_counter()
    found = [fplll_nu2(basis, block) for basis in bases]
    return time.perf_counter() - started, found


def main() -> None:
    rnglab_run(range(4, 12))  # load the compiled kernels
    ours, nu2 = min(rnglab_run(DIMS) for _ in range(3))
    rows = [["rnglab (grown basis, BKZ-10 from t = 30, exact)", f"{ours:.2f}", "1.00", "reference"]]
    try:
        import fpylll  # noqa: F401
    except ImportError:
        rows.append(["fplll (fpylll not installed)", "not measured", "not measured", ""])
    else:
        for block, label in ((10, "fplll LLL + BKZ-10 + exact enumeration"), (0, "fplll LLL + exact enumeration")):
            theirs, found = fplll_run(block)
            rows.append([label, f"{theirs:.2f}", f"{ours / theirs:.2f}", "same" if found == nu2 else "DIFFERENT"])
    extra = []
    for t in EXTRA:
        seconds, _ = rnglab_run(range(4, t + 1))
        extra.append([f"4..{t}", f"{seconds:.1f}"])
    body = (
        "MRG32k3a (its CRT-equivalent MRG, m = m_1 m_2, k = 3), exact nu_t^2 for t = 4..45, the whole test; "
        "ratio = rnglab time / fplll time (<= 3 is the goal); every nu_t^2 compared.\n\n"
        + markdown_table(["method", "seconds", "rnglab / this", "nu_t^2"], rows)
        + "\n\nrnglab beyond t = 45 (whole test from t = 4, seconds):\n\n"
        + markdown_table(["t", "seconds"], extra))
    write_fragment("mrg_spectral", "Spectral test of MRGs (MRG32k3a to t = 48)", body)


if __name__ == "__main__":
    main()
