"""rnglab: a laboratory for random number generator quality and seeding.

The package is layered left to right (see ``DESIGN.md``): parameters and presets,
generators, the stream gateway, analyses (periods, lattices, empirical tests, range
reduction, shuffles, seeding, seed recovery), the report and the command line.
"""

__version__ = "0.1.0"
