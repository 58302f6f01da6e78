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

(is_js_fisher_yates_v8, recover_v8_deal, recover_v8_cards, predict_v8_deal, recover_python_floats, recover_python_words,
 python_random_at, python_words, linear_source_model, solve, mt19937_64_at, recover_mt19937_64_words, mt19937_64_seed,
 unity_seed) = lazy(
    "recovery.linear", "is_js_fisher_yates_v8", "recover_v8_deal", "recover_v8_cards", "predict_v8_deal", "recover_python_floats",
    "recover_python_words", "python_random_at", "python_words", "linear_source_model", "solve", "mt19937_64_at",
    "recover_mt19937_64_words", "mt19937_64_seed", "unity_seed")

#: Highest ``--random_seed`` node takes (a 32-bit signed flag).
NODE_SEED_BITS = 31
#: Why ``random.shuffle``'s cards are not read: ``_randbelow`` hides how many words each draw consumed.
PYTHON_SHUFFLE_REFUSAL = (
    "--method linear cannot read python3-shuffle's cards: _randbelow(n) redraws getrandbits(k) >= n, so which "
    "MT19937 word gave each card is hidden (a 52-card deck: about 25 words redrawn, 66 bits of alignment against "
    "the 226 bits its cards show); give 624 getrandbits(32) words or random() values (--outputs), or --seeds")
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
    """The V8 states behind cards of a JavaScript Fisher--Yates deal (the bottom ones, or any positions a few
    unseen draws from them); each one's seed and deck. Whole decks of ``cpp-shuffle-mt19937`` go to
    :func:`linear_decks`."""
    from rnglab.recovery.crack import observe
    from rnglab.recovery.linear_decks import is_cpp_shuffle_mt19937, is_python_shuffle

    if is_cpp_shuffle_mt19937(generator, shuffle, reducer):
        if positions is not None:
            raise ValueError("--method linear reads whole decks of cpp-shuffle-mt19937 (every position): "
                             "--positions does not apply")
        linear_decks(generator, reducer, shuffle, seen, deck, why, as_json)
        return
    if is_python_shuffle(generator, shuffle, reducer):
        raise ValueError(PYTHON_SHUFFLE_REFUSAL)
    if not is_js_fisher_yates_v8(generator, shuffle, reducer):
        raise ValueError(f"--method linear reads the cards of js-fisher-yates-v8 (V8's Math.random, "
                         f"Math.floor(Math.random() * i)) and whole decks of cpp-shuffle-mt19937; for "
                         f"{generator.name} give its outputs (--outputs) or a seed space to search (--seeds)")
    from rnglab.generators.xorshift import ALGORITHMS

    variant = ALGORITHMS[generator.algorithm]
    observation = observe(seen, None, deck)
    size, count = observation.deck.size, observation.size
    bottom = tuple(range(size - 1, size - 1 - count, -1))
    observation = observe(seen, ",".join(map(str, bottom)) if positions is None else positions, deck)
    if observation.positions == bottom:
        found = recover_v8_deal([int(card) for card in observation.cards], size, phase, variant=variant)
    else:  # cards elsewhere: the paths of draws that put them there (a few unseen positions at most)
        found = recover_v8_cards(shuffle.swap_program(size), observation, phase, variant=variant)
    decks = [predict_v8_deal(words, p, size, variant) for p, words in found.solutions]
    rows = [{"phase": p, "state": list(words), "seed": _signed(seed), "random_seed": _node_flag(seed),
             "deck": observation.deck.names(deck)} for (p, words), seed, deck in zip(found.solutions, found.seeds, decks)]
    seen_names = observation.deck.names(observation.cards)
    if as_json:
        emit_json({"generator": generator.name, "algorithm": shuffle.name, "reducer": reducer.name,
                   "seen": seen_names, "positions": list(observation.positions), "rank": found.rank, "unknowns": found.unknowns,
                   "phases_tried": found.phases_tried, "candidates": rows, "method": "linear", "why": why})
        return
    click.echo(f"method: linear ({why})", err=True)
    phases = "cache phase 0" if phase == 0 else (f"cache phase {phase}" if phase is not None else
                                                 f"{found.phases_tried} cache phases tried")
    where = "bottom cards" if observation.positions == bottom else "cards"
    lines = [(f"{generator.name}, {shuffle.name} with {reducer.name}: {len(rows)} state(s) from {count} {where} "
              f"(rank {found.rank} of {found.unknowns}; GF(2) elimination; {phases})"),
             f"cards seen: {' '.join(seen_names)} at positions {', '.join(map(str, observation.positions))}"]
    for row in rows:
        seed = ("" if row["seed"] is None else f", seed {row['seed']}" +
                (f" (node --random_seed={row['random_seed']})" if row["random_seed"] is not None else
                 " (beyond node's 32-bit --random_seed)"))
        lines.append(f"phase {row['phase']}: state {row['state'][0]:#018x} {row['state'][1]:#018x}{seed}")
        lines.append("deck: " + " ".join(row["deck"]))
    click.echo("\n".join(lines))


