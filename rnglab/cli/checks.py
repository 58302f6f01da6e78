"""Checks on the generator a command was given, made before any work."""

from __future__ import annotations

from .common import GeneratorChoice


def refuse_ignored_seed(generator: GeneratorChoice) -> None:
    """Refuse ``--seed`` for a generator that has no seed (``os`` reads the operating system's entropy).

    Raises
    ------
    ValueError
        If a seed was given to a generator that would silently ignore it.
    """
    entry = generator.preset
    if generator.seed is not None and entry is not None and entry.kind == "os":
        raise ValueError(f"{entry.name} reads the operating system's entropy and takes no seed; drop --seed")
