"""Named pipelines: the shuffles people actually run (``rnglab/data/pipelines.toml``).

A pipeline is what one real program does: a generator as its runtime seeds it,
the program's bounded draw, its shuffle loop and its deck. The registry
resolves each table once into a :class:`Pipeline` carrying the resolved
:class:`~rnglab.generators.GeneratorSpec`, :class:`~rnglab.reduction.reducers.Reducer`
and :class:`~rnglab.shuffles.algorithms.Shuffle`, so that every command that
takes a generator and an algorithm takes a pipeline's name instead.

Each pipeline is pinned bit for bit, for fixed seeds, to the output of the
real runtime (or, where none is at hand, of a transcription that says so):
the programs and their outputs are in ``tests/data/pipelines/``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from importlib.resources import files

import tomllib

from rnglab.core.registry import Registry
from rnglab.generators import GeneratorSpec, as_generator
from rnglab.reduction.reducers import Reducer, as_reducer
from rnglab.seeds.policies import SeedPolicy, policy
from rnglab.seeds.space import SeedSpace, policy_space, policy_window
from rnglab.shuffles.algorithms import Shuffle, make_shuffle
from rnglab.shuffles.cards import Deck, deck_for

#: The shipped file.
PIPELINES_PATH = files("rnglab.data") / "pipelines.toml"
#: Fields of a pipeline table.
PIPELINE_FIELDS = ("generator", "seeding", "reducer", "shuffle", "swaps", "deck", "program", "reference", "source")


@dataclass(frozen=True)
class Pipeline:
    """One real program's shuffle, resolved once.

    Attributes
    ----------
    name : str
    generator : GeneratorSpec
        The runtime's generator and seeding convention (its default seed is the one ``--seed`` sets).
    reducer : Reducer
        The program's bounded draw.
    shuffle : Shuffle
    seeding : SeedPolicy
        The seed policy the program uses (``rnglab seeds POLICY``).
    deck : Deck
    program, reference, source : str
        The program's loop in one line, the program that pins it, and where it comes from.
    """

    name: str
    generator: GeneratorSpec
    reducer: Reducer
    shuffle: Shuffle
    seeding: SeedPolicy
    deck: Deck
    program: str = ""
    reference: str = ""
    source: str = ""

    def with_seed(self, seed: int) -> Pipeline:
        """The same pipeline with the generator's default seed set (checked by its seeding convention)."""
        return replace(self, generator=replace(self.generator, default_seed=self.generator.check_seed(seed)))

    def seed_space(self, window: str | None = None) -> SeedSpace:
        """The program's seeds over ``window`` (``ValueError`` for a policy that cannot be enumerated)."""
        return policy_space(self.seeding, policy_window(self.seeding, window))

    def describe(self) -> dict:
        """The pipeline's parts by name, for JSON and ``rnglab list``."""
        return {"pipeline": self.name, "generator": self.generator.name, "seeding": self.seeding.name,
                "reducer": self.reducer.name, **self.shuffle.describe(), "deck": self.deck.name,
                "program": self.program, "reference": self.reference, "source": self.source}

    def __str__(self) -> str:
        return self.name


def _pipeline_from_table(name: str, table: dict) -> Pipeline:
    unknown = set(table) - set(PIPELINE_FIELDS)
    if unknown:
        raise ValueError(f"pipeline {name!r}: unknown fields {', '.join(sorted(unknown))}")
    swaps = table.get("swaps")
    return Pipeline(name, as_generator(table["generator"]), as_reducer(table["reducer"]),
                    make_shuffle(table["shuffle"], swaps=swaps), policy(table["seeding"]), deck_for(table["deck"]),
                    table.get("program", ""), table.get("reference", ""), table.get("source", ""))


@functools.cache
def pipelines() -> Registry[Pipeline]:
    """Every named pipeline, in the file's order."""
    with PIPELINES_PATH.open("rb") as handle:
        tables = tomllib.load(handle)
    return Registry("pipeline", {name: _pipeline_from_table(name, table) for name, table in tables.items()})


def as_pipeline(value: str | Pipeline) -> Pipeline:
    """The pipeline named ``value``, or ``value`` itself.

    Raises
    ------
    ValueError
        For an unknown name, with the list of names.
    """
    return value if isinstance(value, Pipeline) else pipelines()[value]
