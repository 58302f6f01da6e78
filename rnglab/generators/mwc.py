"""Multiply-with-carry generators, run as their equivalent Lehmer generator.

Marsaglia's multiply-with-carry generator (MWC) with multiplier a and base b
keeps a value x and a carry c and computes

    t = a x_{n-1} + c_{n-1},    x_n = t mod b,    c_n = floor(t / b),

returning x_n. Its programs keep the one word t_n = c_n b + x_n
(``z = 36969 * (z & 65535) + (z >> 16)``: a = 36969, b = 2^16). With
m = a b - 1,

    b t_{n+1} = a b x_n + b c_n = m x_n + t_n,

so t_{n+1} = a t_n mod m and x_n = t_n mod b = floor(b t_{n+1} / m): the
words are the states of the Lehmer generator with modulus m and multiplier a,
and the outputs, read backwards, are floor(b w / m) for the states w of the
Lehmer generator with multiplier b = a^{-1} mod m (Couture and L'Ecuyer 1997).
The valid words are 0 < t < m (c < a, and neither of the fixed points
t = 0 and t = m, which is x = b - 1, c = a - 1); from each the period is the
order of b (equally of a) modulo m when m is prime. Marsaglia chooses a with
m and (m - 1)/2 both prime (a safe prime); b = 2^16 or 2^32 is a square, so
its order, the period, is (m - 1)/2.

rnglab runs an MWC as that LCG: state t, seed t (the word its programs keep),
output the low k bits of t for b = 2^k (other bases are refused: the
published MWCs use 2^16 and 2^32). Everything an LCG has (exact period,
jump-ahead, batches, the compiled seed search) then applies as it is.

References
----------
G. Marsaglia, "Random numbers for C: End, at last?", sci.stat.math, 1999 (KISS99's two MWCs).
R. Couture and P. L'Ecuyer, "Distribution properties of multiply-with-carry random number
generators", Mathematics of Computation 66(218), 1997.
M. Goresky and A. Klapper, "Efficient multiply-with-carry random number generators with
maximal period", ACM TOMACS 13(4), 2003.
"""

from __future__ import annotations

from dataclasses import dataclass

from rnglab.core.params import parse_int
from rnglab.generators.outputs import Output


@dataclass(frozen=True)
class MultiplyWithCarry:
    """The parameters of a lag-1 MWC ``t -> a (t mod b) + floor(t / b)``, with ``b = 2^k``.

    Raises
    ------
    ValueError
        Unless ``b`` is a power of two from 2 and ``1 < a < b``.
    """

    a: int
    b: int

    def __post_init__(self) -> None:
        for name, value in (("a", self.a), ("b", self.b)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"MWC {name} must be an integer; got {type(value).__name__}")
        if self.b < 2 or self.b & (self.b - 1):
            raise ValueError(f"MWC base b must be a power of two 2^k, k >= 1 (Marsaglia's 2^16, 2^32); got {self.b}")
        if not 1 < self.a < self.b:
            raise ValueError(f"MWC multiplier a must be in (1, b) = (1, {self.b}); got {self.a}")

    @classmethod
    def from_text(cls, a: str, b: str) -> MultiplyWithCarry:
        """The MWC of the expressions ``a`` and ``b`` (``2^32``)."""
        return cls(parse_int(a), parse_int(b))

    @property
    def modulus(self) -> int:
        """m = a b - 1, the modulus of the equivalent Lehmer generator (multiplier a)."""
        return self.a * self.b - 1

    @property
    def output(self) -> Output:
        """x = t mod b: the low log2(b) bits of the word t."""
        return Output.bits(0, self.b.bit_length() - 1)

    def __str__(self) -> str:
        return f"a={self.a},b={_power(self.b)}"


def _power(b: int) -> str:
    return f"2^{b.bit_length() - 1}"
