"""Sorting the large integer samples of the spacing and collision tests: a radix sort, two to three times numpy's.

Birthday spacings sort millions of birthdays and then their spacings, and the
collision test its cells; numpy's comparison sort was most of their time.
"""

from __future__ import annotations

import threading

import numpy as np

from rnglab.core.compiled import njit

#: Bits of the key sorted at each pass: 2,048 counters stay in the processor's first-level cache.
DIGIT_BITS = 11

#: From this many values on, the first pass splits them by their top digit and each part is sorted on its own
#: (:func:`_split_passes`); below, every part would hold too few values to pay for its counters.
SPLIT_SIZE = 2**20

#: A part of at most this many values is sorted by insertion rather than by digits.
INSERTION_SIZE = 32

#: Held by a sort from its scratch's allocation to its release: sorts in threads side by side (a run until it fails
#: runs its two birthday-spacings entries and its collision entry at once, each sorting up to 2^23 values) hold one
#: scratch array at a time, not one each (on 256 MiB of input: 64 + 43 + 32 MiB at once).
SCRATCH_LOCK = threading.Lock()


def radix_sort(values: np.ndarray) -> np.ndarray:
    """Sort an array of unsigned integers in place (and return it), as ``values.sort()`` would.

    A least-significant-digit radix sort: one pass counts every digit of
    ``DIGIT_BITS`` bits of every value, then each digit, from the lowest,
    scatters the values stably by that digit into a second array, for as many
    digits as the largest value has (Knuth, TAOCP vol. 3, 5.2.5). Time
    ``O(n b / 11)`` for ``b``-bit values, against ``O(n log n)`` comparisons.

    From :data:`SPLIT_SIZE` values on, each of those passes would scatter the
    values over the whole array, out of the processor's caches: the values are
    instead split once by their top ``DIGIT_BITS`` bits (a most-significant-digit
    pass, Knuth 5.2.5 again), and each of the ``2^11`` parts, a few thousand
    values that stay in cache, is sorted on the bits left, by digits of at most
    ``DIGIT_BITS - 1`` bits (fewer counters for a small part), or by insertion
    when it holds at most :data:`INSERTION_SIZE` values (:func:`_split_passes`);
    about twice as fast on ``2^23`` values of 60 bits. Either way the values
    end sorted, the same array; the scratch, an array as large, is allocated
    and freed under :data:`SCRATCH_LOCK`, so that sorts in several threads
    hold one at a time.

    Examples
    --------
    >>> radix_sort(np.array([5, 3, 2**40, 0, 3], dtype=np.uint64)).tolist()
    [0, 3, 3, 5, 1099511627776]
    """
    if values.dtype.kind != "u" or values.ndim != 1:
        raise TypeError(f"radix_sort sorts a one-dimensional unsigned array; got {values.dtype} of {values.ndim} "
                        "dimensions")
    if values.size < 2:
        return values
    bits = int(values.max()).bit_length()
    passes = -(-bits // DIGIT_BITS)
    if not passes:
        return values
    with SCRATCH_LOCK:  # one scratch at a time (the kernels free the interpreter: other threads go on)
        scratch = np.empty_like(values)
        if passes > 1 and values.size >= SPLIT_SIZE:
            _split_passes(values, scratch, bits)
        elif _radix_passes(values, scratch, passes) % 2:
            values[:] = scratch
        del scratch
    return values


@njit(cache=True, nogil=True)
def _radix_passes(values, scratch, passes):  # pragma: no cover - compiled
    """Sort by ``passes`` digits of DIGIT_BITS bits, from the lowest; the result is in ``values`` after an even
    number of passes, in ``scratch`` after an odd one."""
    size = 1 << DIGIT_BITS
    mask = values.dtype.type(size - 1)
    counts = np.zeros((passes, size), dtype=np.int64)
    for value in values:
        for digit in range(passes):
            counts[digit, (value >> values.dtype.type(digit * DIGIT_BITS)) & mask] += 1
    source, target = values, scratch
    for digit in range(passes):
        start = 0
        for bucket in range(size):
            count = counts[digit, bucket]
            counts[digit, bucket] = start
            start += count
        shift = values.dtype.type(digit * DIGIT_BITS)
        for value in source:
            bucket = (value >> shift) & mask
            target[counts[digit, bucket]] = value
            counts[digit, bucket] += 1
        source, target = target, source
    return passes


@njit(cache=True, nogil=True)
def _split_passes(values, scratch, bits):  # pragma: no cover - compiled
    """Sort ``values`` (of at most ``bits`` bits, more than ``DIGIT_BITS``): split them into ``scratch`` by their
    top ``DIGIT_BITS`` bits, then sort each part apart, back into ``values``.

    A part is sorted by the least-significant-digit passes of :func:`_radix_passes` on its ``r = bits - 11``
    low bits, with ``p = ceil(r / 10)`` digits of ``ceil(r / p)`` bits, between its place in ``scratch`` and its
    place in ``values`` (copied back when ``p`` is even); a part of at most ``INSERTION_SIZE`` values by insertion.
    """
    parts = 1 << DIGIT_BITS
    low_bits = bits - DIGIT_BITS
    top = values.dtype.type(low_bits)
    bounds = np.zeros(parts + 1, dtype=np.int64)
    for value in values:
        bounds[(value >> top) + 1] += 1
    for part in range(parts):
        bounds[part + 1] += bounds[part]
    filled = bounds[:parts].copy()
    for value in values:
        part = value >> top
        scratch[filled[part]] = value
        filled[part] += 1
    passes = -(-low_bits // (DIGIT_BITS - 1))
    width = -(-low_bits // passes)
    mask = values.dtype.type((1 << width) - 1)
    counts = np.empty(1 << width, dtype=np.int64)
    for part in range(parts):
        low, high = bounds[part], bounds[part + 1]
        if high - low <= INSERTION_SIZE:
            for i in range(low, high):
                value, j = scratch[i], i
                while j > low and values[j - 1] > value:
                    values[j] = values[j - 1]
                    j -= 1
                values[j] = value
            continue
        source, target = scratch[low:high], values[low:high]
        for digit in range(passes):
            shift = values.dtype.type(digit * width)
            counts[:] = 0
            for value in source:
                counts[(value >> shift) & mask] += 1
            start = 0
            for bucket in range(counts.size):
                count = counts[bucket]
                counts[bucket] = start
                start += count
            for value in source:
                bucket = (value >> shift) & mask
                target[counts[bucket]] = value
                counts[bucket] += 1
            source, target = target, source
        if passes % 2 == 0:
            values[low:high] = scratch[low:high]
