"""The JavaScript comparator "shuffle" ``array.sort(() => Math.random() - 0.5)``, over any source.

Its law depends on the sort: each comparison is a coin, and the sort decides
which coins it tosses next. Two sorts of V8 (Chrome, Node.js) are modelled,
comparison for comparison (argument order included):

* ``js-sort-insertion``: V8's ``InsertionSort`` of ``src/js/array.js``, which
  ``Array.prototype.sort`` used for arrays of length <= 10 before V8 7.0
  (2018; 22 in some older versions; longer arrays went to a QuickSort, not
  modelled): element ``i`` moves left past ``a[j]`` while ``comparefn(a[j],
  element) > 0``;
* ``js-sort-timsort``: V8 7.0+'s TimSort (``third_party/v8/builtins/array-sort.tq``)
  for arrays shorter than 64, where the minimum run is the whole array: the
  first run is counted (``CountAndMakeRun``: descending while ``comparefn(a[k],
  a[k-1]) < 0``, then reversed; ascending while not), then the rest is placed
  by ``BinaryInsertionSort`` (``comparefn(pivot, a[mid]) < 0`` goes left).
  Longer arrays merge runs (galloping), not modelled. The newest V8 sources
  skip the run count below 10 elements (``kMinTimSortLen``); Node.js 20 (V8
  11.3) does not, as ``tests/data/comparator/`` shows.

The comparator is ``Math.random() - 0.5`` with V8's ``Math.random``, ``k / 2^52``
(52 random bits, V8 4.9 (2015) until 2025, when V8 moved to 53 bits, Node.js 24):
negative for ``2^51`` of the ``2^52`` values, zero for one, positive for
``2^51 - 1``. TimSort asks ``< 0``: a fair coin (at 53 bits too); insertion sort,
retired in 2018 while ``Math.random`` had 52 bits, asks ``> 0``, true with
probability ``1/2 - 2^-52``. Over a generator, each comparison draws a 52-bit
integer ``v`` (:func:`~rnglab.shuffles.draws.random_integers`, through the
reducer) and the comparator's sign is that of ``v - 2^51``.

The exact law under an ideal source is enumerated comparison by comparison by
:func:`~rnglab.shuffles.paths.enumerate_deals` (the machinery that examines
a user's function), for ``n <= COMPARISON_LIMIT``.

References
----------
V8, ``src/js/array.js`` (``InnerArraySort``, up to V8 6.9) and
``third_party/v8/builtins/array-sort.tq`` (V8 7.0+); M. Bynens, "Getting things
sorted in V8", v8.dev, 2018; V8, ``src/base/utils/random-number-generator.h``
(``ToDouble``: ``(state0 >> 12) | 0x3FF0000000000000`` less 1, 52 bits, until the 2025
change to ``(state0 >> 11) / 2^53``). T. Peters, ``listsort.txt`` (CPython's TimSort).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from rnglab.shuffles.draws import Draws, random_integers
from rnglab.shuffles.paths import DealWeights, enumerate_deals

#: Random bits of V8's ``Math.random()`` (``k / 2^52``).
MATH_RANDOM_BITS = 52
#: Largest deck for the exact law of a comparator sort (enumerated comparison by comparison).
COMPARISON_LIMIT = 8
#: Longest array for which V8's TimSort is one counted run extended by binary insertion (the minimum run).
TIMSORT_SINGLE_RUN = 63
#: Longest array V8 sorted with ``InsertionSort`` alone (before V8 7.0).
INSERTION_LIMIT = 10


def insertion_sort(a: list, compare: Callable) -> list:
    """V8's ``InsertionSort(a, 0, n)``: element ``i`` moves left while ``compare(a[j], element) > 0``."""
    for i in range(1, len(a)):
        element, j = a[i], i - 1
        while j >= 0 and compare(a[j], element) > 0:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = element
    return a


