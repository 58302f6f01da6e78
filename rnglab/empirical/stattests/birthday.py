"""Marsaglia's birthday-spacings test, with t-dimensional birthdays as in TestU01."""

from __future__ import annotations

import math

import numpy as np

from rnglab.core.compiled import njit
from rnglab.empirical.stattests.base import EmpiricalResult, register, require
from rnglab.empirical.stattests.collision import PoissonBlocksTally, repeats_in_sorted
from rnglab.generators.base import Source

#: The most words shared by the spacings' low 32 bits for which :func:`repeated_values` gathers the values that have
#: them (a word held ``j`` times counts ``j - 1``): about 128 under the null hypothesis (2^20 spacings); past 2^12 (a
#: generator whose spacings repeat) the bitmap of :func:`_gather_sharing` lets through more than a sixteenth of the
#: values to its binary search, and the values are all sorted instead. On 2^23 birthdays of the Numerical Recipes
#: LCG (97 % of the spacings repeated) :func:`equal_spacings` took 14 times as long as with the spacings sorted when
#: it gathered them, 1.6 times with this bound.
MOST_SHARED_WORDS = 2**12


def equal_spacings(birthdays: np.ndarray, k: int, low: np.ndarray | None = None) -> int:
    """Number of repeated values among the ``n`` circular spacings of the sorted birthdays in a year of ``k`` days.

    With birthdays sorted, ``I_(1) <= ... <= I_(n)``, the spacings are
    ``S_j = I_(j+1) - I_(j)`` for ``j < n`` and, around the circle,
    ``S_n = k - I_(n) + I_(1)`` (TestU01's smarsa_BirthdaySpacings); sorted,
    the statistic counts the ``j`` with ``S_(j+1) = S_(j)``: the spacings
    equal to another one before them, ``n`` less the number of distinct
    spacings, counted by :func:`repeated_values` without sorting them.

    ``birthdays`` (a uint64 array) is sorted in place, and its spacings then
    written over it (:func:`_spacings_in_place`), their low 32 bits into
    ``low`` (uint32, at least ``n`` long; a new array when ``None``): the test
    holds the birthdays and half as much again. numpy's sort (since numpy 2.0
    a vectorised quicksort on x86 processors with AVX2 or AVX-512, Intel's
    x86-simd-sort) needs no scratch, and on this project's machine (numpy 2.4)
    took 22 ns a value on 2^20 values of 60 bits where the radix sort rnglab
    used before took 102.

    Examples
    --------
    Spacings 2 2 1 4 1 and around the circle 12 - 11 + 1 = 2 (or 3 in 13 days): sorted 1 1 2 2 2 4, three
    repeats (1 1 2 2 3 4, two).

    >>> equal_spacings(np.array([1, 3, 5, 6, 10, 11], dtype=np.uint64), 12)
    3
    >>> equal_spacings(np.array([1, 3, 5, 6, 10, 11], dtype=np.uint64), 13)
    2
    """
    birthdays.sort()  # in place: the birthdays are the test's own array
    low = np.empty(birthdays.size, dtype=np.uint32) if low is None else low[:birthdays.size]
    around = birthdays.dtype.type(k - int(birthdays[-1]) + int(birthdays[0]))
    return repeated_values(_spacings_in_place(birthdays, around, low), low)


@njit(cache=True, nogil=True)
def _spacings_in_place(ordered, around, low):  # pragma: no cover - compiled
    """Overwrite the sorted ``ordered`` with its spacings ``S_j = I_(j+1) - I_(j)``, the last one ``around`` the
    circle, and write their low 32 bits into ``low``; each ``I_(j+1)`` is read before it is overwritten (``j``
    increasing). Returns ``ordered``."""
    last = ordered.size - 1
    for j in range(last):
        ordered[j] = ordered[j + 1] - ordered[j]
        low[j] = ordered[j] & np.uint64(0xFFFFFFFF)
    ordered[last] = around
    low[last] = around & np.uint64(0xFFFFFFFF)
    return ordered


