"""Generators: LCGs with exact parameters (multiply-with-carry generators as their equivalent LCG), batches of them,
MRGs and combinations, adapters for other sources, and the catalog, whose entries (and any other way of naming a
generator) resolve to one :class:`GeneratorSpec`."""

from .adapters import CallableSource, NumpySource, OSEntropySource, PythonRandomSource, ideal_source
from .affine import affine_power
from .base import Source
from .catalog import as_generator, catalog, make_source, parse_lcg_spec, parse_mrg_spec
from .conventions import SeedConvention, convention
from .external import ByteStreamSource, input_spec
from .lcg import LCG, LCGBatch, validate_lcg
from .mrg import MRG, Combination, Recurrence
from .outputs import Output
from .spec import GeneratorSpec, lcg_spec

__all__ = [
    "ByteStreamSource", "CallableSource", "Combination", "GeneratorSpec", "LCG", "LCGBatch", "MRG", "NumpySource",
    "OSEntropySource", "Output", "PythonRandomSource", "Recurrence", "SeedConvention", "Source", "affine_power",
    "as_generator", "catalog", "convention", "ideal_source", "input_spec", "lcg_spec", "make_source",
    "parse_lcg_spec", "parse_mrg_spec", "validate_lcg",
]