def count_and_make_run(a: list, compare: Callable) -> int:
    """V8's ``CountAndMakeRun(0, n)``: the length of the first run, reversed in place when descending."""
    if len(a) < 2:
        return len(a)
    descending, length = compare(a[1], a[0]) < 0, 2
    while length < len(a):
        order = compare(a[length], a[length - 1])
        if (order >= 0) if descending else (order < 0):
            break
        length += 1
    if descending:
        a[:length] = a[:length][::-1]
    return length


def binary_insertion_sort(a: list, start: int, compare: Callable) -> list:
    """V8's ``BinaryInsertionSort(0, start, n)``: ``a[:start]`` is sorted; place each later element by bisection."""
    for placed in range(max(start, 1), len(a)):
        pivot, left, right = a[placed], 0, placed
        while left < right:
            middle = left + ((right - left) >> 1)
            if compare(pivot, a[middle]) < 0:
                right = middle
            else:
                left = middle + 1
        a[left + 1:placed + 1] = a[left:placed]
        a[left] = pivot
    return a


def timsort(a: list, compare: Callable) -> list:
    """V8's TimSort for ``len(a) <= 63``: the first run counted, then binary insertion of the rest."""
    if len(a) > TIMSORT_SINGLE_RUN:
        raise ValueError(f"V8's TimSort is modelled for arrays of up to {TIMSORT_SINGLE_RUN} (one run); got {len(a)}")
    return binary_insertion_sort(a, count_and_make_run(a, compare), compare) if len(a) > 1 else a


#: The sorts by algorithm name: (sort, the sign the sort asks about: -1 for ``< 0``, +1 for ``> 0``).
SORTS = {"js-sort-insertion": (insertion_sort, 1), "js-sort-timsort": (timsort, -1)}


def coin_weights(asks: int) -> tuple[int, int]:
    """Weights (answer -1, answer +1) of one comparison, from ``Math.random() - 0.5`` at 52 bits.

    A sort asking ``< 0`` sees -1 on the ``2^51`` negative values; one asking
    ``> 0`` sees +1 on the ``2^51 - 1`` positive ones (zero, at ``1/2``, counts as -1).
    """
    half = 1 << (MATH_RANDOM_BITS - 1)
    return (half, half) if asks < 0 else (half + 1, half - 1)


def comparator_deals(config, n: int) -> DealWeights:
    """The exact law of the comparator shuffle ``config`` (a :class:`~rnglab.shuffles.algorithms.Shuffle` whose
    name is a key of :data:`SORTS`) on ``n`` items under an ideal ``Math.random``."""
    name = config.name
    if n > COMPARISON_LIMIT:
        raise ValueError(f"the exact law of {name} is enumerated comparison by comparison for n <= "
                         f"{COMPARISON_LIMIT}; got {n}")
    sort, asks = SORTS[name]
    weights = coin_weights(asks)

    def shuffle(items, rng):
        return sort(items, lambda x, y: 2 * rng.choose(weights) - 1)

    return enumerate_deals(shuffle, n, label=name)


def comparator_run(decks: np.ndarray, draws: Draws, config) -> np.ndarray:
    """Sort every row with the comparator on ``draws``: each comparison draws 52 bits ``v``, sign of ``v - 2^51``."""
    sort, _ = SORTS[config.name]
    for lane in range(decks.shape[0]):
        decks[lane] = sort(decks[lane].tolist(), math_random_comparator(draws, np.arange(decks.shape[0]) == lane))
    return decks


def math_random_comparator(draws: Draws, mask: np.ndarray) -> Callable:
    """``() => Math.random() - 0.5`` on the lane ``mask`` selects: the sign of ``v - 2^51``, ``v`` 52 drawn bits."""
    half = 1 << (MATH_RANDOM_BITS - 1)

    def compare(x, y):
        value = int(random_integers(draws, MATH_RANDOM_BITS, mask)[0])
        return (value > half) - (value < half)

    return compare
