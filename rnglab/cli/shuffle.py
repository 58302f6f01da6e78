"""``rnglab shuffle``: shuffle decks with any generator, range reducer and shuffle algorithm.

The options shared by every shuffle command (``--algo``, ``--reduce``,
``--swaps``, ``--key-bits``) live here too.
"""

from __future__ import annotations

import functools

import click

from ..cards import deck_for
from ..params import parse_int
from ..reduce import REDUCERS
from ..shuffle import SHUFFLES, SWAP_RULES, SourceDraws, check_size, shuffle_decks
from .common import COUNT, IntExpr, emit_json, generator_options, json_option

#: Most decks printed by one command.
MAX_PRINTED = 10**4


def parse_swaps(text):
    """``--swaps``: a count (an integer expression) or a rule name (n, touch, half-nlogn)."""
    if text is None or text in SWAP_RULES:
        return text
    return parse_int(text)


def shuffle_options(command):
    """Add ``--algo``, ``--reduce``, ``--swaps`` and ``--key-bits``; pass ``algo``, ``reduce``, ``options``."""

    @functools.wraps(command)
    def wrapper(*args, swaps=None, key_bits=None, **kwargs):
        kwargs["options"] = {"swaps": parse_swaps(swaps), "key_bits": key_bits}
        return command(*args, **kwargs)

    for option in reversed([
        click.option("--algo", type=click.Choice(list(SHUFFLES)), default="fisher-yates", show_default=True,
                     help="Shuffle algorithm."),
        click.option("--reduce", type=click.Choice(list(REDUCERS)), default=None,
                     help="Range reducer (default: the generator's own, else lemire)."),
        click.option("--swaps", default=None, metavar="K",
                     help=f"transpositions: number of swaps, or {', '.join(SWAP_RULES)} (default n)."),
        click.option("--key-bits", type=IntExpr(minimum=1), default=None, help="sort-keys: bits per key (default 32)."),
    ]):
        wrapper = option(wrapper)
    return wrapper


def chosen_reducer(generator, reduce: str | None) -> str:
    """The reducer asked for, else the catalog entry's native one, else ``lemire``."""
    if reduce:
        return reduce
    entry = generator.preset if generator is not None else None
    return entry.bounded if entry is not None else "lemire"


def card_labels(n: int) -> list[str] | None:
    """Card names for the 52- and 54-card decks, else ``None`` (indices are printed)."""
    return list(deck_for(n).labels) if n in (52, 54) else None


@click.command("shuffle")
@generator_options()
@shuffle_options
@click.option("--n", "n", type=IntExpr(minimum=1), default=52, show_default=True, help="Deck size.")
@click.option("--count", type=COUNT, default=1, show_default=True, help="Decks, one after another from one stream.")
@json_option
def shuffle_command(generator, algo, reduce, options, n, count, as_json) -> None:
    """Shuffle COUNT decks of N cards with generator GEN, one after another from one seeded stream."""
    if count > MAX_PRINTED:
        raise ValueError(f"--count must be at most {MAX_PRINTED}; got {count}")
    check_size(n)
    source, reduce = generator.make(), chosen_reducer(generator, reduce)
    draws = SourceDraws(source, reduce)
    decks = [shuffle_decks(n, draws, algo, **options)[0] for _ in range(count)]
    labels = card_labels(n)
    if as_json:
        emit_json({"generator": generator.label, "seed": source.seed, "algo": algo, "reduce": reduce, "n": n,
                   "decks": decks, "draws": draws.draws,
                   "cards": [[labels[c] for c in deck] for deck in decks] if labels else None})
        return
    for deck in decks:
        click.echo(" ".join(labels[c] if labels else str(c) for c in deck))
