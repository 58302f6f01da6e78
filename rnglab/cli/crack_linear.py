"""``rnglab crack --method linear``: a GF(2)-linear generator's state by elimination (:mod:`rnglab.recovery.linear`).

Two inputs: the bottom cards of a JavaScript Fisher--Yates deal on V8
(``js-fisher-yates-v8``, dealt from the end of the array), or consecutive raw
outputs (``--outputs``: CPython's ``getrandbits(32)`` words or ``random()``
floats, numpy's MT19937 words, whole outputs of xorshift or WELL,
``Math.random()`` values). Too few observations: the rank and how many more it
takes, one line, status 2 (as the lattice method's).
"""

from __future__ import annotations

from pathlib import Path

import click

from rnglab.cli.common import emit_json, lazy

(is_js_fisher_yates_v8, recover_v8_deal, predict_v8_deal, recover_python_floats, recover_python_words,
 python_random_at, python_words, linear_source_model, solve) = lazy("recovery.linear", "is_js_fisher_yates_v8", "recover_v8_deal", "predict_v8_deal", "recover_python_floats",
    "recover_python_words", "python_random_at", "python_words", "linear_source_model", "solve")

#: Highest ``--random_seed`` node takes (a 32-bit signed flag).
NODE_SEED_BITS = 31
#: State words printed per state of the 624-word MT19937 (``--json`` gives them all).
SHOWN_WORDS = 4


def parse_phase(text: str) -> int | None:
    """``--cache-phase``: values of V8's 64-value block taken before the deal, or ``any`` (None: each in turn)."""
    if text == "any":
        return None
    if not text.isdigit() or not 0 <= int(text) < 64:
        raise ValueError(f"--cache-phase is the values taken from V8's block of 64 before the deal: 0..63 or any; "
                         f"got {text!r}")
    return int(text)


def linear_deal(generator, reducer, shuffle, seen: str, positions: str | None, deck, phase: int | None, why: str,
                as_json: bool) -> None:
    """The V8 states behind the bottom cards of a JavaScript Fisher--Yates deal; each one's seed and deck."""
    from rnglab.recovery.crack import observe

    if not is_js_fisher_yates_v8(generator, shuffle, reducer):
        raise ValueError(f"--method linear reads the cards of js-fisher-yates-v8 only (V8's Math.random, "
                         f"Math.floor(Math.random() * i)); for {generator.name} give its outputs (--outputs) or "
                         "a seed space to search (--seeds)")
    observation = observe(seen, None, deck)
    size, count = observation.deck.size, observation.size
    bottom = tuple(range(size - 1, size - 1 - count, -1))
    if positions is not None and observe(seen, positions, deck).positions != bottom:
        raise ValueError(f"--method linear reads the bottom cards, dealt from the end: positions {size - 1}, "
                         f"{size - 2}, ... in that order; got {positions}")
    found = recover_v8_deal([int(card) for card in observation.cards], size, phase)
    decks = [predict_v8_deal(words, p, size) for p, words in found.solutions]
    rows = [{"phase": p, "state": list(words), "seed": _signed(seed), "random_seed": _node_flag(seed),
             "deck": observation.deck.names(deck)} for (p, words), seed, deck in zip(found.solutions, found.seeds, decks)]
    seen_names = observation.deck.names(observation.cards)
    if as_json:
        emit_json({"generator": generator.name, "algorithm": shuffle.name, "reducer": reducer.name,
                   "seen": seen_names, "positions": list(bottom), "rank": found.rank, "unknowns": found.unknowns,
                   "phases_tried": found.phases_tried, "candidates": rows, "method": "linear", "why": why})
        return
    click.echo(f"method: linear ({why})", err=True)
    phases = "cache phase 0" if phase == 0 else (f"cache phase {phase}" if phase is not None else
                                                 f"{found.phases_tried} cache phases tried")
    lines = [(f"{generator.name}, {shuffle.name} with {reducer.name}: {len(rows)} state(s) from {count} bottom cards "
              f"(rank {found.rank} of {found.unknowns}; GF(2) elimination; {phases})"),
             f"cards seen: {' '.join(seen_names)} at positions {', '.join(map(str, bottom))}"]
    for row in rows:
        seed = ("" if row["seed"] is None else f", seed {row['seed']}" +
                (f" (node --random_seed={row['random_seed']})" if row["random_seed"] is not None else
                 " (beyond node's 32-bit --random_seed)"))
        lines.append(f"phase {row['phase']}: state {row['state'][0]:#018x} {row['state'][1]:#018x}{seed}")
        lines.append("deck: " + " ".join(row["deck"]))
    click.echo("\n".join(lines))


def _signed(seed: int | None) -> int | None:
    """A seed modulo 2^64 as the signed 64-bit value (node's negative flags come back negative)."""
    return None if seed is None else seed - 2**64 if seed >= 2**63 else seed


