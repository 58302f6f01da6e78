"""Names the commands' ``--help`` shows, kept here so that printing help imports no library module.

The library's registries import numpy and numba (about 0.3 s); help needs only
their names. Each tuple below is a copy of a registry's keys, in order;
tests/test_cli_startup.py checks that each equals its source, so they cannot drift.
"""

#: :data:`rnglab.reduction.reducers.REDUCERS`
REDUCER_NAMES = ("modulo", "float-multiply", "multiply-shift", "threshold", "threshold-openbsd", "bitmask",
                 "lemire", "java-nextint", "python-randbelow")
#: :data:`rnglab.shuffles.algorithms.SHUFFLES`
SHUFFLE_NAMES = ("fisher-yates", "forward", "inside-out", "sattolo", "naive", "transpositions", "sort-keys",
                 "sort-keys-redraw", "draw-unused", "draw-remove", "poker1999", "unrank", "ascending", "deitel",
                 "libstdcxx-shuffle")
#: :data:`rnglab.shuffles.algorithms.SWAP_RULES`
SWAP_RULES = ("n", "touch", "half-nlogn")
#: :data:`rnglab.shuffles.deal.GAMES`
GAME_NAMES = ("holdem", "doudizhu")
#: :data:`rnglab.seeds.space.DEFAULT_WINDOW`
SEED_WINDOW = "1d"
#: :data:`rnglab.algebra.spectral.MAX_DIMENSION`
MAX_DIMENSION = 64
