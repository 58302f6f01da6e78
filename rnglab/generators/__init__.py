"""Generators: LCGs with exact parameters (multiply-with-carry generators as their equivalent LCG), batches of them,
MRGs and combinations, adapters for other sources, and the catalog, whose entries (and any other way of naming a
generator) resolve to one :class:`GeneratorSpec`."""

from rnglab.generators.adapters import CallableSource, NumpySource, OSEntropySource, PythonRandomSource, ideal_source
from rnglab.generators.affine import affine_power
from rnglab.generators.base import Source
from rnglab.generators.catalog import as_generator, catalog, make_source, parse_lcg_spec, parse_mrg_spec
from rnglab.generators.conventions import SeedConvention, convention
from rnglab.generators.external import ByteStreamSource, input_spec
from rnglab.generators.lcg import LCG, LCGBatch, validate_lcg
from rnglab.generators.mrg import MRG, Combination, Recurrence
from rnglab.generators.outputs import Output
from rnglab.generators.spec import GeneratorSpec, lcg_spec

__all__ = [
    "LCG",
    "MRG",
    "ByteStreamSource",
    "CallableSource",
    "Combination",
    "GeneratorSpec",
    "LCGBatch",
    "NumpySource",
    "OSEntropySource",
    "Output",
    "PythonRandomSource",
    "Recurrence",
    "SeedConvention",
    "Source",
    "affine_power",
    "as_generator",
    "catalog",
    "convention",
    "ideal_source",
    "input_spec",
    "lcg_spec",
    "make_source",
    "parse_lcg_spec",
    "parse_mrg_spec",
    "validate_lcg",
]
