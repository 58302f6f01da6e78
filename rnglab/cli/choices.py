"""Names the commands' ``--help`` shows, kept here so that printing help imports no library module.

The library's registries import numpy and numba (about 0.3 s); help needs only
their names. Each tuple below is a copy of a registry's keys, in order;
tests/cli/test_choices.py checks that each equals its source, so they cannot drift.
"""

#: :data:`rnglab.reduction.reducers.REDUCERS`
REDUCER_NAMES = ("modulo", "float-multiply", "multiply-shift", "threshold", "threshold-openbsd", "bitmask",
                 "lemire", "java-nextint", "python-randbelow")
#: :data:`rnglab.shuffles.algorithms.SHUFFLES`
SHUFFLE_NAMES = ("fisher-yates", "forward", "inside-out", "sattolo", "naive", "transpositions", "sort-keys",
                 "sort-keys-redraw", "draw-unused", "draw-remove", "poker1999", "unrank", "js-sort-insertion",
                 "js-sort-timsort", "ascending", "deitel", "libstdcxx-shuffle", "fisher-yates-to-zero")
#: :data:`rnglab.shuffles.algorithms.SWAP_RULES`
SWAP_RULES = ("n", "touch", "half-nlogn")
#: :data:`rnglab.shuffles.deal.GAMES`
GAME_NAMES = ("holdem", "doudizhu")
#: :data:`rnglab.empirical.stattests.TESTS`
TEST_NAMES = ("bcfn", "collision", "birthday-spacings", "frequency", "serial", "serial-overlapping",
              "serial-correlation", "float-frequency", "fourier", "hamming-weight", "gap-16", "gcd",
              "hamming-independence", "gap", "poker", "coupon", "permutation", "max-of-t", "linear-complexity",
              "matrix-rank", "count-ones", "weight-distribution", "random-walk", "runs-up")
#: :data:`rnglab.seeds.space.DEFAULT_WINDOW`
SEED_WINDOW = "1d"
#: :data:`rnglab.algebra.spectral.MAX_DIMENSION`
MAX_DIMENSION = 64
#: :data:`rnglab.algebra.normalizers.NORMALIZATIONS`
NORMALIZATIONS = ("bestlat", "laminated", "rogers")
#: :data:`rnglab.generators.external.FORMATS`
INPUT_FORMATS = ("u8", "u16", "u32", "u64", "bits")
#: :data:`rnglab.streams.gateway.STREAM_FORMATS`
STREAM_FORMATS = ("packed", "scaled32", "left32")
#: :data:`rnglab.recovery.distributed.DEVICES`
DEVICE_NAMES = ("cpu", "gpu")
#: :data:`rnglab.recovery.distributed.MAX_SCALED_SEEDS`
MAX_SCALED_SEEDS = 1 << 64
