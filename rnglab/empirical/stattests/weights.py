"""Matsumoto and Kurita's weight distribution: how many of k uniforms fall in an interval."""

from __future__ import annotations

import math

import numpy as np

from rnglab.core.laws import binom_pmf
from rnglab.empirical.stattests.base import EmpiricalResult, check_interval, check_sample, register
from rnglab.empirical.stattests.frequency import group_counts, uniform_reader
from rnglab.empirical.stattests.hamming import MergedTally
from rnglab.generators.base import Source
from rnglab.streams.gateway import selection_of

#: TestU01's ``gofs_MinExpected``: the least expected count of a class after merging, kept here so that
#: the statistic equals TestU01's on the same stream.
TESTU01_MIN_EXPECTED = 10.0


def interval_probability(source: Source, alpha: float, beta: float) -> float:
    """``P(alpha <= u < beta)`` for the uniforms :func:`rnglab.streams.gateway.uniforms` reads, exactly.

    Those uniforms are ``v / L`` for ``v`` uniform on ``[0, L)``: ``L`` is the
    source's range ``R`` when ``R <= 2^53`` (``2^w`` for ``w`` selected bits of
    each output), else ``2^53`` (the top 53 bits). Hence
    ``P = (ceil(beta L) - ceil(alpha L)) / L``: ``beta - alpha`` when both are
    multiples of ``1/L``, and otherwise within ``1/L`` of it (SmallCrush's
    ``[0, 1/8)`` on MINSTD, ``L = 2^31 - 2``, has ``P = 2^28 / L = 1/8 + 1/(4 L)``).
    """
    levels = min(source.range_size, 2**53)
    return (math.ceil(beta * levels) - math.ceil(alpha * levels)) / levels


class WeightDistributionTally(MergedTally):
    """The counts of the uniforms in the interval of each group, carried on (:func:`weight_distribution`)."""

    name, classes, minimum = "weight-distribution", "classes", TESTU01_MIN_EXPECTED

    def __init__(self, source: Source, *, k: int = 256, alpha: float = 0.0, beta: float = 0.125) -> None:
        super().__init__()
        self.k = check_sample("k", k, 1)
        check_interval(alpha, beta)
        self.alpha, self.beta, self.selection = alpha, beta, selection_of(source)
        self.law = binom_pmf(np.arange(k + 1), k, interval_probability(source, alpha, beta))
        self.observed = np.zeros(k + 1, dtype=np.int64)

    def options(self) -> dict:
        return {"k": self.k, "alpha": self.alpha, "beta": self.beta}

    def _read(self, source: Source, count: int) -> None:
        alpha, beta = self.alpha, self.beta
        self.observed += group_counts(uniform_reader(source), count, self.k,
                                      lambda groups: ((groups >= alpha) & (groups < beta)).sum(axis=1), self.k + 1)


@register("weight-distribution", WeightDistributionTally)
def weight_distribution(source: Source, n: int, *, k: int = 256, alpha: float = 0.0,
                        beta: float = 0.125) -> EmpiricalResult:
    """Chi-square of the number of uniforms in ``[alpha, beta)`` among each of ``n`` groups of ``k``.

    Each group of ``k`` successive uniforms ``u_1..u_k`` gives
    ``W = #{j : alpha <= u_j < beta}``, Binomial(``k``, ``p = beta - alpha``)
    under the null hypothesis. The counts of ``W = 0..k`` over ``n`` groups are
    compared with ``n C(k, w) p^w (1-p)^(k-w)`` by Pearson's ``X^2``, after
    merging the classes whose expected count is below 10 as TestU01 does
    (:func:`.hamming.merge_sparse_tails`); ``X^2`` is asymptotically
    chi-square with (classes - 1) degrees of freedom.

    SmallCrush runs it as its seventh test with ``n = 200,000``, ``k = 256``,
    ``[0, 1/8)`` on bits 28 to 32 of each 32-bit output (TestU01's ``r = 27``:
    ``BitSelection(drop=27)``), where it catches generators whose low bits are
    weak. The law uses the interval's exact probability at the resolution
    read (:func:`interval_probability`), so an ideal source of any range
    passes.

    Parameters
    ----------
    source : Source
    n : int
        Number of groups (``n k`` uniforms are read).
    k : int
        Uniforms per group.
    alpha, beta : float
        The interval, ``0 <= alpha < beta <= 1``.

    References
    ----------
    M. Matsumoto, Y. Kurita, "Twisted GFSR generators II", ACM TOMACS 4(3),
    1994, p. 264. P. L'Ecuyer, R. Simard, TestU01 user guide,
    svaria_WeightDistrib and bbattery_SmallCrush.
    """
    return WeightDistributionTally(source, k=k, alpha=alpha, beta=beta).extend(source, n).result()
