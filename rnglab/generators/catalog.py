"""The generator catalog (``rnglab/data/catalog.toml``), inline specifications, and :func:`as_generator`.

A generator is named by a catalog entry (``minstd``, ``msvc``, ``java``,
``pcg64``, ...) or by an inline specification
``lcg:a=16807,m=2^31-1[,c=0][,seed=1][,output=bits(16,15)]``, for a multiple
recursive generator ``mrg:m=2^31-1,a=271828183:-314159269[,seed=1]``, for a
multiply-with-carry generator ``mwc:a=698769069,b=2^32[,seed=t]``. Each becomes
one :class:`~rnglab.generators.spec.GeneratorSpec`.
"""

from __future__ import annotations

import functools
from importlib.resources import files

import tomllib

from rnglab.core.params import parse_int
from rnglab.core.registry import Registry
from rnglab.generators.base import Source
from rnglab.generators.conventions import convention
from rnglab.generators.mrg import Combination, Recurrence
from rnglab.generators.mwc import MultiplyWithCarry
from rnglab.generators.outputs import Output
from rnglab.generators.spec import KINDS, GeneratorSpec, from_source, lcg_spec, mwc_spec
from rnglab.reduction.reducers import DEFAULT_REDUCER, as_reducer

#: The shipped file, read through importlib.resources (a checkout, an editable install or a wheel).
CATALOG_PATH = files("rnglab.data") / "catalog.toml"
#: Fields of a catalog table (``source`` is the citation).
CATALOG_FIELDS = ("kind", "a", "b", "c", "m", "output", "seeding", "default_seed", "bounded", "low", "bit_generator",
                  "words", "algorithm", "components", "combine", "wrap", "norm", "state_order", "description", "source",
                  "states", "period")
#: Largest figure of the catalog, in bits (MT19937's 2^19937 - 1 states).
CATALOG_BITS = 2**15
#: Keys of an inline ``lcg:`` specification.
INLINE_KEYS = ("a", "c", "m", "seed", "output")
#: Keys of an inline ``mrg:`` specification.
MRG_KEYS = ("m", "a", "combine", "wrap", "seed")
#: Keys of an inline ``mwc:`` specification.
MWC_KEYS = ("a", "b", "seed")


def _spec_from_table(name: str, table: dict) -> GeneratorSpec:
    unknown = set(table) - set(CATALOG_FIELDS)
    if unknown:
        raise ValueError(f"catalog entry {name!r}: unknown fields {', '.join(sorted(unknown))}")
    kind = table.get("kind")
    if kind not in KINDS[:-1]:
        raise ValueError(f"catalog entry {name!r}: kind must be one of {', '.join(KINDS[:-1])}; got {kind!r}")
    fields = {"name": name, "kind": kind, "native_reducer": as_reducer(table.get("bounded", "lemire")),
              "default_seed": _default_seed(table.get("default_seed")), "low": table.get("low"),
              "words": table.get("words"),
              "description": table.get("description", ""), "citation": table.get("source", ""),
              **{key: parse_int(table[key], CATALOG_BITS) for key in ("states", "period") if key in table}}
    if kind == "lcg":
        fields.update({key: parse_int(table[key]) for key in ("a", "c", "m")},
                      output=Output.parse(table.get("output", "state")),
                      seeding=convention(table.get("seeding", "state")))
    elif kind == "mwc":
        carry = MultiplyWithCarry.from_text(table["a"], table["b"])
        fields.update(a=carry.a, c=0, m=carry.modulus, output=carry.output, seeding=convention("state"), carry=carry)
    elif kind == "mrg":
        fields.update(combination=_combination_from_table(table))
    elif kind == "linear":
        fields.update(algorithm=table.get("algorithm"))
    elif kind == "numpy":
        fields.update(bit_generator=table["bit_generator"], init_genrand=table.get("seeding") == "init_genrand")
    return GeneratorSpec(**fields)


def _default_seed(value):
    """A default seed: a TOML integer, or an expression for seeds beyond 64 bits (a 128-bit state)."""
    return parse_int(value, CATALOG_BITS) if isinstance(value, str) else value


def _combination_from_table(table: dict) -> Combination:
    """An MRG entry: ``components`` (``m=..,a=a1:..:ak`` each), ``combine``, ``wrap``, ``norm``, ``state_order``."""
    components = tuple(Recurrence.parse(text) for text in table["components"])
    wrap = table.get("wrap")
    return Combination(components, table.get("combine", "single"), None if wrap is None else parse_int(wrap),
                       None if "norm" not in table else float(table["norm"]),
                       table.get("state_order", "oldest-first"))


@functools.cache
def catalog() -> Registry[GeneratorSpec]:
    """The catalog as an ordered mapping ``name -> GeneratorSpec``, read from ``rnglab/data/catalog.toml``.

    Examples
    --------
    >>> from rnglab import catalog
    >>> list(catalog())[:3]
    ['minstd', 'minstd_rand', 'randu']
    """
    with CATALOG_PATH.open("rb") as handle:
        tables = tomllib.load(handle)
    return Registry("generator", {name: _spec_from_table(name, table) for name, table in tables.items()},
                    tail=_not_in_catalog)


def _not_in_catalog(names: list[str]) -> str:
    """The tail of the error for a name that is neither in the catalog nor a specification."""
    return (f": not one of the {len(names)} in the catalog ({', '.join(names[:6])}, ...: rnglab list), "
            "nor lcg:a=..,m=..[,c=..] or mrg:m=..,a=a1:..:ak or mwc:a=..,b=..")


