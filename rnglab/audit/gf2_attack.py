"""The audit's GF(2) attack: recover a hidden state of a GF(2)-linear generator, as an opponent would.

Where every output bit is an XOR of state bits (:attr:`GeneratorSpec.is_gf2_linear
<rnglab.generators.spec.GeneratorSpec.is_gf2_linear>`), no seed needs trying:
:mod:`rnglab.recovery.linear` solves the outputs' bit equations for the state. The
audit runs that attack on a hidden state (seeded with
:data:`~rnglab.audit.target.AUDIT_SEED`, or the pipeline's own deal for the
JavaScript Fisher--Yates on V8) and reports what it took: the observations and
the rank are exact, the time of the solve is a measurement. The grade never
depends on the time: the structure decides it.

References
----------
M. Matsumoto and T. Nishimura, "Mersenne twister", ACM TOMACS 8(1), 1998 (tempering is invertible).
G. Marsaglia, "Xorshift RNGs", Journal of Statistical Software 8(14), 2003.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from rnglab.audit.target import AUDIT_SEED, Target
from rnglab.generators.xorshift import ALGORITHMS, V8MathRandom
from rnglab.recovery import linear
from rnglab.shuffles.algorithms import shuffle

#: Fewest bottom cards tried first for a V8 deal (below this, 128 state bits are never determined).
FEWEST_V8_CARDS = 24
#: CPython ``random()`` values observed (the benchmark's case, ``bench/results/linear_recovery.md``).
PYTHON_FLOATS = 624


@dataclass(frozen=True)
class LinearAttack:
    """A state recovered from a hidden one: what was observed (exact) and the solve's seconds (measured)."""

    observed: str
    rank: int
    unknowns: int
    states: int
    seconds: float


def is_v8_deal(target: Target) -> bool:
    """Whether the pipeline is the JavaScript Fisher--Yates on V8: ``Math.floor(Math.random() * i)``, ``i = n..1``."""
    return linear.is_js_fisher_yates_v8(target.generator, target.shuffle, target.reducer)


def runs_gf2_attack(target: Target) -> bool:
    """Whether :func:`linear_attack` runs for this generator (``std::mt19937_64``'s 19968 unknowns are not modelled
    by the audit: 31 of its bits never reach an output, so its state is determined only up to them)."""
    return target.generator.is_gf2_linear and not (target.generator.kind == "linear"
                                                   and target.generator.algorithm == "mt19937_64")


def linear_attack(target: Target) -> LinearAttack:
    """Recover a hidden state of a GF(2)-linear ``target`` (:func:`runs_gf2_attack`) and time the solve.

    The JavaScript Fisher--Yates on V8: the fewest bottom cards of the deal of
    seed :data:`AUDIT_SEED` that leave one state (cache phase 0, a fresh node
    process). Otherwise raw outputs: 624 ``getrandbits(32)`` words of MT19937,
    :data:`PYTHON_FLOATS` CPython ``random()`` values, four V8 ``Math.random()``
    values, or ``ceil(k / w)`` whole outputs of a ``k``-bit xorshift or WELL.
    """
    if is_v8_deal(target):
        return _v8_deal_attack(target)
    generator = target.generator
    hidden = generator.make(AUDIT_SEED)
    if generator.kind == "python" and generator.words == "random53":
        floats = [int(v) / 2.0**53 for v in hidden.random_raw(PYTHON_FLOATS)]
        return _timed(f"{PYTHON_FLOATS} consecutive random() values", linear.recover_python_floats, floats)
    if generator.kind in ("python", "numpy"):
        words = hidden.random_raw(624).tolist()
        return _timed("624 consecutive 32-bit outputs", linear.recover_python_words, words)
    variant = ALGORITHMS[generator.algorithm]
    if issubclass(variant, V8MathRandom):
        width = linear.v8_width(variant)
        doubles = [int(v) / 2.0**width for v in hidden.random_raw(4)]
        model = linear.linear_source_model(variant.engine_class)
        return _timed("4 consecutive Math.random() values", linear.solve, model,
                      linear.v8_double_observations(doubles, 0, width))
    model = linear.linear_source_model(ALGORITHMS[generator.algorithm])
    count = math.ceil(model.unknowns / model.width)
    outputs = hidden.random_raw(count)
    observations = [linear.Observation.exact(t, int(v), model.width) for t, v in enumerate(outputs)]
    return _timed(f"{count} consecutive outputs" if count > 1 else "one output", linear.solve, model, observations)


def _timed(observed: str, recover, *arguments) -> LinearAttack:
    """Run the recovery once untimed (compiling, building the model), then timed."""
    recover(*arguments)
    start = time.perf_counter()
    found = recover(*arguments)
    seconds = time.perf_counter() - start
    return LinearAttack(observed, found.rank, found.unknowns, len(found.states), seconds)


def _v8_deal_attack(target: Target) -> LinearAttack:
    """The fewest bottom cards of one deal that leave one V8 state, the solve timed again on them."""
    bottom, found = fewest_bottom_cards(target, AUDIT_SEED)
    start = time.perf_counter()
    linear.recover_v8_deal(bottom, target.n, variant=ALGORITHMS[target.generator.algorithm])
    seconds = time.perf_counter() - start
    return LinearAttack(f"the {len(bottom)} bottom cards of one deal", found.rank, found.unknowns, 1, seconds)


def fewest_bottom_cards(target: Target, seed: int) -> tuple[list[int], linear.V8Recovery]:
    """The fewest bottom cards (position n-1 first) of the V8 deal of ``seed`` that leave one state (cache phase
    0), and the recovery; the deal's true state must be among those found."""
    deck = [int(card) for card in shuffle(target.n, target.generator.make(seed), target.shuffle, target.reducer)]
    truth = target.generator.make(seed).words
    for cards in range(min(FEWEST_V8_CARDS, target.n), target.n + 1):
        bottom = deck[::-1][:cards]
        try:
            found = linear.recover_v8_deal(bottom, target.n, variant=ALGORITHMS[target.generator.algorithm])
        except linear.UnderdeterminedState:
            continue
        if (0, truth) not in found.solutions:
            raise RuntimeError("the GF(2) recovery missed the deal's state")  # the library's own consistency
        if len(found.solutions) == 1:
            return bottom, found
    raise RuntimeError("the whole deal leaves more than one V8 state")
