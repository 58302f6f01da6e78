"""The three streams of 32-bit words that driver.c and rnglab's tests read: one good, two defective.

    pcg64   numpy's PCG64 seeded 12345: each 64-bit output as two words, its low half first.
    lfib    the additive lagged Fibonacci x_n = x_(n-24) + x_(n-55) mod 2^32 (Knuth, TAOCP vol. 2, 3.2.2 eq. (7)),
            its 55 first words those of lcg16 below.
    lcg16   the 32-bit LCG x_(n+1) = 69069 x_n + 1 mod 2^32 from x_0 = 12345, the top 16 bits of two successive
            states to a word (the first in the low half).

``python streams.py NAME`` writes NAME's words (little-endian) to standard output until the reader stops.
"""

from __future__ import annotations

import sys

import numba
import numpy as np

NAMES = ("pcg64", "lfib", "lcg16")


@numba.njit
def _lcg16(state, out):  # pragma: no cover - compiled
    for i in range(out.size):
        low = np.uint32(0)
        for half in range(2):
            state = np.uint32(np.uint32(69069) * state + np.uint32(1))
            low |= (state >> np.uint32(16)) << np.uint32(16 * half)
        out[i] = low
    return state


@numba.njit
def _lfib(ring, position, out):  # pragma: no cover - compiled
    for i in range(out.size):
        value = np.uint32(ring[(position + 31) % 55] + ring[position])  # x_(n-24) + x_(n-55)
        ring[position] = value
        position = (position + 1) % 55
        out[i] = value
    return position


class Words:
    """``next(count)``: the stream's next ``count`` words, as a uint32 array."""

    def __init__(self, name: str) -> None:
        self.name = name
        if name == "pcg64":
            self.bits = np.random.PCG64(12345)
        elif name in ("lcg16", "lfib"):
            self.state = np.uint32(12345)
            if name == "lfib":
                self.ring = np.empty(55, dtype=np.uint32)
                self.state = _lcg16(self.state, self.ring)
                self.position = 0
        else:
            raise ValueError(f"unknown stream {name!r}; choose from {', '.join(NAMES)}")
        self.spare = np.empty(0, dtype=np.uint32)

    def next(self, count: int) -> np.ndarray:
        out = np.empty(count, dtype=np.uint32)
        if self.name == "pcg64":
            taken = min(count, self.spare.size)
            out[:taken], self.spare = self.spare[:taken], self.spare[taken:]
            if count > taken:
                words = self.bits.random_raw((count - taken + 1) // 2).astype("<u8").view("<u4")
                out[taken:], self.spare = words[: count - taken], words[count - taken:]
        elif self.name == "lcg16":
            self.state = _lcg16(self.state, out)
        else:
            self.position = _lfib(self.ring, self.position, out)
        return out


def main() -> None:
    words = Words(sys.argv[1])
    try:
        while True:
            sys.stdout.buffer.write(words.next(1 << 20).astype("<u4").tobytes())
    except BrokenPipeError:
        sys.stderr.close()


if __name__ == "__main__":
    main()