def parse_lcg_spec(spec: str) -> GeneratorSpec:
    """Parse ``lcg:a=16807,m=2^31-1[,c=..][,seed=..][,output=bits(16,15)]``.

    Raises
    ------
    ValueError
        For an unknown or repeated key, or a missing ``a`` or ``m``.
    """
    if not spec.startswith("lcg:"):
        raise ValueError(f"an inline generator is written lcg:a=...,m=...; got {spec!r}")
    fields: dict = {}
    for part in _split_top_level(spec[4:]):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or key not in INLINE_KEYS:
            raise ValueError(f"in {spec!r}: expected a=, c=, m=, seed= or output=; got {part!r}")
        if key in fields:
            raise ValueError(f"in {spec!r}: {key}= is given twice")
        fields[key] = value.strip() if key == "output" else parse_int(value)
    if "a" not in fields or "m" not in fields:
        raise ValueError(f"in {spec!r}: a and m are required")
    return lcg_spec(fields["a"], fields["m"], fields.get("c", 0), output=Output.parse(fields.get("output", "state")),
                    seed=fields.get("seed"), name=spec)


def parse_mrg_spec(spec: str) -> GeneratorSpec:
    """Parse ``mrg:m=2^31-1,a=271828183:-314159269[,seed=..]``, or components joined by ``/``.

    Each component is ``m=...,a=a1:a2:...:ak``; several make a combination
    (``combine=difference`` by default, or ``fraction``; ``wrap=`` for
    ``difference``), e.g. MRG32k3a is
    ``mrg:m=2^32-209,a=0:1403580:-810728/m=2^32-22853,a=527612:0:-1370589``.

    Raises
    ------
    ValueError
        For an unknown or repeated key, or a component without ``m`` or ``a``.
    """
    components, options = [], {}
    for group in spec[4:].split("/"):
        fields: dict = {}
        for part in group.split(","):
            key, sep, value = (text.strip() for text in part.partition("="))
            if not sep or key not in MRG_KEYS:
                raise ValueError(f"in {spec!r}: expected m=, a=a1:a2:...:ak, combine=, wrap= or seed=; got {part!r}")
            target = fields if key in ("m", "a") else options
            if key in target:
                raise ValueError(f"in {spec!r}: {key}= is given twice")
            target[key] = value
        if "a" not in fields or "m" not in fields:
            raise ValueError(f"in {spec!r}: m and a are required for every component")
        components.append(Recurrence.from_text(fields["m"], fields["a"]))
    rule = options.get("combine", "single" if len(components) == 1 else "difference")
    combination = Combination(tuple(components), rule, parse_int(options["wrap"]) if "wrap" in options else None)
    seed = parse_int(options["seed"]) if "seed" in options else 1
    return GeneratorSpec(spec, "mrg", DEFAULT_REDUCER, default_seed=seed, combination=combination)


def parse_mwc_spec(spec: str) -> GeneratorSpec:
    """Parse ``mwc:a=698769069,b=2^32[,seed=t]``: the seed is the word t = c b + x its programs keep.

    Raises
    ------
    ValueError
        For an unknown or repeated key, a missing ``a`` or ``b``, or parameters
        :class:`~rnglab.generators.mwc.MultiplyWithCarry` refuses.
    """
    fields: dict = {}
    for part in spec[4:].split(","):
        key, sep, value = (text.strip() for text in part.partition("="))
        if not sep or key not in MWC_KEYS:
            raise ValueError(f"in {spec!r}: expected a=, b= or seed=; got {part!r}")
        if key in fields:
            raise ValueError(f"in {spec!r}: {key}= is given twice")
        fields[key] = value
    if "a" not in fields or "b" not in fields:
        raise ValueError(f"in {spec!r}: a and b are required")
    seed = parse_int(fields["seed"]) if "seed" in fields else None
    return mwc_spec(MultiplyWithCarry.from_text(fields["a"], fields["b"]), seed=seed, name=spec)


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


def as_generator(value) -> GeneratorSpec:
    """Resolve a generator once: a catalog name, an ``lcg:``, ``mrg:`` or ``mwc:`` specification, a spec, or a generator
    object.

    Raises
    ------
    ValueError
        For an unknown name, with the list of names.
    TypeError
        For an object that is not a generator.
    """
    if isinstance(value, GeneratorSpec):
        return value
    if not isinstance(value, str):
        return from_source(value)
    if value.startswith("lcg:"):
        return parse_lcg_spec(value)
    if value.startswith("mrg:"):
        return parse_mrg_spec(value)
    if value.startswith("mwc:"):
        return parse_mwc_spec(value)
    return catalog()[value]


def make_source(value, seed: int | None = None) -> Source:
    """Resolve a generator (:func:`as_generator`) and build it for ``seed``.

    Parameters
    ----------
    value : str or GeneratorSpec
        A catalog name, an ``lcg:``/``mrg:``/``mwc:`` specification, or a resolved :class:`GeneratorSpec`.
    seed : int or None
        The seed as the generator's library takes it (``srand(seed)``); ``None``: its default seed.

    Returns
    -------
    Source
        The seeded generator; ``random_raw(size)`` gives its next outputs as an array.

    Examples
    --------
    >>> from rnglab import make_source
    >>> make_source("msvc", 1).random_raw(3)
    array([   41, 18467,  6334], dtype=uint64)
    """
    return as_generator(value).make(seed)
