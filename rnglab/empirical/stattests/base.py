"""What every empirical test shares: its result record, a registry, and checked chi-square.

Each test is a function ``test(source, n, *, options..., **gateway) -> EmpiricalResult``
taking the source first and the sample size second (TestU01's order), reading
the source only through :mod:`rnglab.streams.gateway`, and registered by name with
:func:`register` so that batteries can be written as data. A test whose
statistic is made of counts that can be carried on also has a :class:`Tally`,
its incremental form, registered with it; its function is then the tally
read once.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from math import ceil, isqrt

import numpy as np

from rnglab.core.laws import chi2_sf
from rnglab.core.registry import Registry, choose_from
from rnglab.core.results import Result
from rnglab.streams.gateway import BitSelection

TESTS: Registry[Callable] = Registry("test", {}, tail=lambda names: choose_from(sorted(names)))
"""Registry of empirical tests by name (``"serial-correlation"``, ``"gap"``, ...)."""


@dataclass(frozen=True)
class EmpiricalResult(Result):
    """The outcome of one empirical test.

    Attributes
    ----------
    test : str
        Registered name of the test.
    statistic : float
        The test statistic.
    pvalue : float
        Probability, under the null hypothesis, of a statistic at least as
        large (right tail) -- or as stated by the test's docstring.
    params : dict
        Every parameter used (sample size, options, bits selection).
    details : dict
        Observed and expected counts, degrees of freedom, ...
    """

    test: str
    statistic: float
    pvalue: float
    params: dict = field(default_factory=dict)
    details: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ChiSquareResult(Result):
    """Pearson's chi-square of observed counts against a law: the family every count test outside a
    battery returns (range reduction's output counts, a shuffle's position counts).

    Attributes
    ----------
    statistic : float
        ``X^2 = sum (O - E)^2 / E``.
    df : int
        Degrees of freedom.
    pvalue : float
        ``P(chi2(df) >= X^2)``.
    """

    statistic: float
    df: int
    pvalue: float


class Tally(ABC):
    """The incremental form of a test: its counts over the samples read so far, carried on along one stream.

    PractRand's tests keep their counts from one doubling of the data to the
    next and read only the new data; a run until it fails
    (:mod:`rnglab.empirical.until_fail`) does the same with a tally. A tally
    is made for a source (its resolution and the test's options are checked
    then); :meth:`extend` reads the next samples of the stream, which must go
    on where the last call stopped, until ``n`` samples have been counted in
    all, and :meth:`result` is the test on those ``n`` samples: equal to the
    test's function run on the same ``n`` samples at once (the function is
    ``Tally(source, ...).extend(source, n).result()``). A test whose samples
    cross each other (overlapping tuples, gaps) carries what it needs across
    calls.

    Attributes
    ----------
    samples : int
        Samples counted so far.
    """

    def __init__(self) -> None:
        self.samples = 0

    def extend(self, source, n: int, *, checked: bool = True) -> Tally:
        """Read samples from ``source`` until ``n`` have been counted in all (none when ``n <= samples``).

        With ``checked=False`` the samples are counted even when ``n`` is still
        too few for the test's validity rule (a run until it fails counts from
        the stream's start, as PractRand does, and asks :meth:`check` before
        :meth:`result`).

        Raises
        ------
        ValueError
            When ``n`` samples break the test's validity rule (checked before anything is read).
        """
        n = check_sample("n", n, 1)
        if checked:
            self.check(n)
        if n > self.samples:
            self._read(source, n - self.samples)
            self.samples = n
        return self

    def check(self, n: int) -> None:
        """Raise ``ValueError`` (naming the rule) when ``n`` samples break the test's validity rule."""

    @classmethod
    def bounded(cls, options: dict) -> bool:
        """Whether the tally's memory stays bounded however far it extends, with the test's ``options`` (a run
        until it fails carries only such tallies on; a test that holds its whole sample is bounded by its blocks)."""
        return True

    @abstractmethod
    def _read(self, source, count: int) -> None:
        """Count the next ``count`` samples of ``source``."""

    @abstractmethod
    def result(self) -> EmpiricalResult:
        """The test on the :attr:`samples` counted so far."""


def register(name: str, tally: type[Tally] | None = None) -> Callable[[Callable], Callable]:
    """Register a test function under ``name`` (a decorator), with its :class:`Tally` when it has one
    (kept as the function's ``tally`` attribute)."""

    def decorate(function: Callable) -> Callable:
        TESTS.register(name, function)
        function.test_name, function.tally = name, tally
        return function

    return decorate


def get_test(name: str) -> Callable:
    """Look up a registered test, with the list of names in the error."""
    return TESTS[name]


def gateway_params(n: int, selection: BitSelection, **options) -> dict:
    """The ``params`` record of a result: ``n``, the test's options, then the bit selection."""
    return {"n": n, **options, "drop": selection.drop, "keep": selection.keep, "low": selection.low}