def linear_decks(generator, reducer, shuffle, seen: str, deck, why: str, as_json: bool) -> None:
    """The ``std::mt19937`` state (and seed) behind consecutive whole decks of ``std::shuffle``; the next deck."""
    from rnglab.recovery.crack import observe
    from rnglab.recovery.linear import UnderdeterminedState
    from rnglab.recovery.linear_decks import deal_in_turn, equations_per_deck, recover_mt19937_decks

    observations = [observe(text, None, deck) for text in _deck_texts(seen)]
    for number, observation in enumerate(observations, start=1):
        if observation.size != observation.deck.size:
            raise ValueError(f"--method linear reads whole decks of cpp-shuffle-mt19937, one per line: deck "
                             f"{number} has {observation.size} cards of {observation.deck.size}")
    decks = [[int(card) for card in observation.cards] for observation in observations]
    try:
        found = recover_mt19937_decks(decks, shuffle, reducer)
    except UnderdeterminedState as error:
        per_deck = equations_per_deck(len(decks[0]))
        raise ValueError(f"{len(decks)} decks leave the state open (rank {error.rank} of {error.unknowns}): at least "
                         f"{-(-(error.unknowns - error.rank) // per_deck)} more consecutive decks needed (a deck of "
                         f"{len(decks[0])} gives at most {per_deck} equations; 52-card decks took 129 to 134 in "
                         "bench/results/cpp_decks.md)") from None
    names = observations[0].deck
    following = [names.names(deal_in_turn(state, len(decks) + 1, len(decks[0]), shuffle, reducer)[-1])
                 for state in found.states]
    if as_json:
        emit_json({"generator": generator.name, "algorithm": shuffle.name, "reducer": reducer.name,
                   "decks": found.decks, "words": found.words, "rank": found.rank, "unknowns": found.unknowns,
                   "states": found.states, "seeds": found.seeds, "next_deck": following, "method": "linear",
                   "why": why})
        return
    click.echo(f"method: linear ({why})", err=True)
    lines = [(f"{generator.name}, {shuffle.name} with {reducer.name}: {len(found.states)} state(s) from {found.decks} "
             f"consecutive decks ({found.words} words; rank {found.rank} of {found.unknowns}; GF(2) elimination)")]
    for state, seed, deck_names in zip(found.states, found.seeds, following):
        lines.append(f"state {_shown_words(state, found.unknowns)}"
                     + ("" if seed is None else f", seed {seed} (std::mt19937 engine({seed}))"))
        lines.append("next deck: " + " ".join(deck_names))
    click.echo("\n".join(lines))


def _deck_texts(seen: str) -> list[str]:
    """The decks of ``--seen``: one per line (or separated by ``;``), on the command line or in a file (``@PATH``)."""
    texts = [text for text in read_values(seen, "cards").replace(";", "\n").splitlines() if text.strip()]
    if not texts:
        raise ValueError("give the decks seen, one whole deck per line, e.g. --seen @decks.txt")
    return texts


def read_values(text: str, what: str) -> str:
    """``text``, or the contents of the file it names (``@PATH``)."""
    if not text.startswith("@"):
        return text
    try:
        return Path(text[1:]).read_text()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read the {what} file {text[1:]}: {getattr(error, 'strerror', None) or error}") \
            from None


def _shown_words(state: int, unknowns: int) -> str:
    """The first :data:`SHOWN_WORDS` 64-bit words of a state, and how many there are (``--json`` gives them all)."""
    from rnglab.recovery.linear import _int_vector

    words = -(-unknowns // 64)
    packed = [int(w) for w in _int_vector(state, words)]
    return " ".join(f"{w:#018x}" for w in packed[:SHOWN_WORDS]) + (
        f" ... ({words} words of 64 bits; --json gives the state)" if words > SHOWN_WORDS else "")


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
    seeds = [mt19937_64_seed(state) if generator.algorithm == "mt19937_64" else
             unity_seed(state) if generator.algorithm == "unity" else None for state in found.states]
    if as_json:
        emit_json({"generator": generator.name, "observations": len(values), "rank": found.rank,
                   "unknowns": found.unknowns, "states": found.states, "seeds": seeds, "predicted": following,
                   "method": "linear", "why": why})
        return
    click.echo(f"method: linear ({why})", err=True)
    lines = [(f"{generator.name}: {len(found.states)} state(s) from {len(values)} "
              f"{'random() values' if floats else 'outputs'} (rank {found.rank} of {found.unknowns}; "
              "GF(2) elimination)")]
    for state, seed in zip(found.states, seeds):
        lines.append(f"state {_shown_words(state, found.unknowns)}"
                     + ("" if seed is None else f", seed {seed} (a fresh {generator.name} seeded {seed})"))
    lines.append("next: " + " ".join(map(str, following)) + (" (every state gives these)" if len(found.states) > 1
                                                             else ""))
    click.echo("\n".join(lines))


def _recover(generator, values: list, floats: bool, predict: int):
    """``(solution, the next predict values)`` for the generator's kind."""
    import numpy as np

    from rnglab.generators.xorshift import ALGORITHMS, V8MathRandom
    from rnglab.recovery.linear import Observation, _int_vector, _mantissa

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
        found = recover_mt19937_64_words([_as_int(v, 64) for v in values])
        return found, [int(v) for v in mt19937_64_at(found.states[0]).random_raw(count + predict)[count:]]
    source_type = ALGORITHMS[generator.algorithm]
    if floats and not issubclass(source_type, V8MathRandom):
        raise ValueError(f"outputs of {generator.name} are integers; floats are read for python, v8 and v8-53")
    model = linear_source_model(source_type)
    given = [_mantissa(_as_float(v, model.width), model.width, t, "Math.random()") if floats else
             _as_int(v, model.width) for t, v in enumerate(values)]
    found = solve(model, [Observation.exact(t, v, model.width) for t, v in enumerate(given)])
    outputs = source_type.from_state_vector(_int_vector(found.states[0], model.words)).random_raw(count + predict)
    following = [int(v) for v in np.asarray(outputs)[count:]]
    return found, [v / 2.0**model.width for v in following] if floats else following


def _values(text: str) -> list:
    """The values of ``--outputs`` (read from a file already where it was ``@PATH``), separated by commas or spaces."""
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
