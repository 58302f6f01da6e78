"""Compiled fill loops (numba) of the GF(2)-linear generators of :mod:`rnglab.generators.xorshift`.

Each kernel steps a state held in a uint64 array in place and writes one
output per step into ``out``; 32-bit generators keep their words in uint64
and mask them. All constants are ``np.uint64`` (numba turns mixed uint64 and
int64 arithmetic into float64).
"""

from __future__ import annotations

import numpy as np

from rnglab.core.compiled import njit

_MASK32 = np.uint64(0xFFFFFFFF)
_ONE = np.uint64(1)


@njit(cache=True, nogil=True, inline="always")
def rotate_left(x, k):  # pragma: no cover - compiled
    """``x`` rotated left by ``k`` (0 < k < 64) in 64 bits."""
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, nogil=True)
def fill_xorshift32(state, out):  # pragma: no cover - compiled
    """Marsaglia's xor32: ``y ^= y << 13; y ^= y >> 17; y ^= y << 5``; output y."""
    y = state[0]
    for k in range(out.size):
        y ^= (y << np.uint64(13)) & _MASK32
        y ^= y >> np.uint64(17)
        y ^= (y << np.uint64(5)) & _MASK32
        out[k] = y
    state[0] = y


@njit(cache=True, nogil=True)
def fill_xorshift64(state, out):  # pragma: no cover - compiled
    """Marsaglia's xor64: ``x ^= x << 13; x ^= x >> 7; x ^= x << 17``; output x."""
    x = state[0]
    for k in range(out.size):
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        out[k] = x
    state[0] = x


@njit(cache=True, nogil=True)
def fill_xorshift128(state, out):  # pragma: no cover - compiled
    """Marsaglia's xor128: ``t = x ^ (x << 11); (x, y, z) = (y, z, w); w ^= (w >> 19) ^ t ^ (t >> 8)``; output w."""
    x, y, z, w = state[0], state[1], state[2], state[3]
    for k in range(out.size):
        t = x ^ ((x << np.uint64(11)) & _MASK32)
        x, y, z = y, z, w
        w = w ^ (w >> np.uint64(19)) ^ t ^ (t >> np.uint64(8))
        out[k] = w
    state[0], state[1], state[2], state[3] = x, y, z, w


@njit(cache=True, nogil=True, inline="always")
def xoroshiro128_step(s0, s1, a, b, c):  # pragma: no cover - compiled
    """The xoroshiro128 linear engine with rotations and shift (a, b, c): the next (s0, s1)."""
    s1 ^= s0
    return rotate_left(s0, a) ^ s1 ^ (s1 << np.uint64(b)), rotate_left(s1, c)


@njit(cache=True, nogil=True)
def fill_xoroshiro128(state, out, scrambler):  # pragma: no cover - compiled
    """xoroshiro128 with scrambler 0 (``+``: s0 + s1; engine 24, 16, 37), 1 (``++``: rotl(s0 + s1, 17) + s0;
    engine 49, 21, 28) or 2 (``**``: rotl(5 s0, 7) 9; engine 24, 16, 37)."""
    s0, s1 = state[0], state[1]
    for k in range(out.size):
        if scrambler == 0:
            out[k] = s0 + s1
            s0, s1 = xoroshiro128_step(s0, s1, 24, 16, 37)
        elif scrambler == 1:
            out[k] = rotate_left(s0 + s1, 17) + s0
            s0, s1 = xoroshiro128_step(s0, s1, 49, 21, 28)
        else:
            out[k] = rotate_left(s0 * np.uint64(5), 7) * np.uint64(9)
            s0, s1 = xoroshiro128_step(s0, s1, 24, 16, 37)
    state[0], state[1] = s0, s1


@njit(cache=True, nogil=True)
def fill_xoshiro256(state, out, scrambler):  # pragma: no cover - compiled
    """xoshiro256 with scrambler 0 (``+``: s0 + s3) or 2 (``**``: rotl(5 s1, 7) 9); engine shift 17, rotation 45."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for k in range(out.size):
        out[k] = s0 + s3 if scrambler == 0 else rotate_left(s1 * np.uint64(5), 7) * np.uint64(9)
        t = s1 << np.uint64(17)
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotate_left(s3, 45)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


@njit(cache=True, nogil=True)
def fill_well512a(state, out):  # pragma: no cover - compiled
    """WELL512a: 16 words ``state[0..15]`` and the index ``state[16]``; output the new word ``V_0``."""
    i = np.int64(state[16])
    for k in range(out.size):
        v0, vm1, vm2 = state[i], state[(i + 13) & 15], state[(i + 9) & 15]
        z0 = state[(i + 15) & 15]
        z1 = (v0 ^ ((v0 << np.uint64(16)) & _MASK32)) ^ (vm1 ^ ((vm1 << np.uint64(15)) & _MASK32))
        z2 = vm2 ^ (vm2 >> np.uint64(11))
        new1 = z1 ^ z2
        state[i] = new1
        new0 = (z0 ^ ((z0 << np.uint64(2)) & _MASK32)) ^ (z1 ^ ((z1 << np.uint64(18)) & _MASK32)) \
            ^ ((z2 << np.uint64(28)) & _MASK32) ^ (new1 ^ ((new1 << np.uint64(5)) & np.uint64(0xDA442D24)))
        i = (i + 15) & 15
        state[i] = new0
        out[k] = new0
    state[16] = np.uint64(i)


@njit(cache=True, nogil=True, inline="always")
def v8_step(s0, s1):  # pragma: no cover - compiled
    """V8's ``XorShift128``: ``(s0, s1) -> (s1, t)``, ``t = a ^ a << 23 ^ ... `` (shifts 23, 17, 26)."""
    t = s0
    t ^= t << np.uint64(23)
    t ^= t >> np.uint64(17)
    t ^= s1
    t ^= s1 >> np.uint64(26)
    return s1, t


