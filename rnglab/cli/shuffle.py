"""``rnglab shuffle``: shuffle decks with any generator, range reducer and shuffle algorithm.

The options shared by every shuffle command (``--algo`` with ``--swaps`` and
``--key-bits``, ``--reducer``) and the seed-space options (``--seeds``,
``--window``) live here too: each is resolved once into its object.
"""

from __future__ import annotations

import functools

import click

from rnglab.cli.choices import SEED_WINDOW as DEFAULT_WINDOW
from rnglab.cli.choices import SHUFFLE_NAMES, SWAP_RULES
from rnglab.cli.common import COUNT, REDUCER, IntExpr, emit_json, generator_options, json_option, lazy
from rnglab.core.params import parse_int
from rnglab.shuffles.cards import DECKS, deck_for

parse_seed_space = lazy("seeds.space", "parse_seed_space")
make_shuffle, shuffle_decks = lazy("shuffles.algorithms", "make_shuffle", "shuffle_decks")
SourceDraws = lazy("shuffles.draws", "SourceDraws")

#: Help of a ``--n`` deck size that a pipeline fills.
DECK_SIZE_HELP = "Deck size [default: 52, or a pipeline's deck]."
#: Help of a ``--deck`` that a pipeline fills.
DECK_HELP = ("Deck: 52 cards, 54 (with jokers), xiangqi (one side's 16 pieces), jieqi (the 15 face down), deitel "
             "(52 cards, Deitel's rows hearts, diamonds, clubs, spades) or a size "
             "[default: 52, or a pipeline's deck].")
#: Most decks printed by one command.
MAX_PRINTED = 10**4


def parse_swaps(text):
    """``--swaps``: a count (an integer expression) or a rule name (n, touch, half-nlogn)."""
    if text is None or text in SWAP_RULES:
        return text
    return parse_int(text)


def shuffle_options(command):
    """Add ``--algo``, ``--swaps``, ``--key-bits`` and ``--reducer``; pass ``shuffle`` (a Shuffle) and ``reducer``.

    ``reducer`` is ``None`` when not given: the command then uses the generator's own.
    When ``generator`` is a pipeline (GEN named one), its generator, reducer and
    shuffle are passed instead, and the four options are refused; its seed policy
    and deck fill ``--seeds`` and ``--n`` / ``--deck`` when they are left out
    (this decorator goes above :func:`seed_space_options`). Without a pipeline
    the deck is the standard 52 cards.
    """

    @functools.wraps(command)
    def wrapper(*args, algo=None, swaps=None, key_bits=None, **kwargs):
        pipeline = kwargs.get("generator")
        if hasattr(pipeline, "shuffle"):
            given = [flag for flag, value in (("--algo", algo), ("--reducer", kwargs.get("reducer")),
                                              ("--swaps", swaps), ("--key-bits", key_bits)) if value is not None]
            if given:
                raise click.UsageError(f"{pipeline.name} is a pipeline: it fixes the generator, reducer and algorithm "
                                       f"({pipeline.generator.name}, {pipeline.reducer.name}, {pipeline.shuffle}); "
                                       f"{', '.join(given)} {'does' if len(given) == 1 else 'do'} not apply")
            kwargs.update(generator=pipeline.generator, reducer=pipeline.reducer, shuffle=pipeline.shuffle)
            _pipeline_defaults(pipeline, kwargs)
        else:
            kwargs["shuffle"] = make_shuffle(algo or "fisher-yates", swaps=parse_swaps(swaps), key_bits=key_bits)
        _deck_defaults(kwargs, deck_for("52"))
        return command(*args, **kwargs)

    for option in reversed([
        click.option("--algo", type=click.Choice(list(SHUFFLE_NAMES)), default=None,
                     help="Shuffle algorithm (default fisher-yates; a pipeline as GEN sets its own)."),
        click.option("--reducer", type=REDUCER, default=None,
                     help="Range reducer (default: the generator's own bounded call, see 'rnglab list')."),
        click.option("--swaps", default=None, metavar="K",
                     help=f"transpositions only: number of swaps, or {', '.join(SWAP_RULES)} (default n)."),
        click.option("--key-bits", type=IntExpr(minimum=1), default=None,
                     help="sort-keys, sort-keys-redraw only: bits per key, 1 to 64 (default 32)."),
    ]):
        wrapper = option(wrapper)
    return wrapper


