"""Published state sizes and periods of the generators that are not LCGs (an LCG's come from number theory)."""

from __future__ import annotations

#: name -> (state bits, period, source). The period is of the output sequence's underlying state.
KNOWN_STATES = {
    "glibc": (31 * 32, 16 * (2**31 - 1), "glibc random(3): TYPE_3 additive feedback, 31 words; "
                                         "'period approximately 16 * ((2^31) - 1)'"),
    "pcg64": (128, 2**128, "O'Neill, PCG, HMC-CS-2014-0905 (128-bit LCG state, period 2^128)"),
    "pcg64_uint32": (128, 2**128, "O'Neill, PCG, HMC-CS-2014-0905 (128-bit LCG state, period 2^128)"),
    "mt19937": (19937, 2**19937 - 1, "Matsumoto and Nishimura, ACM TOMACS 8(1), 1998"),
    "python": (19937, 2**19937 - 1, "CPython's random module is MT19937 (Matsumoto and Nishimura 1998)"),
    "python_random53": (19937, 2**19937 - 1, "CPython's random module is MT19937 (Matsumoto and Nishimura 1998)"),
}
