"""Knuth's serial correlation test at lag k (TAOCP vol. 2, 3.3.2 K)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from rnglab.core.laws import norm_sf
from rnglab.empirical.stattests.base import EmpiricalResult, Tally, check_sample, gateway_params, register, require
from rnglab.empirical.stattests.frequency import Overlap, uniform_reader
from rnglab.generators.base import Source
from rnglab.streams.gateway import selection_of

#: How many first values fix the shift of :class:`LaggedSums`.
PROBE = 4096


class LaggedSums:
    """The sums of Knuth's serial correlation coefficient at ``lag`` over the values read so far, carried on.

    ``C = (n sum_j u_j u_(j+k) - (sum_j u_j)^2) / (n sum_j u_j^2 - (sum_j u_j)^2)``
    with ``u_(j+k)`` taken modulo ``n`` (TAOCP vol. 2, 3.3.2 K, there for lag 1).

    ``sum_j v_j``, ``sum_j v_j^2`` and ``sum_j v_j v_(j+k)`` of the shifted
    values ``v_j = u_j - s`` (``C`` does not change when a constant is added
    to every ``u_j`` on the circle), with the products whose ``v_(j+k)`` has
    been read. The shift ``s`` is the mean of the first :data:`PROBE` values
    (of all values while fewer were read), held back until it is known: the
    shifted-data algorithm of Chan, Golub and LeVeque, "Algorithms for
    computing the sample variance", Am. Stat. 37 (1983). A shift inside the
    sample's range keeps ``n sum_j v_j^2`` within ``2n + 1`` times the
    denominator, so a nearly constant sample loses at most ``log2(2n + 1)``
    bits to cancellation, and on uniform values ``s`` is within about
    ``0.005`` of the mean, so the numerator (``O(n^1.5)`` against terms of
    ``n sum v_j v_(j+k)``) loses nothing either; a fixed shift such as
    ``1/2`` lost 7 digits on five zeros and ``10^-4``, the first value
    ``u_0`` 3 digits on uniform values.

    The first ``k`` values are kept to close the circle when ``C`` is asked
    for (:meth:`coefficient`, which changes nothing), their own sums added
    only then, and the last ``k`` carry the products across reads. The dot
    products use ``einsum``, which runs on one thread: the threaded BLAS
    behind ``np.dot`` can stall for milliseconds on a busy machine.
    """

    def __init__(self, lag: int) -> None:
        self.lag, self.sums, self.overlap = lag, (0.0, 0.0, 0.0), Overlap(lag)
        self.shift, self.probe = None, []

    def add(self, read: Callable[[int], np.ndarray], count: int) -> None:
        """Add the next ``count`` values of ``read``."""
        if self.shift is None:
            held = sum(values.size for values in self.probe)
            taken = min(count, PROBE - held)
            self.probe.append(read(taken))
            if held + taken < PROBE:
                return
            self._settle()
            count -= taken
        for window in self.overlap.windows(read, count):
            self.sums = self._plus(window)

    def _settle(self) -> None:
        """Fix the shift at the mean of the values held back, and add them."""
        probe = np.concatenate(self.probe)
        self.shift, self.probe, offset = float(probe.mean()), [], 0

        def replay(size: int) -> np.ndarray:
            nonlocal offset
            offset += size
            return probe[offset - size:offset]

        for window in self.overlap.windows(replay, probe.size):
            self.sums = self._plus(window)

    def _plus(self, window: np.ndarray) -> tuple[float, float, float]:
        """The sums with the values ``window[lag:]`` and their products with the values ``lag`` before."""
        centred = window - self.shift
        fresh = centred[self.lag:]
        total, squares, products = self.sums
        return (total + float(fresh.sum()), squares + float(np.einsum("i,i->", fresh, fresh)),
                products + float(np.einsum("i,i->", centred[: -self.lag], fresh)))

    def coefficient(self, n: int) -> float:
        """``C`` of the ``n`` values read, on their circle; a constant sequence (zero denominator) gets ``C = 1``."""
        if self.shift is None:
            self._settle()
        total, squares, products = self._plus(self.overlap.wrap())
        spread = n * squares - total**2
        return (n * products - total**2) / spread if spread > 0 else 1.0


class SerialCorrelationTally(Tally):
    """The serial correlation test's sums, carried on (:func:`serial_correlation`): the circle is closed on the
    first values when the result is asked for."""

    def __init__(self, source: Source, *, lag: int = 1) -> None:
        super().__init__()
        self.selection, self.sums = selection_of(source), LaggedSums(check_sample("lag", lag, 1))

    def check(self, n: int) -> None:
        require(n >= 3, f"n must be >= 3; got {n}")
        require(2 * self.sums.lag < n, f"the lag must be < n/2; got lag = {self.sums.lag} with n = {n}")

    def _read(self, source: Source, count: int) -> None:
        self.sums.add(uniform_reader(source), count)

    def result(self) -> EmpiricalResult:
        n = self.samples
        coefficient = self.sums.coefficient(n)
        mean, sd = -1.0 / (n - 1), n / ((n - 1) * math.sqrt(n - 2))
        z = (coefficient - mean) / sd
        return EmpiricalResult("serial-correlation", z, float(2 * norm_sf(abs(z))),
                               gateway_params(n, self.selection, lag=self.sums.lag),
                               {"coefficient": coefficient, "mean": mean, "sd": sd,
                                "distribution": "normal, two-sided", "values_read": n})


@register("serial-correlation", SerialCorrelationTally)
def serial_correlation(source: Source, n: int, *, lag: int = 1) -> EmpiricalResult:
    """Serial correlation test: Knuth's circular coefficient ``C`` at lag ``k``, standardised.

    For ``n`` uniforms ``u_0 .. u_(n-1)``,

        ``C = (n sum_j u_j u_(j+k) - (sum_j u_j)^2) / (n sum_j u_j^2 - (sum_j u_j)^2)``,

    indices modulo ``n`` (circular, as Knuth). For independent uniforms ``C``
    has mean ``mu_n = -1/(n-1)`` and, by Knuth's formula,
    ``sigma_n^2 = n^2 / ((n-1)^2 (n-2))`` (about ``1/n``). The statistic is
    ``z = (C - mu_n) / sigma_n``, approximately standard normal for large
    ``n``; the p-value is two-sided, ``2 P(Z > |z|)`` (small for a
    correlation of either sign).

    Why ``1/n``: ``C`` is about ``12/n sum_j (u_j - 1/2)(u_(j+k) - 1/2)``
    (the denominator is about ``n^2/12``). Each centred product has variance
    ``(1/12)^2 = 1/144`` and two of them that share a value are uncorrelated
    (``E[(u_1 - 1/2)(u_2 - 1/2)^2 (u_3 - 1/2)] = 0``), so ``Var C ~ 144/n^2 *
    n/144 = 1/n``. The uncentred sum ``sum_j u_j u_(j+k) - n/4`` that some
    libraries standardise is different: ``Var(u_1 u_2) = 1/9 - 1/16 = 7/144``,
    and neighbouring products sharing ``u_(j+k)`` have covariance
    ``E[u_1 u_2^2 u_3] - 1/16 = 1/12 - 1/16 = 3/144`` each, so its variance
    is ``(7 + 2*3)/144 = 13/144`` per term (``13/12`` in units of
    ``Var u = 1/12``), not ``7/144``. The test file checks ``z`` by
    simulation (mean 0, variance 1).

    Parameters
    ----------
    source : Source
    n : int
        Number of uniforms read, ``n >= 3``; the normal approximation wants
        ``n`` in the hundreds at least.
    lag : int
        ``k``, with ``1 <= k < n/2``.

    References
    ----------
    D. E. Knuth, TAOCP vol. 2, 3rd ed., 3.3.2 K (C, and its mean and standard deviation mu_n, sigma_n).
    P. L'Ecuyer, R. Simard, TestU01, ACM TOMS 33(4), 2007 (svaria_SampleCorr).
    """
    return SerialCorrelationTally(source, lag=lag).extend(source, n).result()