def _pipeline_defaults(pipeline, kwargs) -> None:
    """The options a pipeline fills when left out: its seed policy (when enumerable; not for ``crack --method
    linear``, which searches no seeds) and its deck."""
    if ("seeds_text" in kwargs and kwargs["seeds_text"] is None and pipeline.seeding.enumerable
            and kwargs.get("method") != "linear"):
        kwargs["seeds_text"] = pipeline.seeding.name
    _deck_defaults(kwargs, pipeline.deck)


def _deck_defaults(kwargs, deck) -> None:
    """Fill a command's deck options left out (``--n``, a size; ``--deck``, a name) from ``deck``.

    A deck option given decides the other: ``--n`` alone is the deck of that size (:func:`deck_for`; ``--n 52``
    or ``54`` keeps a card deck of that size, such as Deitel's), ``--deck`` alone sets the size.
    """
    size = kwargs.get("n")
    keeps = size == deck.size and str(size) in DECKS
    given = kwargs.get("deck") or (str(size) if size is not None and not keeps else None)
    chosen = deck if given is None else deck_for(given)
    if kwargs.get("n", 0) is None:
        kwargs["n"] = chosen.size
    if kwargs.get("deck", "") is None:
        kwargs["deck"] = chosen.name if chosen.name in DECKS else str(chosen.size)


def seed_space_options(command):
    """Add ``--seeds POLICY|A..B[,C..D]`` and ``--window W``; pass ``seeds`` (a SeedSpace, or ``None``)."""

    @functools.wraps(command)
    def wrapper(*args, seeds_text=None, window=None, **kwargs):
        if seeds_text is None and window is not None:
            raise click.UsageError("--window needs --seeds POLICY")
        kwargs["seeds"] = None if seeds_text is None else parse_seed_space(seeds_text, window)
        return command(*args, **kwargs)

    for option in reversed([
        click.option("--seeds", "seeds_text", default=None, metavar="POLICY|A..B",
                     help="Seed space: a policy (fixed[:N], time-s, ms-midnight, ms-boot, pid-time, vb-timer, "
                          "guid-hash, random-device) over --window, or ranges A..B[,C..D] (both ends included)."),
        click.option("--window", default=None, metavar="W",
                     help=f"Start times of a policy: a duration (the last 1d, 90m) or 2026-11-22T10:00:00±60s "
                          f"(default {DEFAULT_WINDOW})."),
    ]):
        wrapper = option(wrapper)
    return wrapper


@click.command("shuffle")
@generator_options()
@shuffle_options
@click.option("--n", "n", type=IntExpr(minimum=1), default=None, help=DECK_SIZE_HELP)
@click.option("--deck", default=None, help=DECK_HELP)
@click.option("--count", type=COUNT, default=1, show_default=True, help="Decks, one after another from one stream.")
@json_option
def shuffle_command(generator, shuffle, reducer, n, deck, count, as_json) -> None:
    """Shuffle COUNT decks of N cards with generator GEN, one after another from one seeded stream.

    Cards are printed by name for the 52- and 54-card decks and the xiangqi and jieqi pieces, by index (0-based,
    the unshuffled order) for a deck given by its size.
    """
    if count > MAX_PRINTED:
        raise ValueError(f"--count must be at most {MAX_PRINTED}; got {count}")
    named, deck = deck, deck_for(deck)
    if deck.size != n:
        raise ValueError(f"--n {n} does not match --deck {named}, which has {deck.size} items; give one of them")
    n = shuffle.check(n)
    source, reducer = generator.make(), reducer or generator.native_reducer
    draws = SourceDraws(source, reducer)
    decks = [shuffle_decks(n, draws, shuffle)[0] for _ in range(count)]
    if as_json:
        emit_json({"generator": generator.name, "seed": source.seed, **shuffle.describe(), "reducer": reducer.name,
                   "n": n, "deck": deck.name, "decks": decks, "draws": draws.draws,
                   "cards": [deck.names(order) for order in decks]})
        return
    for order in decks:
        click.echo(" ".join(deck.names(order)))
