"""``rnglab shuffle``: shuffle decks with any generator, range reducer and shuffle algorithm.

The options shared by every shuffle command (``--algo`` with ``--swaps`` and
``--key-bits``, ``--reducer``), the deck options (``--n``, ``--deck``) and the
seed-space options (``--seeds``, ``--window``) live here too: each is resolved
once into its object.
"""

from __future__ import annotations

import functools

import click
from click.core import ParameterSource

from rnglab.cli.choices import SEED_WINDOW as DEFAULT_WINDOW
from rnglab.cli.choices import SHUFFLE_NAMES, SWAP_RULES
from rnglab.cli.common import COUNT, REDUCER, IntExpr, emit_json, generator_options, json_option, lazy, named_pipeline
from rnglab.core.params import parse_int
from rnglab.shuffles.cards import DECKS, Deck, deck_for

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


class DeckType(click.ParamType):
    """--deck: a deck's name or a size, resolved once into its :class:`~rnglab.shuffles.cards.Deck`."""

    name = "deck"

    def convert(self, value, param, ctx) -> Deck:
        return value if isinstance(value, Deck) else deck_for(value)


DECK = DeckType()


def deck_label(deck: Deck) -> str:
    """The deck as ``--deck`` names it: its name (``xiangqi``, ``deitel``), or its size (``52``, ``54``, ``10``)."""
    return deck.name if deck.name in DECKS else str(deck.size)


def shuffle_options(command):
    """Add ``--algo``, ``--swaps``, ``--key-bits`` and ``--reducer``; pass ``shuffle`` (a Shuffle) and ``reducer``.

    ``reducer`` is ``None`` when not given: the command then uses the generator's own.
    When GEN named a pipeline (:func:`~rnglab.cli.common.named_pipeline`), its reducer and
    shuffle are passed instead, and the four options are refused. One decorator, not a
    callback per option: the shuffle is made of three options, and GEN (the pipeline) may
    come after them on the command line, where click would process it after their callbacks.
    """

    @functools.wraps(command)
    def wrapper(*args, algo=None, swaps=None, key_bits=None, reducer=None, **kwargs):
        pipeline = named_pipeline()
        if pipeline is None:
            return command(*args, shuffle=make_shuffle(algo or "fisher-yates", swaps=parse_swaps(swaps),
                                                       key_bits=key_bits), reducer=reducer, **kwargs)
        given = [flag for flag, value in (("--algo", algo), ("--reducer", reducer), ("--swaps", swaps),
                                          ("--key-bits", key_bits)) if value is not None]
        if given:
            raise click.UsageError(f"{pipeline.name} is a pipeline: it fixes the generator, reducer and algorithm "
                                   f"({pipeline.generator.name}, {pipeline.reducer.name}, {pipeline.shuffle}); "
                                   f"{', '.join(given)} {'does' if len(given) == 1 else 'do'} not apply")
        return command(*args, shuffle=pipeline.shuffle, reducer=pipeline.reducer, **kwargs)

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


def deck_options(with_size: bool = True, with_deck: bool = True):
    """Add ``--n`` (pass ``n``, a size) and/or ``--deck`` (pass ``deck``, a :class:`~rnglab.shuffles.cards.Deck`),
    those left out filled from the deck of a pipeline named as GEN (:func:`~rnglab.cli.common.named_pipeline`),
    or the standard 52 cards.

    A deck option given decides the other: ``--n`` alone is the deck of that size (:func:`deck_for`; ``--n 52``
    or ``54`` keeps a card deck of that size, such as Deitel's), ``--deck`` alone sets the size. One decorator:
    each option is filled from the other and from GEN, which click may process after them.
    """

    def decorate(command):
        @functools.wraps(command)
        def wrapper(*args, n=None, deck=None, **kwargs):
            pipeline = named_pipeline()
            chosen = _chosen_deck(n, deck, deck_for("52") if pipeline is None else pipeline.deck)
            filled = {"n": chosen.size if n is None else n} if with_size else {}
            return command(*args, **filled, **({"deck": chosen} if with_deck else {}), **kwargs)

        options = [click.option("--n", "n", type=IntExpr(minimum=1), default=None, help=DECK_SIZE_HELP)] \
            if with_size else []
        options += [click.option("--deck", type=DECK, default=None, help=DECK_HELP)] if with_deck else []
        for option in reversed(options):
            wrapper = option(wrapper)
        return wrapper

    return decorate


def _chosen_deck(size: int | None, given: Deck | None, default: Deck) -> Deck:
    """The deck ``--deck`` gave, else the deck of the size ``--n`` gave (``default`` when that is its size and a
    card deck's: Deitel's 52 stays Deitel's), else ``default``."""
    if given is not None:
        return given
    if size is None:
        return default
    return default if size == default.size and str(size) in DECKS else deck_for(str(size))


def user_seed_space(seeds_text: str | None, window: str | None):
    """The seed space ``--seeds`` and ``--window`` give (``None`` without ``--seeds``; ``--window`` alone refused)."""
    if seeds_text is None and window is not None:
        raise click.UsageError("--window needs --seeds POLICY")
    return None if seeds_text is None else parse_seed_space(seeds_text, window)


def given_seeds(seeds):
    """``seeds`` as the user gave them: ``None`` when ``--seeds`` was left out and a pipeline's policy filled it
    (:func:`seed_space_options`), for a method that searches no seeds."""
    context = click.get_current_context()
    if context.get_parameter_source("seeds_text") is ParameterSource.DEFAULT:
        return user_seed_space(None, context.params.get("window"))
    return seeds


def seed_space_options(command=None, *, pipeline_fills: bool = False):
    """Add ``--seeds POLICY|A..B[,C..D]`` and ``--window W``; pass ``seeds`` (a SeedSpace, or ``None``).

    With ``pipeline_fills`` (``@seed_space_options(pipeline_fills=True)``, the commands that deal a pipeline's
    shuffle), seeds left out are those of the policy of a pipeline named as GEN
    (:func:`~rnglab.cli.common.named_pipeline`) when its seeds can be enumerated, over ``--window``
    (:func:`given_seeds` tells them from seeds the user gave). One decorator: the space is made of both
    options and GEN, which click may process after them.
    """
    if command is None:
        return functools.partial(seed_space_options, pipeline_fills=pipeline_fills)

    @functools.wraps(command)
    def wrapper(*args, seeds_text=None, window=None, **kwargs):
        pipeline = named_pipeline() if pipeline_fills else None
        if seeds_text is None and pipeline is not None and pipeline.seeding.enumerable:
            return command(*args, seeds=pipeline.seed_space(window), **kwargs)
        return command(*args, seeds=user_seed_space(seeds_text, window), **kwargs)

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
@deck_options()
@click.option("--count", type=COUNT, default=1, show_default=True, help="Decks, one after another from one stream.")
@json_option
def shuffle_command(generator, shuffle, reducer, n, deck, count, as_json) -> None:
    """Shuffle COUNT decks of N cards with generator GEN, one after another from one seeded stream.

    Cards are printed by name for the 52- and 54-card decks and the xiangqi and jieqi pieces, by index (0-based,
    the unshuffled order) for a deck given by its size.
    """
    if count > MAX_PRINTED:
        raise ValueError(f"--count must be at most {MAX_PRINTED}; got {count}")
    if deck.size != n:
        raise ValueError(f"--n {n} does not match --deck {deck_label(deck)}, which has {deck.size} items; "
                         "give one of them")
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
