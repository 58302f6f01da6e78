"""Knuth's runs-up test with its covariance-matrix statistic (TAOCP vol. 2, 3.3.2 G)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rnglab.core.compiled import njit
from rnglab.core.laws import chi2_sf
from rnglab.empirical.stattests.base import EmpiricalResult, ResolutionError, Tally, gateway_params, register, require
from rnglab.empirical.stattests.frequency import CHUNK, uniform_levels, uniform_reader
from rnglab.generators.base import Source
from rnglab.streams.gateway import selection_of

#: Knuth's a_ij of 3.3.2 eq. (11): n times the inverse covariance matrix of the run counts, as he rounds it.
RUN_WEIGHTS = np.array([
    [4529.4, 9044.9, 13568, 18091, 22615, 27892],
    [9044.9, 18097, 27139, 36187, 45234, 55789],
    [13568, 27139, 40721, 54281, 67852, 83685],
    [18091, 36187, 54281, 72414, 90470, 111580],
    [22615, 45234, 67852, 90470, 113262, 139476],
    [27892, 55789, 83685, 111580, 139476, 172860],
])

#: Knuth's b_i of 3.3.2 eq. (11): expected runs of length 1..5 and >= 6, per value.
RUN_RATES = np.array([1 / 6, 5 / 24, 11 / 120, 19 / 720, 29 / 5040, 1 / 840])

#: Smallest sample for the chi-square approximation of V. Knuth suggests n >= 4000, but there V's
#: upper tail is too heavy (see :func:`runs_up`); from 100 000 values on it is within sampling noise.
MIN_VALUES = 100_000


def add_runs(read: Callable[[int], np.ndarray], count: int, first: bool, state: np.ndarray,
             counts: np.ndarray) -> None:
    """Add to ``counts[min(length, 6)]`` the runs that end in the next ``count`` values, continuing ``state`` =
    ``[last value, open run's length]`` (``first``: these are the stream's first values, no run is open).

    A run up is a maximal strictly increasing stretch: a new run starts at
    ``j`` when ``u_j <= u_(j-1)`` (a tie ends a run too). The values are read
    :data:`~.frequency.CHUNK` at a time and scanned by a compiled loop
    (:func:`_count_runs`); :func:`closed_counts` closes the open run.
    """
    for start in range(0, count, CHUNK):
        _count_runs(read(min(CHUNK, count - start)), first and start == 0, state, counts)


def closed_counts(counts: np.ndarray, state: np.ndarray) -> np.ndarray:
    """The counts of runs of length 1 .. 5 and ``>= 6``, the open run of ``state`` closed (neither changed)."""
    closed = counts.copy()
    closed[min(int(state[1]), 6)] += 1
    return closed[1:]


@njit(cache=True, nogil=True)
def _count_runs(values, first, state, counts):  # pragma: no cover - compiled
    """Add the runs that end in ``values`` to ``counts[min(length, 6)]``, continuing ``state`` =
    ``[last value, open run's length]`` (``first``: no run is open before ``values``)."""
    previous, length, start = state[0], np.int64(state[1]), 0
    if first and values.size:  # the first value opens the first run
        previous, length, start = values[0], 1, 1
    for i in range(start, values.size):  # branch-free: a run ends at about every other value, unpredictably
        ends = values[i] <= previous
        counts[min(length, 6)] += ends
        length = 1 if ends else length + 1
        previous = values[i]
    state[0], state[1] = previous, length


class RunsTally(Tally):
    """The counts of runs up, the last value and the open run's length, carried on (:func:`runs_up`): the open
    run is closed when the result is asked for."""

    def __init__(self, source: Source) -> None:
        super().__init__()
        self.selection, self.levels = selection_of(source), uniform_levels(source)
        self.counts, self.state = np.zeros(7, dtype=np.int64), np.zeros(2)

    def check(self, n: int) -> None:
        require(n >= MIN_VALUES,
                f"the runs-up test needs n >= {MIN_VALUES} values (below it V's tail is too heavy); got n = {n}")
        if n > self.levels**2:
            raise ResolutionError(f"the runs-up test needs n <= L^2 = {self.levels**2} values from a source of "
                                  f"L = {self.levels} levels (ties, 1 pair in L, bias the run counts); got n = {n}")

    def _read(self, source: Source, count: int) -> None:
        add_runs(uniform_reader(source), count, self.samples == 0, self.state, self.counts)

    def result(self) -> EmpiricalResult:
        n, counts = self.samples, closed_counts(self.counts, self.state)
        deviation = counts - n * RUN_RATES
        statistic = float(deviation @ RUN_WEIGHTS @ deviation) / (n - 6)
        return EmpiricalResult("runs-up", statistic, float(chi2_sf(statistic, 6)),
                               gateway_params(n, self.selection),
                               {"observed": counts, "expected": n * RUN_RATES, "df": 6, "values_read": n})


@register("runs-up", RunsTally)
def runs_up(source: Source, n: int) -> EmpiricalResult:
    """Runs-up test: Knuth's quadratic form in the counts of runs up, chi-square with 6 df.

    With ``C_1..C_5`` the runs up of length 1..5 and ``C_6`` those of length
    ``>= 6`` among ``n`` uniforms,

        ``V = 1/(n-6) sum_(i,j) (C_i - n b_i)(C_j - n b_j) a_ij``

    (Knuth 3.3.2 G, eq. (10)), with Knuth's ``a_ij`` (:data:`RUN_WEIGHTS`)
    and ``b_i`` (:data:`RUN_RATES`), eq. (11). ``V`` is asymptotically
    chi-square with 6 degrees of freedom. The naive chi-square of the counts
    is *not*: successive runs are dependent (a long run tends to be followed
    by a short one), which is what the weights ``a_ij`` (about ``n`` times
    the inverse of their covariance matrix) correct.

    Validity: ``n >= 100 000`` and, for a source of ``L`` levels,
    ``n <= L^2`` (both enforced). A tie (probability ``1/L`` per pair) ends a
    run, which shifts the run counts by ``O(n / L)`` against a standard
    deviation of ``O(sqrt n)``: a noncentrality of about ``n / L^2``. Knuth asks for ``n >= 4000``, but
    the counts of long runs are then small and skewed, and ``V``'s upper
    tail too heavy: in 20 000 to 30 000 replications with numpy's PCG64,
    ``P(V > chi2_6 quantile 0.999)`` was 0.47 % at ``n = 4000``, 0.23 % at
    20 000, 0.16 % at 50 000 and 0.12 % at 100 000 (nominal 0.1 %; variance
    of ``V`` 15.3 at 4000 against 12), so a battery's 0.001 threshold would
    fire several times too often on small samples.

    Parameters
    ----------
    source : Source
    n : int
        Number of uniforms read.

    References
    ----------
    D. E. Knuth, TAOCP vol. 2, 3rd ed., 3.3.2 G, eqs. (10)-(11).
    TestU01 (sknuth_Run with up = TRUE).
    """
    return RunsTally(source).extend(source, n).result()
