"""Equidistribution (frequency) and serial tests: counts of digits and of t-tuples of digits.

Also home of the readers of uniforms and digits that Knuth's tests (:mod:`.correlation`,
:mod:`.knuth`, :mod:`.runs`) share.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import numpy as np

from rnglab.core.compiled import njit
from rnglab.core.laws import chi2_sf
from rnglab.empirical.stattests.base import (
    EmpiricalResult,
    Tally,
    check_sample,
    chi_square,
    gateway_params,
    register,
    require,
)
from rnglab.empirical.stattests.collision import digits, top_bits_shift
from rnglab.generators.base import Source
from rnglab.streams.gateway import genuine_bits, selection_of, spanned_words, uniforms

#: Values read per call of the gateway: small enough that a chunk and its temporaries stay in
#: the processor's cache, which makes the numpy passes several times faster than on whole samples.
CHUNK = 2**16


def uniform_levels(source: Source) -> int:
    """The number ``L`` of equally spaced values ``k / L`` that :func:`rnglab.streams.gateway.uniforms` takes.

    ``R`` for a source of range ``R <= 2^53`` (above, ``ceil(R / 2^s)`` for the
    ``s`` low bits dropped): ``2^w`` for ``w`` selected bits of each output
    (:class:`~rnglab.streams.gateway.SelectedBits`; at most ``2^53``).
    """
    range_size = source.range_size
    shift = max(range_size.bit_length() - 54, 0) if range_size > 2**53 else 0
    return -(-range_size >> shift)


def digit_reader(source: Source, d: int) -> Callable[[int], np.ndarray]:
    """A reader of digits ``floor(d u)`` (as int64 array indices) from successive outputs.

    The digits (a fresh uint64 array, all below ``d <= 2^63`` for any ``d`` a
    count array can have) are reinterpreted in place rather than copied.
    """
    return lambda size: digits(source, size, d).view(np.int64)


def uniform_reader(source: Source) -> Callable[[int], np.ndarray]:
    """A reader of :func:`rnglab.streams.gateway.uniforms`."""
    return lambda size: uniforms(source, size)


@njit(cache=True, nogil=True)
def add_counts(indices, counts):  # pragma: no cover - compiled
    """``counts[i] += 1`` for every ``i`` of ``indices``, in place: ``numpy.bincount`` without its fresh array of
    every class per call (100,001 of them for the maximum-of-t test's cells, for a chunk of 10,922 groups)."""
    for index in indices:
        counts[index] += 1


#: Counts of at most this many cells are kept four times over by :func:`add_top_bit_counts` (16 KiB of uint32 for
#: 256 cells); above, the four copies would cost more to clear and add than they save.
SPLIT_CELLS = 2**12


@njit(cache=True, nogil=True)
def add_top_bit_counts(values, shift, mask, counts):  # pragma: no cover - compiled
    """``counts[(v >> shift) & mask] += 1`` for every ``v`` of ``values`` (fewer than ``2^32``), in place: the
    frequency test's digits when they are the words' top bits (:func:`~.collision.top_bits_shift`), counted as they
    are cut from the words under a selection of bits (``shift`` then counts the bits below the selection too).

    Successive values go to four separate uint32 counts (of at most
    :data:`SPLIT_CELLS` cells), added to ``counts`` at the end: an increment
    then never waits for the store of the one before it to the same cell,
    which on a stream that repeats a digit (a defective one) made each count
    cost three to four times as much (2.5 to 2.7 ns a value, 0.7 to 1.0 with
    four counts; 0.6 to 0.8 on random words either way, ``d`` = 16 or 256).
    Against cutting the digits into an array of their own and counting them
    (:func:`add_counts`), 0.6 to 0.7 ns a value rather than 1.0 to 1.3.
    """
    if counts.size > SPLIT_CELLS:
        for value in values:
            counts[(value >> shift) & mask] += 1
        return
    split = np.zeros((4, counts.size), dtype=np.uint32)
    whole = values.size - values.size % 4
    for i in range(0, whole, 4):
        split[0, (values[i] >> shift) & mask] += 1
        split[1, (values[i + 1] >> shift) & mask] += 1
        split[2, (values[i + 2] >> shift) & mask] += 1
        split[3, (values[i + 3] >> shift) & mask] += 1
    for i in range(whole, values.size):
        split[0, (values[i] >> shift) & mask] += 1
    for cell in range(counts.size):
        counts[cell] += np.int64(split[0, cell]) + np.int64(split[1, cell]) + np.int64(split[2, cell]) \
            + np.int64(split[3, cell])


def group_counts(read: Callable[[int], np.ndarray], n: int, t: int,
                 classify: Callable[[np.ndarray], np.ndarray], classes: int) -> np.ndarray:
    """Counts of the classes of ``n`` non-overlapping groups of ``t`` values, read a chunk at a time.

    ``classify`` maps an ``(m, t)`` array of groups to ``m`` class indices in ``[0, classes)``.
    """
    per_read = max(1, CHUNK // t)
    counts = np.zeros(classes, dtype=np.int64)
    for start in range(0, n, per_read):
        groups = min(per_read, n - start)
        add_counts(classify(read(groups * t).reshape(groups, t)), counts)
    return counts


class Overlap:
    """What stretches of ``overlap + 1`` successive values carry from one read to the next along a stream.

    :meth:`windows` yields the values read, each chunk preceded by the
    ``overlap`` values before it (none before the stream's first), so that
    every stretch ending in a chunk lies in its window; the last ``overlap``
    values read wait in ``tail`` for the next read, and the stream's first
    ``overlap`` in ``head``, for the stretches that wrap around a circle
    (:meth:`wrap`). Reading ``a`` values then ``b`` yields the stretches of
    reading ``a + b`` at once.
    """

    def __init__(self, overlap: int) -> None:
        self.overlap, self.head, self.tail = overlap, None, None

    def windows(self, read: Callable[[int], np.ndarray], count: int) -> Iterator[np.ndarray]:
        """Yield the next ``count`` values of ``read`` a chunk at a time, each preceded by the ``overlap`` before it."""
        size = max(CHUNK, self.overlap)
        for start in range(0, count, size):
            chunk = read(min(size, count - start))
            window = chunk if self.tail is None or not self.overlap else np.concatenate([self.tail, chunk])
            if self.head is None:
                self.head = chunk[:self.overlap].copy()
            elif self.head.size < self.overlap:  # a first read shorter than the overlap
                self.head = np.concatenate([self.head, chunk[:self.overlap - self.head.size]])
            self.tail = window[window.size - self.overlap:].copy()
            yield window

    def wrap(self) -> np.ndarray:
        """The last ``overlap`` values followed by the first ``overlap``: the stretches that cross the circle's end."""
        return np.concatenate([self.tail, self.head])


def check_digits(source: Source, d: int | None, default: int) -> int:
    """Check that ``d`` digits can be read from each output: ``2 <= d <= 2^w`` for ``w`` selected bits.

    ``d = None`` means ``min(default, 2^w)``.
    """
    width = genuine_bits(source)
    d = check_sample("d", min(default, 2**width) if d is None else d, 2)
    require(d <= 2**width, f"d must be <= 2^{width} = {2**width}, the values of the {width} selected bits; got {d}")
    return d


def check_cells(n: int, cells: int, what: str) -> None:
    """The chi-square rule for ``cells`` equally likely cells: ``n / cells >= 5`` (checked before reading)."""
    require(n >= 5 * cells, f"{what} needs n / {cells} >= 5 (expected count per cell); got n = {n}")


def uniform_chi_square(counts: np.ndarray, n: int) -> float:
    """Pearson's ``X^2`` of ``counts`` against ``n`` spread evenly over the cells (no validity check)."""
    expected = n / counts.size
    return float(((counts - expected) ** 2).sum() / expected)


def equally_likely_result(name: str, counts: np.ndarray, params: dict, values_read: int) -> EmpiricalResult:
    """Pearson's chi-square of ``counts`` in cells that are equally likely under the null hypothesis."""
    expected = int(counts.sum()) / counts.size
    statistic, pvalue, df = chi_square(counts, np.full(counts.size, expected))
    return EmpiricalResult(name, statistic, pvalue, params,
                           {"observed": counts, "expected": expected, "df": df, "values_read": values_read})


class FrequencyTally(Tally):
    """The counts of the frequency test's digits, carried on (:func:`frequency`)."""

    def __init__(self, source: Source, *, d: int | None = None) -> None:
        super().__init__()
        self.d, self.selection = check_digits(source, d, 64), selection_of(source)
        self.counts = np.zeros(self.d, dtype=np.int64)

    def check(self, n: int) -> None:
        check_cells(n, self.d, "the frequency test")

    def _read(self, source: Source, count: int) -> None:
        shift = top_bits_shift(source, self.d)
        if shift is None:
            self.counts += group_counts(digit_reader(source, self.d), count, 1, lambda groups: groups[:, 0], self.d)
            return
        for start in range(0, count, CHUNK):  # the digits are the words' top bits: counted as they are cut
            values, below, _ = spanned_words(source, min(CHUNK, count - start))  # a selection's bits cut here too
            add_top_bit_counts(values, np.uint64(below + shift), np.uint64(self.d - 1), self.counts)

    def result(self) -> EmpiricalResult:
        n = self.samples
        return equally_likely_result("frequency", self.counts.copy(), gateway_params(n, self.selection, d=self.d), n)


@register("frequency", FrequencyTally)
def frequency(source: Source, n: int, *, d: int | None = None) -> EmpiricalResult:
    """Equidistribution (frequency) test: chi-square of ``n`` digits ``floor(d u)`` in ``d`` cells.

    ``X^2 = sum_q (Y_q - n/d)^2 / (n/d)`` over the counts ``Y_q`` of each
    digit ``q``; asymptotically chi-square with ``d - 1`` degrees of freedom
    under the null hypothesis. Valid when ``n / d >= 5`` (enforced).

    Parameters
    ----------
    source : Source
    n : int
        Number of outputs read (one digit each).
    d : int, optional
        Number of cells, ``2 <= d <= 2^w`` for the ``w`` selected bits;
        default ``min(64, 2^w)``.

    References
    ----------
    D. E. Knuth, TAOCP vol. 2, 3rd ed., 3.3.2 A (equidistribution test).
    P. L'Ecuyer, R. Simard, TestU01, ACM TOMS 33(4), 2007 (smultin_Multinomial with t = 1).
    """
    return FrequencyTally(source, d=d).extend(source, n).result()


def tuple_cells(tuples: np.ndarray, d: int) -> np.ndarray:
    """Cells ``sum_i y_i d^(t-1-i)`` of the rows ``(y_0, ..., y_(t-1))`` of an ``(m, t)`` array of digits."""
    cells = tuples[:, 0].copy()
    for column in range(1, tuples.shape[1]):
        cells *= d
        cells += tuples[:, column]
    return cells


def tuple_counts(windows: Iterable[np.ndarray], d: int, t: int, counts: np.ndarray) -> np.ndarray:
    """Add the overlapping t-tuples of digits of each window to their cells' ``counts`` (in place), and return them
    (a window shorter than ``t``, the stream's first values read a few at a time, holds none)."""
    for window in windows:
        if window.size >= t:
            add_counts(tuple_cells(np.lib.stride_tricks.sliding_window_view(window, t), d), counts)
    return counts


class SerialTally(Tally):
    """The counts of the serial test's non-overlapping t-tuples, carried on (:func:`serial`)."""

    def __init__(self, source: Source, *, d: int | None = None, t: int = 3) -> None:
        super().__init__()
        self.d, self.t, self.selection = check_digits(source, d, 8), check_sample("t", t, 1), selection_of(source)
        self.counts = np.zeros(self.d**self.t, dtype=np.int64)

    def check(self, n: int) -> None:
        check_cells(n, self.d**self.t, "the serial test")

    def _read(self, source: Source, count: int) -> None:
        d = self.d
        self.counts += group_counts(digit_reader(source, d), count, self.t,
                                    lambda tuples: tuple_cells(tuples, d), d**self.t)

    def result(self) -> EmpiricalResult:
        n, params = self.samples, gateway_params(self.samples, self.selection, d=self.d, t=self.t)
        return equally_likely_result("serial", self.counts.copy(), params, n * self.t)


@register("serial", SerialTally)
def serial(source: Source, n: int, *, d: int | None = None, t: int = 3) -> EmpiricalResult:
    """Serial test on non-overlapping t-tuples: chi-square of ``n`` tuples in ``d^t`` cells.

    Tuple ``j`` is the digits ``(y_{tj}, ..., y_{tj+t-1})``, ``y = floor(d u)``;
    its cell count ``Y_c`` is compared with ``n / d^t``:
    ``X^2 = sum_c (Y_c - n/d^t)^2 / (n/d^t)``, asymptotically chi-square with
    ``d^t - 1`` degrees of freedom (the tuples are independent). Valid when
    ``n / d^t >= 5`` (enforced). RANDU fails it for ``t = 3``: its triples lie
    on 15 planes.

    Parameters
    ----------
    source : Source
    n : int
        Number of t-tuples (``n t`` outputs are read).
    d : int, optional
        Digits per output, ``2 <= d <= 2^w``; default ``min(8, 2^w)``.
    t : int
        Tuple length, ``t >= 1``.

    References
    ----------
    D. E. Knuth, TAOCP vol. 2, 3rd ed., 3.3.2 B (serial test).
    P. L'Ecuyer, R. Simard, TestU01, ACM TOMS 33(4), 2007 (sknuth_Serial).
    """
    return SerialTally(source, d=d, t=t).extend(source, n).result()


class OverlappingSerialTally(Tally):
    """The counts of the overlapping serial test's t-tuples, carried on (:func:`serial_overlapping`).

    ``counts`` holds the tuples that lie in the digits read so far; the
    ``t - 1`` tuples that wrap around the circle are added to a copy of them
    by :meth:`result`, from the first and the last ``t - 1`` digits.
    """

    def __init__(self, source: Source, *, d: int | None = None, t: int = 3) -> None:
        super().__init__()
        self.d, self.t, self.selection = check_digits(source, d, 8), check_sample("t", t, 1), selection_of(source)
        self.counts, self.overlap = np.zeros(self.d**self.t, dtype=np.int64), Overlap(self.t - 1)

    def check(self, n: int) -> None:
        check_cells(n, self.d**self.t, "the overlapping serial test")

    def _read(self, source: Source, count: int) -> None:
        tuple_counts(self.overlap.windows(digit_reader(source, self.d), count), self.d, self.t,
                     self.counts)

    def result(self) -> EmpiricalResult:
        n, d, t = self.samples, self.d, self.t
        counts = tuple_counts([self.overlap.wrap()] if t > 1 else [], d, t, self.counts.copy())
        shorter = counts.reshape(d ** (t - 1), d).sum(axis=1)
        full, previous = uniform_chi_square(counts, n), (uniform_chi_square(shorter, n) if t > 1 else 0.0)
        df = d**t - d ** (t - 1)
        statistic = full - previous
        return EmpiricalResult("serial-overlapping", statistic, float(chi2_sf(statistic, df)),
                               gateway_params(n, self.selection, d=d, t=t),
                               {"observed": counts, "expected": n / d**t, "df": df, "values_read": n,
                                "chi_square_t": full, "chi_square_t_minus_1": previous})


@register("serial-overlapping", OverlappingSerialTally)
def serial_overlapping(source: Source, n: int, *, d: int | None = None, t: int = 3) -> EmpiricalResult:
    """Overlapping serial test: Good's difference ``X^2_t - X^2_(t-1)`` of ``n`` circular t-tuples.

    The ``n`` digits ``y_0, ..., y_(n-1)`` are put on a circle and every
    ``j`` starts a tuple ``(y_j, ..., y_(j+t-1))`` (indices modulo ``n``).
    ``X^2_s`` is Pearson's statistic of the ``n`` overlapping s-tuples against
    ``n / d^s`` per cell. Overlapping tuples are dependent, so ``X^2_t`` alone
    is *not* chi-square distributed (its mean is ``d^t - 1`` but its variance is
    too large); the difference

        ``D = X^2_t - X^2_(t-1)``

    is asymptotically chi-square with ``d^t - d^(t-1)`` degrees of freedom
    (Good 1953, for the circular counts used here; ``X^2_0 = 0``, so ``t = 1``
    is the frequency test). The (t-1)-tuple counts are the t-tuple counts
    summed over their last digit, exact on the circle. Valid when
    ``n / d^t >= 5`` (enforced).

    Parameters
    ----------
    source : Source
    n : int
        Number of outputs read, which is also the number of overlapping tuples.
    d : int, optional
        Digits per output, ``2 <= d <= 2^w``; default ``min(8, 2^w)``.
    t : int
        Tuple length, ``t >= 1``.

    References
    ----------
    I. J. Good, The serial test for sampling numbers and other tests for
    randomness, Proc. Cambridge Philos. Soc. 49, 1953.
    G. Marsaglia, A current view of random number generators, Computer Science
    and Statistics, 16th Symposium on the Interface, 1985 (overlapping tuples).
    P. L'Ecuyer, R. Simard, TestU01, ACM TOMS 33(4), 2007 (smarsa_SerialOver;
    sknuth_SerialSparse documents the same difference statistic).
    """
    return OverlappingSerialTally(source, d=d, t=t).extend(source, n).result()