class ResolutionError(ValueError):
    """A test refuses the resolution of its source (too few levels for its null distribution).

    The message names the rule. A battery skips the entry and reports why
    (:func:`rnglab.empirical.battery.run_battery`); a lone test is refused.
    """


def require(condition: bool, message: str) -> None:
    """Raise ``ValueError(message)`` unless ``condition``: validity restrictions name their rule."""
    if not condition:
        raise ValueError(message)


def check_sample(name: str, value: int, minimum: int) -> int:
    """Check an integer option (``n``, ``d``, ``t``, ...) against its lower bound and return it."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer; got {type(value).__name__}")
    require(value >= minimum, f"{name} must be >= {minimum}; got {value}")
    return int(value)


def check_interval(alpha: float, beta: float) -> None:
    """Check a test's interval ``[alpha, beta)`` of uniforms: ``0 <= alpha < beta <= 1``."""
    require(0 <= alpha < beta <= 1, f"the interval needs 0 <= alpha < beta <= 1; got [{alpha}, {beta})")


def check_min_expected(value: float) -> float:
    """Check a test's least expected count per class after merging: ``>= 5``, the chi-square rule of :func:`chi_square`."""
    require(value >= 5, f"min_expected must be >= 5 (the chi-square rule); got {value}")
    return float(value)


def chi_square(observed: np.ndarray, expected: np.ndarray, *, ddof: int = 0,
               min_expected: float = 5.0) -> tuple[float, float, int]:
    """Pearson's chi-square of observed against expected counts.

    ``X^2 = sum (O_i - E_i)^2 / E_i`` with ``k - 1 - ddof`` degrees of freedom;
    asymptotically chi-square when every ``E_i >= min_expected`` (Knuth,
    TAOCP vol. 2, 3.3.1 B, suggests 5), which is enforced.

    Returns
    -------
    statistic, pvalue, degrees_of_freedom
    """
    observed = np.asarray(observed, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    require(observed.shape == expected.shape and observed.size >= 2, "chi-square needs >= 2 matching categories")
    smallest = float(expected.min())
    require(smallest >= min_expected,
            f"every expected count must be >= {min_expected:g} for the chi-square approximation; "
            f"the smallest is {smallest:.3g} (increase the sample size or merge categories)")
    statistic = float(((observed - expected) ** 2 / expected).sum())
    df = observed.size - 1 - ddof
    return statistic, float(chi2_sf(statistic, df)), df


#: Above this many degrees of freedom the chi-square laws are replaced by their normal approximations.
NORMAL_DF = 10**5


def detection_noncentrality(df: int, alpha: float, power: float) -> Fraction:
    """The ``lambda`` at which the level-``alpha`` chi-square test on ``df`` degrees of freedom has this power.

    Up to ``NORMAL_DF``: Brent's method on the non-central chi-square tail.
    Beyond, the normal approximations ``chi2(df) ~ N(df, 2 df)`` and
    ``ncx2(df, lambda) ~ N(df + lambda, 2 (df + 2 lambda))``: with
    ``s = sqrt(2 df)`` and ``lambda = u s`` the power condition reads
    ``u = z_alpha + z_power sqrt(1 + 4 u / s)``, solved for ``u`` in floating
    point while ``s`` (``df`` up to 2^4096 and beyond) stays exact to 2^-64.
    """
    from scipy import optimize, stats  # a second of imports that only a power computation needs, not a test run

    if df <= NORMAL_DF:
        critical = stats.chi2.isf(alpha, df)
        return Fraction(optimize.brentq(lambda lam: stats.ncx2.sf(critical, df, lam) - power, 1e-9, 1e3 + 100.0 * df))
    s = Fraction(isqrt((2 * df) << 128), 2**64)
    z_alpha, z_power, inverse_s = stats.norm.isf(alpha), stats.norm.isf(1 - power), float(1 / s)
    u = optimize.brentq(lambda u: z_alpha + z_power * np.sqrt(1 + 4 * u * inverse_s) - u, 0.0, 1e3)
    return Fraction(u) * s


def samples_to_detect(per_sample, df: int, alpha: float = 0.01, power: float = 0.9) -> int | None:
    """Least sample size ``N`` at which a level-``alpha`` chi-square test on ``df`` degrees of freedom
    rejects a deviation with probability ``power``.

    Under the alternative the statistic is asymptotically non-central
    chi-square with noncentrality ``lambda = N per_sample`` (Cohen 1988, ch. 7:
    ``per_sample = k sum (p_i - 1/k)^2`` for ``k`` equally likely cells), so
    ``N = ceil(lambda* / per_sample)`` with ``lambda*`` of
    :func:`detection_noncentrality`; exact when ``per_sample`` is a Fraction.
    Returns ``None`` for no deviation.
    """
    if per_sample <= 0 or df < 1:
        return None
    return ceil(detection_noncentrality(df, alpha, power) / Fraction(per_sample))
