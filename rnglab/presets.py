"""The generator catalog (``data/catalog.toml``) and generator specifications.

A generator is named either by a catalog entry (``minstd``, ``msvc``,
``java``, ``pcg64``, ...) or by an inline specification
``lcg:a=16807,m=2^31-1[,c=0][,seed=1][,output=bits(16,15)]``.
:func:`make_source` turns either into a ready :class:`~rnglab.generators.Source`.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .generators import LCG, NumpySource, OSEntropySource, Output, PythonRandomSource, Source
from .generators.adapters import mt19937_init_genrand
from .params import parse_int

CATALOG_PATH = Path(__file__).resolve().parent.parent / "data" / "catalog.toml"
KINDS = ("lcg", "numpy", "python", "os")


@dataclass(frozen=True)
class Preset:
    """One catalog entry: a named generator with its conventions and source.

    Attributes
    ----------
    name, kind : str
        ``kind`` is one of ``lcg``, ``numpy``, ``python``, ``os``.
    a, c, m : int or None
        LCG parameters (``kind == "lcg"``).
    output, seeding : str
        Output function (``state`` or ``bits(S,W)``) and seeding convention.
    default_seed : int or None
    bounded : str
        The library's native way to draw from [0, n): a reducer name.
    low : int or None
        Declared lowest output where it differs from the default.
    bit_generator : str or None
        numpy BitGenerator class name (``kind == "numpy"``).
    description, source : str
    """

    name: str
    kind: str
    a: int | None = None
    c: int | None = None
    m: int | None = None
    output: str = "state"
    seeding: str = "state"
    default_seed: int | None = None
    bounded: str = "lemire"
    low: int | None = None
    bit_generator: str | None = None
    description: str = ""
    source: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def is_lcg(self) -> bool:
        """True for linear congruential generators (which have periods and lattices)."""
        return self.kind == "lcg"

    def make(self, seed: int | None = None) -> Source:
        """Build the generator, seeded with ``seed`` (default: the entry's default seed)."""
        seed = self.default_seed if seed is None else seed
        if self.kind == "lcg":
            return LCG(a=self.a, c=self.c, m=self.m, seed=seed, output=Output.parse(self.output),
                       seeding=self.seeding, name=self.name, low=self.low)
        if self.kind == "numpy":
            if self.seeding == "init_genrand":
                source = NumpySource(mt19937_init_genrand(seed), self.name)
                source.seed = seed
                return source
            return NumpySource.from_seed(self.bit_generator, seed, self.name)
        if self.kind == "python":
            return PythonRandomSource(seed, self.name)
        return OSEntropySource(self.name)


def _preset_from_table(name: str, table: dict) -> Preset:
    table = dict(table)
    kind = table.pop("kind", None)
    if kind not in KINDS:
        raise ValueError(f"catalog entry {name!r}: kind must be one of {', '.join(KINDS)}; got {kind!r}")
    for key in ("a", "c", "m"):
        if key in table:
            table[key] = parse_int(table[key])
    known = {f for f in Preset.__dataclass_fields__} - {"name", "kind", "extra"}
    extra = {k: table.pop(k) for k in list(table) if k not in known}
    return Preset(name=name, kind=kind, extra=extra, **table)


@functools.lru_cache(maxsize=None)
def catalog() -> dict[str, Preset]:
    """Return the catalog as an ordered mapping ``name -> Preset``."""
    with open(CATALOG_PATH, "rb") as handle:
        tables = tomllib.load(handle)
    return {name: _preset_from_table(name, table) for name, table in tables.items()}


def preset(name: str) -> Preset:
    """Look up a catalog entry by name, with a helpful error."""
    entries = catalog()
    if name not in entries:
        raise ValueError(f"unknown generator {name!r}; choose from {', '.join(entries)} "
                         "or write lcg:a=...,m=...[,c=...][,seed=...]")
    return entries[name]


def parse_lcg_spec(spec: str) -> dict:
    """Parse ``lcg:a=16807,m=2^31-1[,c=..][,seed=..][,output=bits(16,15)]`` into keywords."""
    if not spec.startswith("lcg:"):
        raise ValueError(f"an inline generator is written lcg:a=...,m=...; got {spec!r}")
    fields: dict = {}
    for part in _split_top_level(spec[4:]):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or key not in ("a", "c", "m", "seed", "output"):
            raise ValueError(f"in {spec!r}: expected a=, c=, m=, seed= or output=; got {part!r}")
        fields[key] = value.strip() if key == "output" else parse_int(value)
    if "a" not in fields or "m" not in fields:
        raise ValueError(f"in {spec!r}: a and m are required")
    return fields


def _split_top_level(text: str) -> list[str]:
    """Split on commas that are not inside parentheses (``output=bits(16,15)``)."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return parts + [current] if current.strip() else parts


def lcg_from_spec(spec: str, seed: int | None = None) -> LCG:
    """Build an :class:`LCG` from an inline specification (``seed`` overrides the spec's)."""
    fields = parse_lcg_spec(spec)
    output = Output.parse(fields.get("output", "state"))
    chosen = seed if seed is not None else fields.get("seed", 1)
    return LCG(a=fields["a"], c=fields.get("c", 0), m=fields["m"], seed=chosen, output=output, name=spec)


def make_source(name_or_spec: str, seed: int | None = None) -> Source:
    """Build a generator from a catalog name or an inline ``lcg:`` specification."""
    if name_or_spec.startswith("lcg:"):
        return lcg_from_spec(name_or_spec, seed)
    return preset(name_or_spec).make(seed)