def _node_flag(seed: int | None) -> int | None:
    """The ``--random_seed`` that gives the seed, where node's 32-bit signed flag can (0 means the OS: none)."""
    signed = _signed(seed)
    return signed if signed is not None and signed != 0 and -2**NODE_SEED_BITS <= signed < 2**NODE_SEED_BITS else None


def linear_outputs(generator, text: str, predict: int, why: str, as_json: bool) -> None:
    """The states behind consecutive raw outputs (integers, or floats for ``random()`` / ``Math.random()``)."""
    values = _values(text)
    floats = any(isinstance(v, float) for v in values)
    found, following = _recover(generator, values, floats, predict)
    if as_json:
        emit_json({"generator": generator.name, "observations": len(values), "rank": found.rank,
                   "unknowns": found.unknowns, "states": found.states, "predicted": following,
                   "method": "linear", "why": why})
        return
    click.echo(f"method: linear ({why})", err=True)
    lines = [(f"{generator.name}: {len(found.states)} state(s) from {len(values)} "
              f"{'random() values' if floats else 'outputs'} (rank {found.rank} of {found.unknowns}; "
              "GF(2) elimination)")]
    from rnglab.recovery.linear import _int_vector

    words = -(-found.unknowns // 64)
    for state in found.states:
        packed = [int(w) for w in _int_vector(state, words)]
        shown = " ".join(f"{w:#018x}" for w in packed[:SHOWN_WORDS])
        lines.append(f"state {shown}" + (f" ... ({words} words of 64 bits; --json gives the state)"
                                          if words > SHOWN_WORDS else ""))
    lines.append("next: " + " ".join(map(str, following)) + (" (every state gives these)" if len(found.states) > 1
                                                             else ""))
    click.echo("\n".join(lines))


def _recover(generator, values: list, floats: bool, predict: int):
    """``(solution, the next predict values)`` for the generator's kind."""
    import numpy as np

    from rnglab.generators.xorshift import ALGORITHMS
    from rnglab.recovery.linear import Observation, _int_vector

    count = len(values)
    if generator.kind in ("python", "numpy"):
        if floats or generator.words == "random53":
            given = [_as_float(v, 53) for v in values] if floats else [_as_int(v, 53) / 2.0**53 for v in values]
            found = recover_python_floats(given)
            replay = python_random_at(found.states[0])
            following = [replay.random() for _ in range(count + predict)][count:]
            return found, following if floats else [int(v * 2.0**53) for v in following]
        found = recover_python_words([_as_int(v, 32) for v in values])
        return found, python_words(python_random_at(found.states[0]), count + predict)[count:].tolist()
    if generator.algorithm == "mt19937_64":
        raise ValueError("mt19937_64's state is not recovered by --method linear: 31 of its 19968 bits never reach "
                         "an output, so 2^31 states fit any outputs")
    if floats and generator.algorithm != "v8":
        raise ValueError(f"outputs of {generator.name} are integers; floats are read for python and v8")
    source_type = ALGORITHMS[generator.algorithm]
    model = linear_source_model(source_type)
    given = [int(_as_float(v, model.width) * 2.0**model.width) if floats else _as_int(v, model.width) for v in values]
    found = solve(model, [Observation.exact(t, v, model.width) for t, v in enumerate(given)])
    outputs = source_type.from_state_vector(_int_vector(found.states[0], model.words)).random_raw(count + predict)
    following = [int(v) for v in np.asarray(outputs)[count:]]
    return found, [v / 2.0**model.width for v in following] if floats else following


def _values(text: str) -> list:
    """The values of ``--outputs``: on the command line, or in a file (``@PATH``), separated by commas or spaces."""
    if text.startswith("@"):
        try:
            text = Path(text[1:]).read_text()
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"cannot read the outputs file {text[1:]}: {getattr(error, 'strerror', None) or error}")
    values = []
    for token in text.replace(",", " ").split():
        try:
            values.append(float(token) if any(c in token for c in ".eE") and not token.lower().startswith("0x")
                          else int(token, 0))
        except ValueError:
            raise ValueError(f"outputs are integers or floats; got {token!r}") from None
    if not values:
        raise ValueError("give the outputs seen, e.g. --outputs \"1 2 3\" or --outputs @outputs.txt")
    return values


def _as_int(value, width: int) -> int:
    """An observed output: an integer in ``[0, 2^width)``."""
    if isinstance(value, float) or not 0 <= value < 2**width:
        raise ValueError(f"outputs of this generator are integers in [0, 2^{width}); got {value}")
    return value


def _as_float(value, bits: int) -> float:
    """An observed float: a multiple of 2^-bits in [0, 1) (the library checks the grid)."""
    if isinstance(value, int) or not 0 <= value < 1:
        raise ValueError(f"give all outputs as floats in [0, 1) (multiples of 2^-{bits}), or all as integers; "
                         f"got {value}")
    return value
