"""State recovery from outputs seen directly: every state of a power-of-two LCG consistent with them.

An output ``(x >> shift) & (2^width - 1)`` of a state ``x`` modulo ``2^e``
hides ``e - width`` bits: the first output leaves ``2^(e - width)`` candidate
states (Java's ``nextInt()``: 2^16), each later output keeps a wrong one with
probability ``2^-width``, and the survivors are stepped back to the seed where
the seeding convention can be inverted (Java's scrambling).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rnglab.core.params import parse_int
from rnglab.core.results import Result
from rnglab.generators import LCG, GeneratorSpec, LCGBatch, Source
from rnglab.generators.affine import arithmetic_kind
from rnglab.generators.conventions import JAVA_MULTIPLIER

#: Most hidden state bits tried when recovering a state from outputs.
MAX_HIDDEN_BITS = 26
#: Most outputs predicted after a recovered state.
MAX_PREDICTED = 10**6


@dataclass(frozen=True)
class StateRecovery(Result):
    """States of an LCG consistent with consecutive outputs, and what follows.

    Attributes
    ----------
    generator : str
    outputs : list of int
        The outputs seen (as the generator's raw values).
    hidden_bits : int
        State bits an output does not show; ``2^hidden_bits`` states were tried.
    states : list of int
        Every state consistent with the outputs, as it is after the last output.
    initial_states : list of int
        The state before the first output (the seeded state, if that output was the first).
    seeds : list of int or None
        The seed that gives each initial state (Java: ``state XOR 0x5DEECE66D``, modulo 2^48).
    predicted : list of list of int
        For each state, the next outputs.
    """

    generator: str
    outputs: list
    hidden_bits: int
    states: list
    initial_states: list
    seeds: list | None
    predicted: list


def parse_outputs(text: str, source: Source) -> list[int]:
    """Parse comma-separated outputs; negative values are read as the signed form of a word (Java's int)."""
    values = []
    for token in text.replace(",", " ").split():
        value = parse_int(token)
        if value < 0:
            value += source.range_size
        if not source.low <= value <= source.high:
            raise ValueError(f"outputs of {source.name} are in [{source.low}, {source.high}] "
                             f"(or signed); got {token}")
        values.append(value)
    if len(values) < 2:
        raise ValueError(f"give at least two consecutive outputs; got {len(values)}")
    return values


def recover_state(generator: GeneratorSpec, outputs: list[int], predict: int = 10) -> StateRecovery:
    """Recover an LCG's state from consecutive outputs that show some of its bits.

    An output ``(x >> shift) & (2^width - 1)`` of a state ``x`` modulo
    ``2^e`` hides ``e - width`` bits: the first output leaves ``2^(e - width)``
    candidate states (Java's ``nextInt()``: 2^16), and each later output keeps
    a wrong one with probability ``2^-width``.

    Raises
    ------
    ValueError
        For a generator that is not a power-of-two LCG with a bits output, or
        more than ``2^26`` candidates.
    """
    if predict > MAX_PREDICTED:
        raise ValueError(f"at most {MAX_PREDICTED:,} outputs are predicted; got {predict:,}")
    source = generator.make()
    if not isinstance(source, LCG) or arithmetic_kind(source.m) != "pow2" or source.output.kind != "bits":
        raise ValueError(f"{generator}: state recovery from outputs needs an LCG with m = 2^e and a bits(...) output")
    shift, width = source.output.shift, source.output.width
    hidden = source.m.bit_length() - 1 - width
    if hidden > MAX_HIDDEN_BITS:
        raise ValueError(f"{generator} hides {hidden} state bits per output, more than {MAX_HIDDEN_BITS} to try")
    lanes = _candidate_states(outputs[0], shift, width, hidden)
    batch = LCGBatch(a=source.a, m=source.m, c=source.c, states=lanes, output=source.output)
    keep = np.ones(len(lanes), dtype=bool)
    for value in outputs[1:]:
        keep &= batch.next_raw() == np.uint64(value)
    states = [int(s) for s in batch.current_states()[keep]]
    initial = [_step_back(source, int(s)) for s in lanes[keep]]
    seeds = [s ^ JAVA_MULTIPLIER for s in initial] if source.seeding.name == "java" else \
        initial if source.seeding.name in ("state", "uint32") else None
    predicted = [[int(v) for v in _continue(source, s, predict)] for s in states]
    return StateRecovery(generator.name, list(outputs), hidden, states, initial, seeds, predicted)


def _candidate_states(output: int, shift: int, width: int, hidden: int) -> np.ndarray:
    """Every state whose output is ``output``: the hidden low ``shift`` bits and high bits, all values."""
    free = np.arange(1 << hidden, dtype=np.uint64)
    low, high = free & np.uint64((1 << shift) - 1), free >> np.uint64(shift)
    return low | (np.uint64(output) << np.uint64(shift)) | (high << np.uint64(shift + width))


def _step_back(source: LCG, state: int) -> int:
    """The state one step earlier: ``x = (x' - c) a^-1 mod m`` (``a`` is odd)."""
    return (state - source.c) * pow(source.a, -1, source.m) % source.m


def _continue(source: LCG, state: int, count: int) -> np.ndarray:
    return LCG(a=source.a, c=source.c, m=source.m, seed=state, output=source.output).random_raw(count)