def repeated_values(values: np.ndarray, low: np.ndarray) -> int:
    """Number of the uint64 ``values`` equal to another one before them: ``n`` less the number of distinct values.

    Equal values have equal low 32 bits, given in ``low`` (uint32, ``low[i]``
    those of ``values[i]``): ``low`` is sorted (numpy's vectorised sort of
    32-bit values takes about half the time of 64-bit ones), the words held
    twice or more found (:func:`_shared_words`), and only the values whose
    low word is one of those (:func:`_gather_sharing`) sorted and counted; a
    value whose low word no other value has is distinct from all. Both arrays
    are overwritten. Under the null hypothesis of the birthday-spacings test
    (``2^20`` spacings of about 40 bits) about ``n^2 / 2^32``, 256, are
    sorted; the count is exact for any values (with more than
    :data:`MOST_SHARED_WORDS` low words shared every value is sorted: the
    cost rises to a sort of both arrays, the answer does not change). On
    this project's machine, the ``2^20`` spacings of ``2^20`` uniform
    birthdays in ``2^60`` days took 5.8 ns a value (the low words given)
    where sorting them and comparing neighbours took 9.2.

    Examples
    --------
    >>> values = np.array([7, 2**32 + 7, 5, 7, 2**32 + 7, 9], dtype=np.uint64)
    >>> repeated_values(values, (values & 0xFFFFFFFF).astype(np.uint32))
    2
    """
    low.sort()
    shared = low[:_shared_words(low)]
    if shared.size > MOST_SHARED_WORDS:  # spacings that repeat (a lattice): most would be gathered, all are sorted
        candidates = values
    else:
        candidates = values[:_gather_sharing(values, shared)] if shared.size else values[:0]
    candidates.sort()
    return int(repeats_in_sorted(candidates))


@njit(cache=True, nogil=True)
def _shared_words(ordered):  # pragma: no cover - compiled
    """Move to the front of the sorted ``ordered``, in order, each of its values equal to the one before (a word
    held ``j`` times comes ``j - 1`` times); return how many. The front is written behind the reading: at ``i``,
    fewer than ``i`` are kept."""
    kept = 0
    for i in range(1, ordered.size):
        if ordered[i] == ordered[i - 1]:
            ordered[kept] = ordered[i]
            kept += 1
    return kept


@njit(cache=True, nogil=True)
def _gather_sharing(values, shared):  # pragma: no cover - compiled
    """Move to the front of ``values``, in order, those whose low 32 bits are in the sorted ``shared``; return how
    many. A bitmap of the shared words' low 16 bits (8 KiB) lets through about ``shared.size / 2^16`` of the
    others to the binary search."""
    bitmap = np.zeros(1024, dtype=np.uint64)
    for word in shared:
        bitmap[(word >> 6) & 1023] |= np.uint64(1) << np.uint64(word & 63)
    kept = 0
    for i in range(values.size):
        value = values[i]
        word = np.uint32(value & np.uint64(0xFFFFFFFF))
        if bitmap[(word >> 6) & 1023] >> np.uint64(word & 63) & np.uint64(1):
            at = np.searchsorted(shared, word)
            if at < shared.size and shared[at] == word:
                values[kept] = value
                kept += 1
    return kept


class BirthdaySpacingsTally(PoissonBlocksTally):
    """The equal spacings of birthday spacings, block by block, each block a year of its own
    (:func:`birthday_spacings`)."""

    name, key = "birthday-spacings", "equal_spacings"

    def __init__(self, source: Source, *, d: int = 2**30, t: int = 2, mid_p: bool = True,
                 block: int | None = None) -> None:
        super().__init__(source, d=d, t=t, mid_p=mid_p, block=block)
        self.low = np.empty(0, dtype=np.uint32)  # the spacings' low words (:func:`equal_spacings`), block after block

    def coincidences(self, cells: np.ndarray) -> int:
        if self.low.size < cells.size:
            self.low = np.empty(cells.size, dtype=np.uint32)
        return equal_spacings(cells, self.k, self.low)

    def block_mean(self, m: int) -> float:
        return m**3 / (4 * self.k)

    def check(self, n: int) -> None:
        k, m, where = self.k, min(n, self.size or n), " in a block" if self.block else ""
        require(n >= 2, f"n must be >= 2; got {n}")
        require(k <= 2**63, f"k = d^t must be <= 2^63; got {self.d}^{self.t}")
        require(16 * m * m <= k, f"birthday spacings needs 16 n^2 <= k = d^t = {k} for the Poisson law; "
                                 f"got n = {m}{where}")
        require(2 / 9 * m * m / k * math.sqrt(self.mean(n)) <= 0.1,
                f"birthday spacings needs (2/9) (n^2/k) sqrt(n^3/4k) <= 0.1 (the triple-spacing term of the mean below "
                f"a tenth of its standard deviation); got n = {m}{where}, k = {k}")