@njit(cache=True, nogil=True)
def fill_v8_engine(state, out, shift):  # pragma: no cover - compiled
    """V8's xorshift128, one output per step in the order generated: the new ``state0 >> shift``
    (12: the 52 bits of V8 7.1 to 13.4, 11: the 53 bits of V8 13.5 on)."""
    s0, s1 = state[0], state[1]
    for k in range(out.size):
        s0, s1 = v8_step(s0, s1)
        out[k] = s0 >> np.uint64(shift)
    state[0], state[1] = s0, s1


@njit(cache=True, nogil=True)
def fill_v8_cached(state, cache, out, shift):  # pragma: no cover - compiled
    """V8's ``Math.random``: the 64-value cache filled forward (:func:`fill_v8_engine`), handed out last first.

    ``state`` holds ``state0, state1`` and the cache index (values left); ``cache`` the 64 outputs.
    """
    index = state[2]
    for k in range(out.size):
        if index == 0:
            fill_v8_engine(state, cache, shift)
            index = np.uint64(cache.size)
        index -= _ONE
        out[k] = cache[index]
    state[2] = index


#: Bits of an IEEE double's exponent field, and the quiet NaN ``std::numeric_limits<double>::quiet_NaN()``.
_EXPONENT = np.uint64(0x7FF0000000000000)
_QUIET_NAN = np.uint64(0x7FF8000000000000)
_MANTISSA = np.uint64(0x000FFFFFFFFFFFFF)


@njit(cache=True, nogil=True, inline="always")
def stored_as_double(word):  # pragma: no cover - compiled
    """``word`` after a round trip through a ``FixedDoubleArray`` slot, which stores every NaN as the quiet NaN."""
    if (word & _EXPONENT) == _EXPONENT and (word & _MANTISSA) != np.uint64(0):
        return _QUIET_NAN
    return word


@njit(cache=True, nogil=True)
def fill_v8_plus_cached(state, cache, out):  # pragma: no cover - compiled
    """V8 4.9 to 7.0's ``Math.random``: 62 values ``(state0 + state1) mod 2^52`` a refill, handed out last first.

    ``state`` holds ``state0, state1`` and the cache index; after each refill the
    words are stored in the cache's last two double slots (:func:`stored_as_double`).
    """
    index = state[2]
    for k in range(out.size):
        if index == 0:
            s0, s1 = state[0], state[1]
            for i in range(cache.size):
                s0, s1 = v8_step(s0, s1)
                cache[i] = (s0 + s1) & _MANTISSA
            state[0], state[1] = stored_as_double(s0), stored_as_double(s1)
            index = np.uint64(cache.size)
        index -= _ONE
        out[k] = cache[index]
    state[2] = index


@njit(cache=True, nogil=True)
def fill_mt19937_64(state, out):  # pragma: no cover - compiled
    """``std::mt19937_64``: 312 words ``state[0..311]`` and the index ``state[312]``; tempered outputs."""
    n, m = 312, 156
    upper, lower = np.uint64(0xFFFFFFFF80000000), np.uint64(0x7FFFFFFF)
    index = np.int64(state[n])
    for k in range(out.size):
        if index >= n:
            for i in range(n):
                y = (state[i] & upper) | (state[(i + 1) % n] & lower)
                state[i] = state[(i + m) % n] ^ (y >> _ONE) ^ (np.uint64(0xB5026F5AA96619E9) if y & _ONE else
                                                             np.uint64(0))
            index = 0
        x = state[index]
        index += 1
        x ^= (x >> np.uint64(29)) & np.uint64(0x5555555555555555)
        x ^= (x << np.uint64(17)) & np.uint64(0x71D67FFFEDA60000)
        x ^= (x << np.uint64(37)) & np.uint64(0xFFF7EEE000000000)
        x ^= x >> np.uint64(43)
        out[k] = x
    state[n] = np.uint64(index)
