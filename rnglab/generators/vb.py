"""Visual Basic's ``Randomize``: how its argument, or the ``Timer``, becomes the 16 bits ``Rnd`` starts from.

``Rnd`` is the 24-bit LCG ``x = (x * 0x43FD43FD + 0xC39EC3) mod 2^24``,
``Rnd = x / 2^24`` (catalog entry ``vbscript``; the multiplier is
``0xFD43FD`` modulo 2^24). ``Randomize`` reads a 32-bit word ``w``: the
high half of the IEEE double ``Randomize n`` is given, or the bits of the
``Single`` value of ``Timer`` for a bare ``Randomize``; it then sets

.. math::

    x \\leftarrow (x \\wedge \\mathtt{0xFF0000FF}) \\vee
    \\big(((w \\oplus (w \\gg 16)) \\wedge \\mathtt{0xFFFF}) \\ll 8\\big).

The low byte of the previous state survives; a program that calls
``Randomize`` first has ``x = 0x50000`` (VB's start state), whose low byte is
0, so its state is ``h << 8`` with ``h = (w ^ (w >> 16)) & 0xFFFF``: at most
2^16 starting states, whatever the clock. ``Timer`` is the seconds since
local midnight plus ``0.001 *`` the milliseconds, rounded to a ``Single``.

References
----------
Microsoft Knowledge Base 231847, "How Visual Basic generates pseudo-random numbers for the RND function"
(the LCG). The ``Randomize`` and ``Timer`` rules are those of ``rtcRandomize``, ``rtcGetTimer`` and
``rtcRandomNext`` in MSVBVM60.DLL as disassembled in a public question-and-answer thread
(coderapp.vercel.app/answer/79839255, a C transcription checked against twinBASIC); R. L. Mueller,
"Cracking the VBScript Rnd function" (rlmueller.net/CrackRnd.htm), finds the same constants for VBScript and
that ``Randomize 0`` leaves state 0, as this rule gives. VBScript's ``vbscript.dll`` is assumed to share
the rule (not checked against Windows here).
"""

from __future__ import annotations

import struct

import numpy as np

from rnglab.core.compiled import njit

#: Rnd's state when a program has not called Randomize.
START_STATE = 0x50000
#: The seed (``h``) of the start state under the ``vb-randomize`` convention (whose seeds are the
#: 32-bit words ``w``; a word below 2^16 is its own hash).
START_HASH = START_STATE >> 8


def randomize_hash(word):
    """``h = (w ^ (w >> 16)) & 0xFFFF``: the 16 bits ``Randomize`` keeps of its 32-bit word (vectorised)."""
    if isinstance(word, np.ndarray):
        word = word.astype(np.uint64)
        return (word ^ (word >> np.uint64(16))) & np.uint64(0xFFFF)
    return (word ^ (word >> 16)) & 0xFFFF


def number_word(number: float) -> int:
    """The word ``Randomize number`` reads: the high 32 bits of the IEEE double."""
    return struct.unpack("<II", struct.pack("<d", float(number)))[1]


def randomize_seed(number: float) -> int:
    """The ``vb-randomize`` seed ``h`` that ``Randomize number`` gives a fresh program."""
    return randomize_hash(number_word(number))


def timer_words(ms_since_midnight) -> np.ndarray:
    """The bits of the ``Single`` that ``Timer`` returns at these milliseconds since midnight (vectorised).

    ``Timer = (float)(seconds - milliseconds * -0.001)`` in double, rounded once to single precision.
    """
    ms = np.asarray(ms_since_midnight, dtype=np.int64)
    timer = (ms // 1000).astype(np.float64) - (ms % 1000).astype(np.float64) * -0.001
    return timer.astype(np.float32).view(np.uint32).astype(np.uint64)


def second_hash_counts(first_second: int, stop_second: int) -> np.ndarray:
    """How many milliseconds of the whole seconds ``[first_second, stop_second)`` give each of the 2^16 hashes.

    The same values as ``randomize_hash(timer_words(ms))`` over those milliseconds,
    computed as ``s + k * 0.001`` for second ``s`` and millisecond ``k``: equal bit
    for bit to ``s - k * -0.001`` (IEEE multiplication rounds symmetrically, and
    subtracting a negated number is adding it), without the integer divisions,
    and hashed in 32 bits (the word has 32), in one compiled pass (a day's 86.4
    million milliseconds in about 0.1 s).
    """
    counts = np.zeros(2**16, dtype=np.int64)
    _count_second_hashes(first_second, stop_second, counts)
    return counts


@njit(cache=True, nogil=True)
def _count_second_hashes(first_second, stop_second, counts):  # pragma: no cover - compiled
    single = np.empty(1000, dtype=np.float32)
    words = single.view(np.uint32)
    for second in range(first_second, stop_second):
        base = np.float64(second)
        for k in range(1000):
            single[k] = base + k * 0.001          # rounded once, double to single, as numpy's astype
        for k in range(1000):
            word = words[k]
            counts[(word ^ (word >> np.uint32(16))) & np.uint32(0xFFFF)] += 1
