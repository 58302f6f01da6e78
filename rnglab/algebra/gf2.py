"""Polynomials and matrices over GF(2): the algebra of generators linear over GF(2).

A polynomial is a Python integer, bit ``i`` the coefficient of ``x^i``
(``0b1011`` is ``x^3 + x + 1``): exact at any degree, XOR is addition and a
shift multiplies by a power of x. Heavy loops (repeated squaring modulo a
polynomial of degree 19937, Gaussian elimination, lattice reduction) run in
compiled kernels over bit-packed uint64 words (:mod:`rnglab.algebra.gf2_kernels`).

References
----------
J. L. Massey, "Shift-register synthesis and BCH decoding", IEEE Trans.
Inform. Theory 15(1), 1969 (Berlekamp--Massey).
M. O. Rabin, "Probabilistic algorithms in finite fields", SIAM J. Comput.
9(2), 1980 (the irreducibility test).
R. Lidl and H. Niederreiter, Finite Fields, 2nd ed., 1997, Theorem 3.18
(a polynomial of degree k is primitive iff irreducible and x has order 2^k - 1).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from rnglab.algebra import gf2_kernels as kernels
from rnglab.algebra.numtheory import factorize

#: Prime factorisations of 2^k - 1 for the state sizes of the catalog's generators (k = 19937: a Mersenne
#: prime). 2^(2^n) - 1 = F_0 F_1 ... F_{n-1} (Fermat numbers F_i = 2^(2^i) + 1); F_5 = 641 x 6700417 (Euler),
#: F_6 = 274177 x 67280421310721 (Landry 1880), F_7 (Morrison and Brillhart 1975), F_8 (Brent and Pollard 1981).
#: Each entry is checked: the primes multiply to 2^k - 1 and each passes Baillie--PSW (tests/algebra/test_gf2.py).
MERSENNE_FACTORS: dict[int, tuple[int, ...]] = {
    32: (3, 5, 17, 257, 65537),
    64: (3, 5, 17, 257, 641, 65537, 6700417),
    128: (3, 5, 17, 257, 641, 65537, 274177, 6700417, 67280421310721),
    256: (3, 5, 17, 257, 641, 65537, 274177, 6700417, 67280421310721, 59649589127497217,
          5704689200685129054721),
    512: (3, 5, 17, 257, 641, 65537, 274177, 6700417, 67280421310721, 59649589127497217,
          5704689200685129054721, 1238926361552897,
          93461639715357977769163558199606896584051237541638188580280321),
    19937: (2**19937 - 1,),
}


def degree(p: int) -> int:
    """The degree of ``p`` (-1 for the zero polynomial)."""
    return p.bit_length() - 1


def weight(p: int) -> int:
    """The number of non-zero coefficients of ``p``."""
    return p.bit_count()


def exponents(p: int) -> list[int]:
    """The exponents of the non-zero terms of ``p``, increasing."""
    return [i for i in range(p.bit_length()) if (p >> i) & 1]


def multiply(a: int, b: int) -> int:
    """``a b`` over GF(2): one shifted XOR per term of the sparser factor."""
    if weight(a) > weight(b):
        a, b = b, a
    product = 0
    for exponent in exponents(a):
        product ^= b << exponent
    return product


def divide(a: int, b: int) -> tuple[int, int]:
    """Quotient and remainder of ``a`` by ``b != 0`` (long division)."""
    if b == 0:
        raise ZeroDivisionError("division by the zero polynomial")
    quotient, top = 0, degree(b)
    while degree(a) >= top:
        shift = degree(a) - top
        quotient ^= 1 << shift
        a ^= b << shift
    return quotient, a


def remainder(a: int, b: int) -> int:
    """``a mod b``."""
    return divide(a, b)[1]


def gcd(a: int, b: int) -> int:
    """The monic greatest common divisor of ``a`` and ``b``."""
    while b:
        a, b = b, remainder(a, b)
    return a


def inverse(a: int, modulus: int) -> int:
    """``a^(-1) mod modulus`` (extended Euclid); ``ValueError`` when ``a`` and the modulus share a factor."""
    r0, r1, s0, s1 = modulus, remainder(a, modulus), 0, 1
    while r1:
        quotient, rest = divide(r0, r1)
        r0, r1, s0, s1 = r1, rest, s1, s0 ^ multiply(quotient, s1)
    if r0 != 1:
        raise ValueError("the polynomial is not invertible modulo the modulus: they share a factor")
    return s0


def multiply_mod(a: int, b: int, modulus: int) -> int:
    """``a b mod modulus``."""
    return remainder(multiply(a, b), modulus)


def power_mod(base: int, exponent: int, modulus: int) -> int:
    """``base^exponent mod modulus`` by squaring and multiplying."""
    result, base = 1, remainder(base, modulus)
    for bit in bin(exponent)[2:]:
        result = multiply_mod(result, result, modulus)
        if bit == "1":
            result = multiply_mod(result, base, modulus)
    return remainder(result, modulus)


def frobenius_power(a: int, times: int, modulus: int) -> int:
    """``a^(2^times) mod modulus``: ``times`` squarings, compiled (a degree-19937 modulus takes seconds)."""
    k = degree(modulus)
    terms = exponents(modulus ^ (1 << k))
    chunk = min(64, k - (max(terms) if terms else 0))
    words = to_words(remainder(a, modulus), k)
    kernels.frobenius(words, k, np.array(terms, dtype=np.int64), chunk, times)
    return from_words(words)


def to_words(p: int, bits: int) -> np.ndarray:
    """``p`` as uint64 words holding ``bits`` bits (at least one word)."""
    count = max(1, -(-bits // 64))
    return np.frombuffer(p.to_bytes(8 * count, "little"), dtype="<u8").astype(np.uint64)


def from_words(words: np.ndarray) -> int:
    """The polynomial whose coefficients are the bits of ``words`` (the inverse of :func:`to_words`)."""
    return int.from_bytes(np.ascontiguousarray(words, dtype="<u8").tobytes(), "little")


def is_irreducible(p: int) -> bool:
    """Rabin's test: ``x^(2^k) = x mod p`` and ``gcd(x^(2^(k/q)) - x, p) = 1`` for each prime ``q | k``."""
    k = degree(p)
    if k < 1:
        return False
    if k == 1:
        return True
    if frobenius_power(0b10, k, p) != 0b10:
        return False
    return all(gcd(frobenius_power(0b10, k // q, p) ^ 0b10, p) == 1 for q in factorize(k))


def mersenne_factors(k: int) -> tuple[int, ...]:
    """The distinct primes dividing ``2^k - 1``: from :data:`MERSENNE_FACTORS`, else factored (small k)."""
    return MERSENNE_FACTORS.get(k) or tuple(factorize(2**k - 1))


def is_primitive(p: int) -> bool:
    """Whether ``p`` is primitive: irreducible, and x of order ``2^k - 1`` modulo ``p`` (so a linear recurrence
    with characteristic polynomial ``p`` has period ``2^k - 1`` from every non-zero state)."""
    return is_irreducible(p) and has_maximal_order(p)


def has_maximal_order(p: int) -> bool:
    """Whether x has order ``2^k - 1`` modulo an irreducible ``p`` of degree k: ``x^((2^k - 1)/q) != 1`` for
    each prime ``q`` dividing ``2^k - 1`` (:func:`mersenne_factors`)."""
    k = degree(p)
    order = 2**k - 1
    return all(power_mod(0b10, order // q, p) != 1 for q in mersenne_factors(k) if q != order)


def berlekamp_massey(bits: Iterable[int]) -> int:
    """The characteristic polynomial of the shortest linear recurrence that generates ``bits``.

    Massey's algorithm over GF(2): the connection polynomial
    ``C(x) = 1 + c_1 x + ... + c_L x^L`` with ``s_n = sum c_i s_(n-i)`` for
    ``L <= n < N``; returned reversed, ``x^L C(1/x)`` (degree L, the linear
    complexity). A sequence from a recurrence of order k is pinned down by
    2k terms.
    """
    connection, previous, complexity, gap, window = 1, 1, 0, 1, 0
    for n, bit in enumerate(bits):
        window = (window << 1) | (int(bit) & 1)  # bit i of window is s_(n-i)
        if (connection & window).bit_count() & 1:
            saved = connection
            connection ^= previous << gap
            if 2 * complexity <= n:
                complexity, previous, gap = n + 1 - complexity, saved, 1
                continue
        gap += 1
    return reverse(connection, complexity)


def reverse(p: int, k: int) -> int:
    """``x^k p(1/x)``: the coefficients of ``p`` (degree at most k) in reverse order."""
    return int(format(p, f"0{k + 1}b")[::-1], 2)


def rank(rows: np.ndarray, columns: int) -> int:
    """The rank over GF(2) of a matrix whose rows are packed in uint64 words (a 2-D array; not modified)."""
    rows = np.array(rows, dtype=np.uint64, ndmin=2)
    if rows.shape[1] * 64 < columns:
        raise ValueError(f"rows of {rows.shape[1]} words hold fewer than {columns} columns")
    return int(kernels.rank_of_rows(rows.copy(), columns)) if rows.size else 0
