"""What an audit examines: one pipeline, resolved once (a named pipeline or a short TOML file).

A TOML pipeline names its parts as the commands do::

    generator = "pcg64"          # a catalog name or lcg:a=...,m=...
    seeding = "os"               # a seed policy (rnglab seeds POLICY)
    window = "1d"                # start times the seed is taken over
    reducer = "lemire"           # optional: the generator's own bounded call
    shuffle = "fisher-yates"     # or function = "file.py:shuffle" (a Python file beside the TOML file)
    deck = "52"                  # 52, 54, xiangqi, jieqi or a size
    games_per_day = 100000       # optional
    cards_seen = 7               # optional: cards an opponent sees per game
    tables = 1000                # optional: tables started in the same window

Every name is resolved here, once; the analyses receive the resolved objects.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import tomllib

from rnglab.generators import GeneratorSpec, as_generator
from rnglab.reduction.reducers import Reducer, as_reducer
from rnglab.seeds.policies import SeedPolicy, Window, parse_window, policy
from rnglab.shuffles.algorithms import Shuffle, make_shuffle
from rnglab.shuffles.cards import Deck, deck_for
from rnglab.shuffles.pipelines import Pipeline, as_pipeline
from rnglab.shuffles.sandbox import UserFunction
from rnglab.shuffles.userfunc import load_function

#: The seed of every stream the audit reads (a fixed seed: the audit is reproducible).
AUDIT_SEED = 20261124
#: Keys of a TOML pipeline, and whether each is required.
TOML_KEYS = {"generator": True, "seeding": True, "window": False, "reducer": False, "shuffle": False,
             "function": False, "swaps": False, "deck": False, "games_per_day": False, "cards_seen": False,
             "tables": False, "name": False}
#: Defaults of the deployment figures: a day's window, a busy site, a Texas hold'em opponent.
DEFAULT_WINDOW, DEFAULT_GAMES_PER_DAY, DEFAULT_CARDS_SEEN, DEFAULT_TABLES = "1d", 100_000, 7, 1_000


@dataclass(frozen=True, kw_only=True)
class Target:
    """A pipeline to audit, every part resolved (built by keyword).

    Attributes
    ----------
    name : str
    generator : GeneratorSpec
    reducer : Reducer
    shuffle : Shuffle or None
        ``None`` when ``function`` is the user's own shuffle.
    function : UserFunction or None
        ``shuffle(items, rng)`` in a Python file beside the TOML file (run in a child process,
        :mod:`rnglab.shuffles.sandbox`), named by ``function_name``.
    seeding : SeedPolicy
    window : Window
    deck : Deck
    games_per_day, cards_seen, tables : int
    """

    name: str
    generator: GeneratorSpec
    reducer: Reducer
    shuffle: Shuffle | None
    function: UserFunction | None
    function_name: str
    seeding: SeedPolicy
    window: Window
    deck: Deck
    games_per_day: int = DEFAULT_GAMES_PER_DAY
    cards_seen: int = DEFAULT_CARDS_SEEN
    tables: int = DEFAULT_TABLES

    @property
    def n(self) -> int:
        """Cards in the deck."""
        return self.deck.size

    @property
    def shuffle_label(self) -> str:
        """The shuffle by name, or the user's function."""
        return str(self.shuffle) if self.shuffle is not None else f"user function {self.function_name}"

    def describe(self) -> dict:
        """The parts by name, for JSON and the report."""
        return {"name": self.name, "generator": self.generator.name, "reducer": self.reducer.name,
                "shuffle": self.shuffle_label, "seeding": self.seeding.name, "window": self.window.text,
                "deck": self.deck.name, "n": self.n, "games_per_day": self.games_per_day,
                "cards_seen": self.cards_seen, "tables": self.tables}


def from_pipeline(value: str | Pipeline, window: str = DEFAULT_WINDOW) -> Target:
    """The target of a named pipeline (``ValueError`` with the list of names for an unknown one)."""
    chosen = as_pipeline(value)
    return Target(name=chosen.name, generator=chosen.generator, reducer=chosen.reducer, shuffle=chosen.shuffle,
                  function=None, function_name="", seeding=chosen.seeding, window=parse_window(window),
                  deck=chosen.deck)


def from_toml(path: str | Path) -> Target:
    """The target described by a TOML file (see the module notes); every fault is one ``ValueError`` line."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no such file: {path}")
    try:
        table = tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: not valid TOML: {error}") from None
    return from_table(table, path.stem, path.parent)


def from_table(table: dict, default_name: str = "pipeline", folder: Path | None = None) -> Target:
    """The target of a pipeline given as a table of names (the TOML file's keys).

    ``function = "file.py:name"`` is a Python file in ``folder`` (the TOML
    file's own), when given (:func:`~rnglab.shuffles.userfunc.load_function`).
    """
    unknown, missing = set(table) - set(TOML_KEYS), [k for k, needed in TOML_KEYS.items() if needed and k not in table]
    if unknown:
        raise ValueError(f"unknown keys {', '.join(sorted(unknown))}; the keys are {', '.join(TOML_KEYS)}")
    if missing:
        raise ValueError(f"missing keys {', '.join(missing)} (every pipeline names its generator and seeding)")
    if ("shuffle" in table) == ("function" in table):
        raise ValueError("give exactly one of shuffle (an algorithm name) and function (file.py:function)")
    generator = as_generator(_text(table, "generator"))
    function_name = _text(table, "function") if "function" in table else ""
    return Target(
        name=_text(table, "name") if "name" in table else default_name,
        generator=generator,
        reducer=as_reducer(_text(table, "reducer")) if "reducer" in table else generator.native_reducer,
        shuffle=make_shuffle(_text(table, "shuffle"), swaps=table.get("swaps")) if "shuffle" in table else None,
        function=load_function(function_name, folder) if function_name else None,
        function_name=function_name,
        seeding=policy(_text(table, "seeding")),
        window=parse_window(_text(table, "window") if "window" in table else DEFAULT_WINDOW),
        deck=deck_for(str(table.get("deck", "52"))),
        games_per_day=_count(table, "games_per_day", DEFAULT_GAMES_PER_DAY),
        cards_seen=_count(table, "cards_seen", DEFAULT_CARDS_SEEN),
        tables=_count(table, "tables", DEFAULT_TABLES))


def _text(table: dict, key: str) -> str:
    value = table[key]
    if not isinstance(value, str):
        raise ValueError(f"{key} must be a string; got {value!r}")  # noqa: TRY004 - a bad value in the file
    return value


def _count(table: dict, key: str, default: int) -> int:
    value = table.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{key} must be a positive integer; got {value!r}")
    return value


def with_deployment(target: Target, *, window: str | None = None, games_per_day: int | None = None,
                    cards_seen: int | None = None, tables: int | None = None) -> Target:
    """The same pipeline with the deployment figures given (``None``: kept), checked against the deck."""
    changed = replace(target, window=parse_window(window) if window is not None else target.window,
                      games_per_day=games_per_day or target.games_per_day,
                      cards_seen=cards_seen or target.cards_seen, tables=tables or target.tables)
    if not 1 <= changed.cards_seen <= changed.n:
        raise ValueError(f"cards seen must be in [1, {changed.n}] for a {changed.n}-card deck; "
                         f"got {changed.cards_seen}")
    return changed


def resolve(value: str, window: str = DEFAULT_WINDOW) -> Target:
    """A named pipeline, or the TOML file ``value`` (ends in .toml), resolved."""
    if value.endswith(".toml"):
        return with_deployment(from_toml(value), window=window if window != DEFAULT_WINDOW else None)
    return from_pipeline(value, window)
