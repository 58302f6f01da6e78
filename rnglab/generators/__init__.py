"""Generators: LCGs with exact parameters, batches of them, and adapters for other sources."""

from .adapters import CallableSource, NumpySource, OSEntropySource, PythonRandomSource
from .affine import affine_power
from .base import Source
from .conventions import SeedConvention, convention
from .lcg import LCG, LCGBatch, validate_lcg
from .outputs import Output

__all__ = [
    "CallableSource", "LCG", "LCGBatch", "NumpySource", "OSEntropySource", "Output",
    "PythonRandomSource", "SeedConvention", "Source", "affine_power", "convention", "validate_lcg",
]
