"""Decks of cards (or of any named items) and their names.

Card conventions (seed recovery relies on them):

* standard deck: index ``i`` in ``0..51`` is rank ``"A23456789TJQK"[i % 13]``
  of suit ``"cdhs"[i // 13]``, so ``0 = Ac``, ``12 = Kc``, ``13 = Ad``,
  ``51 = Ks``; the 54-card deck adds ``52 = BJ`` (black joker) and ``53 = RJ``;
* names are case-insensitive on input (``as``, ``AS``; ``10s`` means ``Ts``;
  ``Ace of Spades``, ``Deuce of Hearts`` as Deitel's program prints them)
  and printed as ``As``;
* the unshuffled deck is cards ``0 .. n-1`` in order, and a shuffled deck is
  dealt from position 0. An algorithm written 1-based (card[1..52]) has its
  card ``k`` at index ``k - 1`` and its ``card[1]`` at position 0;
* Deitel's deck (``deitel``): the slot ``deck[row][column]`` of Deitel's
  program, index ``13 row + column``, is face ``column`` of suit ``row``,
  with the book's suits Hearts, Diamonds, Clubs, Spades: ``0 = Ah``,
  ``13 = Ad``, ``26 = Ac``, ``51 = Ks`` (the program prints ``Ace of Hearts``).

A deck may also be any named multiset (the 16 pieces of one side in xiangqi);
its names are then not unique, and cards are written by index.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from rnglab.core.registry import Registry, choose_from

RANKS = "A23456789TJQK"
SUITS = "cdhs"
#: The suits of Deitel's rows: ``suit[4] = {"Hearts", "Diamonds", "Clubs", "Spades"}``.
DEITEL_SUITS = "hdcs"
JOKERS = ("BJ", "RJ")

#: Faces spelled out as programs print them (Deitel's face[13]), and "two".
FACE_WORDS = {**{word: RANKS[i] for i, word in enumerate(
    ("ace", "deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"))},
    "two": "2"}
#: A card spelled out: ``Ace of Hearts``.
SPELLED_CARD = re.compile(r"\b([a-z]+)\s+of\s+(clubs|diamonds|hearts|spades)\b", re.IGNORECASE)

#: The pieces of one side in xiangqi (Chinese chess), with their counts.
XIANGQI_SIDE = {"general": 1, "advisor": 2, "elephant": 2, "horse": 2, "chariot": 2, "cannon": 2, "soldier": 5}
#: The 15 pieces of one side that jieqi (hidden xiangqi) shuffles face down: all but the general.
JIEQI_SIDE = {piece: count for piece, count in XIANGQI_SIDE.items() if piece != "general"}


@dataclass(frozen=True)
class Deck:
    """An ordered deck: item ``i`` of the unshuffled deck is named ``labels[i]``.

    Attributes
    ----------
    name : str
    labels : tuple of str
        Display names; a multiset deck repeats names.
    """

    name: str
    labels: tuple
    lookup: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def size(self) -> int:
        """Number of items."""
        return len(self.labels)

    @property
    def named(self) -> bool:
        """True when every item has its own name (so names can be parsed back)."""
        return len(set(self.labels)) == len(self.labels)

    def label(self, index: int) -> str:
        """The display name of item ``index``."""
        if not 0 <= index < self.size:
            raise ValueError(f"card index must be in [0, {self.size - 1}]; got {index}")
        return self.labels[index]

    def names(self, indices) -> list[str]:
        """Display names of a sequence of item indices."""
        return [self.label(int(i)) for i in indices]

    def index(self, token: str) -> int:
        """The index of one card written as a name (case-insensitive) or a 0-based index."""
        text = token.strip()
        if text.isdigit():
            self.label(int(text))  # checks the range
            return int(text)
        key = text.casefold()
        if key not in self.lookup:
            if not self.named:
                raise ValueError(f"items of the {self.name} deck share names; write them as indices 0..{self.size - 1}")
            raise ValueError(f"unknown card {text!r} for the {self.name} deck (e.g. {self.labels[0]}, "
                             f"{self.labels[-1]} or an index 0..{self.size - 1})")
        return self.lookup[key]


def _make_deck(name: str, labels, aliases: dict | None = None) -> Deck:
    labels = tuple(labels)
    lookup = {label.casefold(): i for i, label in enumerate(labels)} if len(set(labels)) == len(labels) else {}
    lookup.update(aliases or {})
    return Deck(name, labels, lookup)


def standard_deck(jokers: bool = False, suits: str = SUITS, name: str = "standard") -> Deck:
    """The 52-card deck (``jokers=True``: 54 cards with ``BJ`` and ``RJ``), suits in the order ``suits``."""
    labels = [RANKS[i % 13] + suits[i // 13] for i in range(52)] + (list(JOKERS) if jokers else [])
    aliases = {f"10{suit}": 9 + 13 * s for s, suit in enumerate(suits)}
    return _make_deck(f"{name}-54" if jokers else f"{name}-52" if name == "standard" else name, labels, aliases)


def multiset_deck(name: str, counts: dict) -> Deck:
    """A deck of named items with multiplicities, in the order given (e.g. :data:`XIANGQI_SIDE`)."""
    labels = [item for item, count in counts.items() for _ in range(int(count))]
    if not labels:
        raise ValueError("a deck needs at least one item")
    return _make_deck(name, labels)


def numbered_deck(n: int) -> Deck:
    """Items ``0 .. n-1`` named by their index."""
    if not 1 <= n <= 10**6:
        raise ValueError(f"deck size must be in [1, 1000000]; got {n}")
    return _make_deck(f"numbered-{n}", [str(i) for i in range(n)])


#: The named decks: name -> a function that builds the deck.
DECKS: Registry[Callable[[], Deck]] = Registry("deck", {
    "52": lambda: standard_deck(), "54": lambda: standard_deck(True),
    "xiangqi": lambda: multiset_deck("xiangqi", XIANGQI_SIDE), "jieqi": lambda: multiset_deck("jieqi", JIEQI_SIDE),
    "deitel": lambda: standard_deck(suits=DEITEL_SUITS, name="deitel")},
    tail=lambda names: f"{choose_from(names)} or give a size")


def deck_for(spec) -> Deck:
    """A deck by name (``52``, ``54``, ``xiangqi``, ``jieqi``, ``deitel``) or size (52 and 54 name cards, others
    are numbered)."""
    key = str(spec).strip().lower()
    if key in DECKS:
        return DECKS[key]()
    if key.isdigit():
        return numbered_deck(int(key))
    raise DECKS.unknown(spec)


def card_name(index: int, jokers: bool = True) -> str:
    """The name of a card of the standard deck (``0 -> "Ac"``, ``51 -> "Ks"``, ``52 -> "BJ"``)."""
    return standard_deck(jokers).label(int(index))


def _short_name(spelled: re.Match) -> str:
    """``Ace of Hearts`` -> ``Ah``: a card spelled out in the notation rnglab prints."""
    face = spelled.group(1).casefold()
    if face not in FACE_WORDS:
        raise ValueError(f"unknown face {spelled.group(1)!r} in {spelled.group(0)!r} (Ace, Deuce or Two, ..., King)")
    return FACE_WORDS[face] + spelled.group(2)[0].lower()


def parse_cards(text: str, deck: Deck | None = None) -> list[int]:
    """Parse cards written as names (``Ah`` or ``Ace of Hearts``) or 0-based indices, separated by spaces or commas.

    Raises
    ------
    ValueError
        For an unknown name, a repeated card, or more cards than the deck holds.
    """
    deck = deck or standard_deck(jokers=True)
    tokens = [t for t in re.split(r"[\s,]+", SPELLED_CARD.sub(_short_name, text).strip()) if t]
    if len(tokens) > deck.size:
        raise ValueError(f"{len(tokens)} cards given; the {deck.name} deck holds {deck.size}")
    indices = [deck.index(token) for token in tokens]
    seen = set()
    for token, index in zip(tokens, indices):
        if index in seen:
            raise ValueError(f"card {token!r} ({deck.labels[index]}) appears twice")
        seen.add(index)
    return indices
