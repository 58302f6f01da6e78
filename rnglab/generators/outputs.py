"""Output functions: what a program sees of a generator's state.

An LCG's state ``x`` is rarely what a program receives. MSVC's ``rand()``
returns bits 16..30 of a 32-bit state, ``java.util.Random.next(32)`` the top
32 of 48 bits, ``lrand48()`` the top 31 of 48 bits. An :class:`Output` maps
states to outputs, vectorised, and declares the output range.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Output:
    """Map an LCG state to the value a program sees.

    ``kind == "state"`` returns the whole state; ``kind == "bits"`` returns
    ``(x >> shift) & (2**width - 1)``.

    Parameters
    ----------
    kind : {"state", "bits"}
    shift, width : int
        Used by ``"bits"`` only.
    """

    kind: str = "state"
    shift: int = 0
    width: int = 0

    def __post_init__(self) -> None:
        if self.kind not in ("state", "bits"):
            raise ValueError(f"output kind must be 'state' or 'bits'; got {self.kind!r}")
        if self.kind == "bits" and (self.shift < 0 or self.width < 1):
            raise ValueError(f"bits output needs shift >= 0 and width >= 1; got {self.shift}, {self.width}")

    @classmethod
    def state(cls) -> Output:
        """The whole state."""
        return cls("state")

    @classmethod
    def bits(cls, shift: int, width: int) -> Output:
        """Bits ``shift .. shift + width - 1`` of the state."""
        return cls("bits", shift, width)

    @classmethod
    def parse(cls, text: str) -> Output:
        """Parse ``"state"`` or ``"bits(16,15)"`` (shift, width)."""
        text = text.strip()
        if text == "state":
            return cls.state()
        match = re.fullmatch(r"bits\(\s*(\d+)\s*,\s*(\d+)\s*\)", text)
        if match is None:
            raise ValueError(f"output must be 'state' or 'bits(SHIFT,WIDTH)'; got {text!r}")
        return cls.bits(int(match.group(1)), int(match.group(2)))

    def __str__(self) -> str:
        return "state" if self.kind == "state" else f"bits({self.shift},{self.width})"

    def check_fits(self, m: int) -> None:
        """Refuse bit fields that reach above the state's top bit."""
        if self.kind == "bits" and self.shift + self.width > (m - 1).bit_length():
            raise ValueError(f"output bits({self.shift},{self.width}) needs a state of "
                             f"{self.shift + self.width} bits; m = {m} has {(m - 1).bit_length()}")

    def high(self, m: int) -> int:
        """Largest output for modulus ``m``."""
        return m - 1 if self.kind == "state" else 2**self.width - 1

    def shift_and_mask(self, m: int) -> tuple[np.uint64, np.uint64]:
        """Return ``(shift, mask)`` with output ``(x >> shift) & mask`` for states kept modulo 2^64."""
        if self.kind == "bits":
            return np.uint64(self.shift), np.uint64(2**self.width - 1)
        return np.uint64(0), np.uint64(m - 1 if m & (m - 1) == 0 and m < 2**64 else 2**64 - 1)

    def apply_int(self, x: int) -> int:
        """Apply the output function to one state (the reference path)."""
        return x if self.kind == "state" else (x >> self.shift) & (2**self.width - 1)

    def apply(self, states: np.ndarray, m: int) -> np.ndarray:
        """Apply the output function to an array of states.

        ``states`` may hold the states modulo ``2**64`` rather than modulo
        ``m`` when ``m`` is a power of two (the low bits agree); the result
        is then masked to the declared range.
        """
        if states.dtype == object:
            return np.array([self.apply_int(int(x) % m) for x in states], dtype=object)
        if self.kind == "state":
            if m & (m - 1) == 0 and m < 2**64:
                return states & np.uint64(m - 1)
            return states
        shifted = states >> np.uint64(self.shift)
        if self.shift + self.width < 64:
            shifted &= np.uint64(2**self.width - 1)
        return shifted
