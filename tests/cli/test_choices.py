"""The names the commands' ``--help`` shows (rnglab.cli.choices): each a copy of a library registry, equal to it."""

import importlib
from collections.abc import Mapping

import pytest

from rnglab.cli import choices


@pytest.mark.parametrize("copy, module, name", [
    ("REDUCER_NAMES", "rnglab.reduction.reducers", "REDUCERS"),
    ("SHUFFLE_NAMES", "rnglab.shuffles.algorithms", "SHUFFLES"),
    ("SWAP_RULES", "rnglab.shuffles.algorithms", "SWAP_RULES"),
    ("GAME_NAMES", "rnglab.shuffles.deal", "GAMES"),
    ("SEED_WINDOW", "rnglab.seeds.space", "DEFAULT_WINDOW"),
    ("MAX_DIMENSION", "rnglab.algebra.spectral", "MAX_DIMENSION"),
    ("NORMALIZATIONS", "rnglab.algebra.normalizers", "NORMALIZATIONS"),
    ("INPUT_FORMATS", "rnglab.generators.external", "FORMATS"),
    ("STREAM_FORMATS", "rnglab.streams.gateway", "STREAM_FORMATS"),
    ("TEST_NAMES", "rnglab.empirical.stattests", "TESTS"),
    ("DEVICE_NAMES", "rnglab.recovery.distributed", "DEVICES"),
    ("MAX_SCALED_SEEDS", "rnglab.recovery.distributed", "MAX_SCALED_SEEDS"),
])
def test_help_names_equal_the_library_registries(copy, module, name):
    source = getattr(importlib.import_module(module), name)
    assert getattr(choices, copy) == (tuple(source) if isinstance(source, (Mapping, tuple)) else source)