@register("birthday-spacings", BirthdaySpacingsTally)
def birthday_spacings(source: Source, n: int, *, d: int = 2**30, t: int = 2, mid_p: bool = True,
                      block: int | None = None) -> EmpiricalResult:
    """Birthday spacings: ``n`` birthdays in a year of ``k = d^t`` days, count the equal spacings.

    Each birthday is a cell of the ``d^t`` grid built from ``t`` successive
    outputs, each giving ``floor(d u)`` at the source's full resolution
    (TestU01's smarsa_BirthdaySpacings with ``p = 1``). The birthdays are
    sorted, their ``n`` spacings (the last one around the circle, from the last
    birthday to the first of the next year) sorted, and ``Y`` counts the
    spacings equal to the previous one. Under the null
    hypothesis ``Y`` is approximately Poisson with mean ``lambda = n^3 / (4k)``
    (Marsaglia); the approximation needs ``n^2`` small against ``k``:
    ``16 n^2 <= k`` is enforced, and ``k <= 2^63``. The p-value is the Poisson
    mid-p ``P(Y > y) + P(Y = y) / 2``, or with ``mid_p`` false TestU01's
    (:func:`~.collision.poisson_discrete_pvalue`).

    The next term of the mean limits ``n`` further. ``Y`` counts each value
    shared by ``j`` spacings ``j - 1`` times, so three equal spacings count 2
    where the ``n^3/(4k)`` of pairs counts 3: with about ``n^5/(18 k^2)``
    triples, ``E[Y] ~ lambda (1 - (2/9) n^2/k)``. At ``n = 2^18``,
    ``k = 2^40`` (``lambda = 4096``) 40 PCG64 samples gave a mean of 4038.6,
    1.4 % low as predicted and 5.7 standard errors from ``lambda``; a run until
    failure that let ``n`` grow to ``1.6 10^8`` at ``k = 2^60`` made PCG64
    "very suspicious" from this bias alone. So the bias must stay below a
    tenth of the standard deviation: ``(2/9) (n^2/k) sqrt(lambda) <= 0.1`` is
    enforced (SmallCrush's sizes use ``2.5 10^-5`` of it).

    With ``block``, the birthdays are taken ``block`` at a time, each block a
    year of its own, and their counts summed (as TestU01 sums its ``N``
    replications): the sum of the blocks' independent Poisson counts is
    Poisson with mean ``sum_b n_b^3 / (4k)`` (:class:`~.collision.PoissonBlocksTally`),
    the rules above hold for a block (``16 block^2 <= k``, and the bias rule
    with the whole sample's mean), and the test holds one block, however
    large ``n``.

    With ``n = 5 10^6``, ``d = 2^30``, ``t = 2`` (SmallCrush's first test,
    ``lambda ~ 27``), MINSTD fails: its pairs lie on a lattice whose regular
    spacings repeat far too often.

    References
    ----------
    G. Marsaglia, A current view of random number generators, Computer Science
    and Statistics: 16th Symposium on the Interface, 1985.
    P. L'Ecuyer, R. Simard, On the performance of birthday spacings tests with
    certain families of random number generators, Math. Comput. Simul. 55, 2001.
    P. L'Ecuyer, R. Simard, TestU01, ACM TOMS 33(4), 2007 (SmallCrush, test 1).
    """
    return BirthdaySpacingsTally.on(source, n, d=d, t=t, mid_p=mid_p, block=block)
