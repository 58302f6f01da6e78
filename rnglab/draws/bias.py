"""Exact bias of range reduction, its detectability, and the low-bit trap.

For a source of ``R`` equally likely values and a bound ``n``, every reducer
sends ``c_v`` source values to output ``v`` and rejects the rest; the output
law is ``p_v = c_v / A`` with ``A = sum c_v`` the accepted values, and one
output costs ``R / A`` draws on average.

The counts come from each reducer's own count function (the closed forms of
:mod:`rnglab.reduction.counts`); :func:`brute_force_counts` applies a reducer's map to every source value
(``np.arange`` in chunks, then ``bincount``): the reference for all of the above.

Detection: with ``N`` draws the chi-square statistic on the ``n`` output
counts is asymptotically non-central chi-square with ``n - 1`` degrees of
freedom and noncentrality ``lambda = N n sum (p_v - 1/n)^2``; solving
``P(X > chi2_{1-alpha}) = power`` for ``lambda`` gives the draws needed.

References
----------
D. Lemire, "Fast random integer generation in an interval", ACM TOMACS 29(1), 2019.
J. Cohen, *Statistical power analysis for the behavioral sciences*, 2nd ed., 1988, ch. 7
(power of chi-square tests through the non-central chi-square).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from rnglab.algebra.period import bit_periods
from rnglab.core.rates import SLOWEST_DRAW_RATE
from rnglab.core.results import Result
from rnglab.draws.bounded import draw_bounded
from rnglab.draws.words import draw_range, narrow_words
from rnglab.empirical.stattests.base import ChiSquareResult, chi_square, samples_to_detect
from rnglab.generators import LCG, Source
from rnglab.reduction.counts import ARRAY_LIMIT, ExactCounts, count_dtype
from rnglab.reduction.maps import check_bound
from rnglab.reduction.reducers import REDUCERS, Reducer

BRUTE_CHUNK = 2**22
#: Values drawn at once by :func:`empirical_bias`: only their counts per output are kept.
SAMPLE_CHUNK = 2**20
#: Most values :func:`empirical_bias` draws: about 7 minutes at :data:`~rnglab.core.rates.SLOWEST_DRAW_RATE`.
SAMPLE_LIMIT = 10**10


# -- exact counts -----------------------------------------------------------------------

def count_array(reducer: Reducer, n: int, R: int) -> np.ndarray:
    """Per-output counts ``c_0 .. c_{n-1}`` (``n <= 2^25``): int64, or Python integers when ``R`` is too large."""
    reducer.check(n, R)
    if n > ARRAY_LIMIT:
        raise ValueError(f"per-output arrays are built for n <= 2^25; got n = {n}")
    if reducer.count_array is not None:
        return reducer.count_array(n, R)
    return np.full(n, reducer.counts(reducer.name, n, R).classes[0][0], dtype=count_dtype(R, n))


def exact_counts(reducer: Reducer, n: int, R: int) -> ExactCounts:
    """Exact counts of source values per output for a reducer, ``n`` and ``R`` equally likely values.

    Exact for every ``1 <= n <= R`` of any size (Python integers); ``float-multiply``
    needs ``R <= 2^53`` and ``n <= 2^25``.
    """
    reducer.check(n, R)
    return reducer.counts(reducer.name, n, R)


def brute_force_counts(reducer: Reducer, n: int, R: int, chunk: int = BRUTE_CHUNK) -> tuple[np.ndarray, int]:
    """Apply the reducer to every source value ``0 .. R-1``: return ``(counts per output, rejected)``.

    The reference for the closed forms and the binary search (``R <= 2^32``).
    """
    check_bound(n, R)
    if R > 2**32:
        raise ValueError(f"brute force covers R <= 2^32; got R = {R}")
    counts, rejected, map_values = np.zeros(n, dtype=np.int64), 0, reducer.map
    for start in range(0, R, chunk):
        values, accepted = map_values(np.arange(start, min(R, start + chunk), dtype=np.uint64), n, R)
        counts += np.bincount(values[accepted].astype(np.int64), minlength=n)
        rejected += int(len(accepted) - np.count_nonzero(accepted))
    return counts, rejected


# -- summary statistics -------------------------------------------------------------------

@dataclass(frozen=True)
class BiasResult(Result):
    """Exact bias of one reducer.

    Probabilities are conditional on acceptance and exact (``Fraction``).

    Attributes
    ----------
    method : str
        The reducer's name (``method`` in JSON).
    n, range : int
    unbiased : bool
        Whether the reducer is unbiased in general (this ``(R, n)`` may still be uniform).
    counts_summary : list of dict
        ``{"count": c, "outputs": m}``: ``m`` outputs receive ``c`` source values.
    rejected : int
    max_prob, min_prob : Fraction
    ratio : Fraction or None
        ``max_prob / min_prob`` (``None`` when some output is unreachable).
    tv_distance : Fraction
        ``1/2 sum |p_v - 1/n|``.
    expected_draws : Fraction
        ``R / accepted``.
    favoured : list of int
    favoured_description : str
    draws_to_detect : int or None
        Draws for a chi-square test at ``alpha`` to flag the bias with ``power`` (None if unbiased).
    alpha, power : float
    """

    method: str
    n: int
    range: int
    unbiased: bool
    counts_summary: list
    rejected: int
    max_prob: Fraction
    min_prob: Fraction
    ratio: Fraction | None
    tv_distance: Fraction
    expected_draws: Fraction
    favoured: list
    favoured_description: str
    draws_to_detect: int | None
    alpha: float
    power: float


def squared_deviation(exact: ExactCounts) -> Fraction:
    """``sum_v (p_v - 1/n)^2`` from the count classes."""
    return sum((m * (Fraction(c, exact.accepted) - Fraction(1, exact.n)) ** 2 for c, m in exact.classes), Fraction(0))


def draws_to_detect(deviation: Fraction, n: int, alpha: float = 0.01, power: float = 0.9) -> int | None:
    """Draws ``N`` for a chi-square test at level ``alpha`` to detect the bias with probability ``power``.

    ``lambda(N) = N n sum (p_v - 1/n)^2``, so ``N = ceil(lambda / (n sum (p_v - 1/n)^2))``
    in exact rational arithmetic (the deviation of ``n = 3`` on ``R = 2^4000``
    is about ``2^-8000``, far below the smallest double): :func:`~rnglab.empirical.stattests.base.samples_to_detect`.
    """
    if n < 2:
        return None
    return samples_to_detect(n * deviation, n - 1, alpha, power)


def bias(reducer: Reducer, n: int, R: int, *, alpha: float = 0.01, power: float = 0.9) -> BiasResult:
    """The exact bias of ``reducer`` for bound ``n`` on a source of ``R`` equally likely values.

    Every output ``v`` in ``[0, n)`` is reached by ``c_v`` of the ``R`` source values (the reducer's exact
    counts); among the accepted ones, ``p_v = c_v / sum(c)``. The result gives the extreme ``p_v``, their
    ratio, the total variation distance ``sum |p_v - 1/n| / 2``, the expected draws per output and the
    draws a chi-square test needs to detect the bias at level ``alpha`` with ``power``.

    Parameters
    ----------
    reducer : Reducer
        A reducer of the registry ``rnglab.REDUCERS``: ``REDUCERS["modulo"]``, ``REDUCERS["lemire"]``, ...
    n : int
        The bound, ``1 <= n <= R``.
    R : int
        The number of equally likely source values (``2**15`` for MSVC ``rand()``).
    alpha, power : float
        Level and power of the chi-square test behind ``draws_to_detect``.

    Returns
    -------
    BiasResult
        Exact fractions (``max_prob``, ``min_prob``, ``ratio``, ``tv_distance``) and the favoured outputs.

    Examples
    --------
    ``rand() % 52`` on MSVC's 15-bit ``rand()``: the outputs 0..7 get one source value more.

    >>> from rnglab import REDUCERS, bias
    >>> result = bias(REDUCERS["modulo"], 52, 2**15)
    >>> result.max_prob, result.min_prob, result.favoured_description
    (Fraction(631, 32768), Fraction(315, 16384), 'the 8 smallest outputs 0..7')
    >>> bias(REDUCERS["lemire"], 52, 2**15).ratio
    Fraction(1, 1)
    """
    exact = exact_counts(reducer, n, R)
    probabilities = [Fraction(c, exact.accepted) for c, _ in exact.classes]
    high, low = max(probabilities), min(probabilities)
    tv = sum((m * abs(Fraction(c, exact.accepted) - Fraction(1, n)) for c, m in exact.classes), Fraction(0)) / 2
    return BiasResult(reducer.name, n, R, reducer.unbiased,
                      [{"count": c, "outputs": m} for c, m in exact.classes], exact.rejected, high, low,
                      high / low if low else None, tv, Fraction(R, exact.accepted), list(exact.favoured),
                      exact.favoured_description, draws_to_detect(squared_deviation(exact), n, alpha, power),
                      alpha, power)


def applicable_reducers(R: int, n: int) -> list[Reducer]:
    """The reducers that can serve a source of ``R`` values with bound ``n``."""
    applicable = []
    for reducer in REDUCERS.values():
        try:
            reducer.check(n, R)
        except ValueError:
            continue
        applicable.append(reducer)
    return applicable


# -- empirical comparison -----------------------------------------------------------------

@dataclass(frozen=True)
class EmpiricalBias(ChiSquareResult):
    """A chi-square test of ``samples`` reduced draws against the uniform law on ``[0, n)`` (``n - 1`` df).

    ``flagged`` is ``pvalue < alpha``; ``predicted_draws`` is the exact
    :func:`draws_to_detect` for comparison.
    """

    method: str
    generator: str
    seed: int | None
    n: int
    samples: int
    draws: int
    flagged: bool
    alpha: float
    predicted_draws: int | None


def empirical_bias(source: Source, n: int, samples: int, reducer: Reducer, *, alpha: float = 0.01,
                   power: float = 0.9) -> EmpiricalBias:
    """Draw ``samples`` values with ``reducer`` from ``source`` and chi-square test their counts.

    Needs at least one expected draw per output (``samples >= n``): with
    ``n - 1`` degrees of freedom in the hundreds or more the chi-square
    approximation holds for expected counts down to 1 (Koehler and Larntz,
    JASA 75, 1980), which is where the bias of ``rand() % 10000`` becomes
    detectable.
    """
    seed = source.seed
    check_samples(n, samples)
    counts, draws = sample_counts(source, n, samples, reducer)
    statistic, pvalue, df = chi_square(counts, np.full(n, samples / n), min_expected=1.0 if n >= 100 else 5.0)
    range_size = draw_range(source, narrow_words(source, n))  # the words the draws read
    predicted = draws_to_detect(squared_deviation(exact_counts(reducer, n, range_size)), n, alpha, power)
    return EmpiricalBias(statistic=statistic, df=df, pvalue=pvalue, method=reducer.name,
                         generator=source.name, seed=seed, n=n, samples=samples, draws=draws, flagged=pvalue < alpha,
                         alpha=alpha, predicted_draws=predicted)


def check_samples(n: int, samples: int) -> None:
    """Refuse a test that needs more than ``n <= 2^25`` counts or :data:`SAMPLE_LIMIT` values (with its time)."""
    if n > ARRAY_LIMIT:
        raise ValueError(f"the chi-square test on drawn values counts every output and needs n <= 2^25; got n = {n}")
    if samples > SAMPLE_LIMIT:
        raise ValueError(f"samples must be at most 10^10 (about {SAMPLE_LIMIT / SLOWEST_DRAW_RATE / 60:.0f} minutes at "
                         f"{SLOWEST_DRAW_RATE / 1e6:.0f} million values/s); got {samples}, about "
                         f"{samples / SLOWEST_DRAW_RATE / 3600:.3g} hours")


def sample_counts(source: Source, n: int, samples: int, reducer: Reducer) -> tuple[np.ndarray, int]:
    """Counts per output of ``samples`` values drawn with ``reducer`` (int64), and the source outputs consumed.

    Drawn :data:`SAMPLE_CHUNK` values at a time, so memory stays ``O(n)``
    whatever ``samples`` is; the same values as one :func:`draw_bounded`
    call, which hands back the draws it does not use.
    """
    counts, draws = np.zeros(n, dtype=np.int64), 0
    for start in range(0, samples, SAMPLE_CHUNK):
        drawn = draw_bounded(source, n, min(SAMPLE_CHUNK, samples - start), reducer)
        counts += np.bincount(drawn.values.astype(np.int64), minlength=n)
        draws += drawn.draws
    return counts, draws


# -- the low-bit trap ---------------------------------------------------------------------

@dataclass(frozen=True)
class LowBitPeriods(Result):
    """Periods of ``x mod 2^k`` for a power-of-two LCG: observed on a stream, and predicted.

    ``predicted[k-1]`` is the largest period of the state bits behind the
    output's low ``k`` bits (``rnglab.algebra.period.bit_periods``); ``observed[k-1]``
    is the smallest power-of-two period seen in ``samples`` outputs (``None``
    when none up to ``samples / 2`` fits).
    """

    generator: str
    seed: int
    samples: int
    bits: list
    observed: list
    predicted: list
    first_values: dict


def observed_period(values: np.ndarray) -> int | None:
    """Smallest power-of-two ``p <= len/2`` with ``values[i + p] == values[i]`` throughout, else ``None``.

    For a sequence whose true period is a power of two (every bit of a
    power-of-two LCG) this is the true period, since the minimal period
    divides every period.
    """
    period = 1
    while 2 * period <= len(values):
        if np.array_equal(values[period:], values[:-period]):
            return period
        period *= 2
    return None


def low_bit_periods(generator: LCG, max_bits: int = 8, samples: int = 2**20) -> LowBitPeriods:
    """The low-bit trap: ``x % 2``, ``x % 4``, ... of a power-of-two LCG repeat with tiny periods."""
    e = generator.m.bit_length() - 1
    if generator.m != 1 << e:
        raise ValueError(f"the low-bit trap needs a power-of-two modulus; got m = {generator.m}")
    shift = generator.output.shift if generator.output.kind == "bits" else 0
    per_bit = bit_periods(generator.a, generator.c, e, generator.x)
    start = generator.x
    values = generator.copy().random_raw(samples) - np.uint64(generator.low)
    bits = list(range(1, max_bits + 1))
    observed = [observed_period(values & np.uint64(2**k - 1)) for k in bits]
    predicted = [max(per_bit[shift:shift + k]) for k in bits]
    return LowBitPeriods(generator.name, start, samples, bits, observed, predicted,
                         {f"x % {2**k}": [int(v) for v in values[:16] % 2**k] for k in (1, 2)})
